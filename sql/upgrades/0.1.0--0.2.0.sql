-- hindsight_pg 0.1.0 -> 0.2.0: the schema changes since 0.1.0, run once, in order.
-- The build appends every file of sql/functions/ (all CREATE OR REPLACE), so functions,
-- views and comments need no entry here; new or changed tables, columns, indexes, types,
-- policies and triggers do, and so does dropping a function whose signature changed.
-- tests/db/test_upgrade.py checks that 0.1.0 + this script equals a fresh 0.2.0 install.

-- Retain pipeline (documents update in place: kept chunks are renumbered).
ALTER TABLE hindsight.memory_units DROP CONSTRAINT memory_units_bank_id_chunk_id_fkey;
ALTER TABLE hindsight.memory_units ADD CONSTRAINT memory_units_bank_id_chunk_id_fkey
    FOREIGN KEY (bank_id, chunk_id) REFERENCES hindsight.chunks ON DELETE CASCADE ON UPDATE CASCADE;

-- Retain's temporal links: a unit's nearest neighbours in time within its fact type.
CREATE INDEX memory_units_type_effective_idx
    ON hindsight.memory_units (bank_id, fact_type, (coalesce(occurred_start, mentioned_at)));

-- Entity co-occurrence counts (the table, trigger function and triggers as in 003-triggers.sql).
CREATE TABLE hindsight._entity_cooccurrences (
    bank_id         text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    entity_id       uuid NOT NULL,
    other_entity_id uuid NOT NULL,
    unit_count      int NOT NULL CHECK (unit_count >= 0),  -- rows at 0 are removed by the same trigger
    PRIMARY KEY (bank_id, entity_id, other_entity_id)
);
COMMENT ON TABLE hindsight._entity_cooccurrences IS
    'Derived: for each pair of entities (both directions), in how many memory units both occur. Kept by triggers; '
    'entity resolution reads it, hindsight.entity_stats shows it.';

CREATE FUNCTION hindsight._count_cooccurrences()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- Per unit, every ordered pair of its entities counts once. The pairs a statement
    -- makes or breaks: among its own rows, and between its rows and the unit's other
    -- rows (which, after the statement, are exactly the unit's rows not in it).
    IF TG_OP = 'INSERT' THEN
        INSERT INTO hindsight._entity_cooccurrences AS c (bank_id, entity_id, other_entity_id, unit_count)
        SELECT p.bank_id, p.a, p.b, count(*)
        FROM (SELECT n.bank_id, n.entity_id AS a, ue.entity_id AS b
              FROM changed n JOIN hindsight.unit_entities ue
                ON ue.bank_id = n.bank_id AND ue.unit_id = n.unit_id AND ue.entity_id <> n.entity_id
              UNION ALL
              SELECT n.bank_id, ue.entity_id, n.entity_id
              FROM changed n JOIN hindsight.unit_entities ue
                ON ue.bank_id = n.bank_id AND ue.unit_id = n.unit_id AND ue.entity_id <> n.entity_id
              WHERE NOT EXISTS (SELECT FROM changed x WHERE x.bank_id = ue.bank_id AND x.unit_id = ue.unit_id
                                                        AND x.entity_id = ue.entity_id)) p
        GROUP BY 1, 2, 3
        ON CONFLICT (bank_id, entity_id, other_entity_id) DO UPDATE SET unit_count = c.unit_count + excluded.unit_count;
    ELSE
        WITH gone AS (
            SELECT o1.bank_id, o1.entity_id AS a, o2.entity_id AS b
            FROM changed o1 JOIN changed o2
              ON o2.bank_id = o1.bank_id AND o2.unit_id = o1.unit_id AND o2.entity_id <> o1.entity_id
            UNION ALL
            SELECT o.bank_id, x.a, x.b
            FROM changed o JOIN hindsight.unit_entities ue ON ue.bank_id = o.bank_id AND ue.unit_id = o.unit_id,
                 LATERAL (VALUES (o.entity_id, ue.entity_id), (ue.entity_id, o.entity_id)) AS x(a, b)
        ), counted AS (
            SELECT bank_id, a, b, count(*)::int AS n FROM gone GROUP BY 1, 2, 3
        )
        UPDATE hindsight._entity_cooccurrences c SET unit_count = c.unit_count - n.n
        FROM counted n WHERE c.bank_id = n.bank_id AND c.entity_id = n.a AND c.other_entity_id = n.b;
        -- a pair at 0 is at 0 in both directions, and one direction starts at an entity of the statement
        DELETE FROM hindsight._entity_cooccurrences c
        USING (SELECT z.bank_id, z.entity_id, z.other_entity_id FROM hindsight._entity_cooccurrences z
               WHERE z.unit_count <= 0
                 AND (z.bank_id, z.entity_id) IN (SELECT DISTINCT bank_id, entity_id FROM changed)) d
        WHERE c.bank_id = d.bank_id
          AND ((c.entity_id = d.entity_id AND c.other_entity_id = d.other_entity_id)
            OR (c.entity_id = d.other_entity_id AND c.other_entity_id = d.entity_id));
    END IF;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._count_cooccurrences() IS
    'Trigger: keeps _entity_cooccurrences exact as unit_entities rows come and go.';

CREATE TRIGGER unit_entities_cooccurring_insert AFTER INSERT ON hindsight.unit_entities
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_cooccurrences();
CREATE TRIGGER unit_entities_cooccurring_delete AFTER DELETE ON hindsight.unit_entities
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_cooccurrences();

ALTER TABLE hindsight._entity_cooccurrences ENABLE ROW LEVEL SECURITY;
ALTER TABLE hindsight._entity_cooccurrences FORCE ROW LEVEL SECURITY;
CREATE POLICY bank_read ON hindsight._entity_cooccurrences FOR SELECT
    USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'read'))::text[]));
GRANT SELECT ON hindsight._entity_cooccurrences TO PUBLIC;

-- counts for the entities a 0.1.0 bank already has
INSERT INTO hindsight._entity_cooccurrences (bank_id, entity_id, other_entity_id, unit_count)
SELECT a.bank_id, a.entity_id, b.entity_id, count(*)
FROM hindsight.unit_entities a
JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.unit_id = a.unit_id AND b.entity_id <> a.entity_id
GROUP BY 1, 2, 3;

-- memory_links: the per-row foreign keys give way to a set-based trigger (see 001-tables.sql).
ALTER TABLE hindsight.memory_links DROP CONSTRAINT memory_links_bank_id_from_unit_id_fkey;
ALTER TABLE hindsight.memory_links DROP CONSTRAINT memory_links_bank_id_to_unit_id_fkey;
COMMENT ON TABLE hindsight.memory_links IS
    'Directed, weighted links between memory units, walked by the graph and temporal arms. Deleting a unit '
    'deletes its links (trigger memory_units_unlinked).';

CREATE FUNCTION hindsight._unlink_units()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- the links from and to the deleted units, through the primary key and memory_links_to_idx
    DELETE FROM hindsight.memory_links l USING old_rows o WHERE l.bank_id = o.bank_id AND l.from_unit_id = o.id;
    DELETE FROM hindsight.memory_links l USING old_rows o WHERE l.bank_id = o.bank_id AND l.to_unit_id = o.id;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._unlink_units() IS
    'Trigger: deletes the memory_links from and to the memory units a statement deleted.';

CREATE TRIGGER memory_units_unlinked AFTER DELETE ON hindsight.memory_units
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hindsight._unlink_units();

-- Model providers: database-wide defaults (as in 001-tables.sql).
CREATE TABLE hindsight.settings (
    name  text PRIMARY KEY CHECK (name IN ('embedding_provider', 'reranker_provider', 'llm_endpoints')),
    value jsonb NOT NULL CHECK (jsonb_typeof(value) = 'object')
);
COMMENT ON TABLE hindsight.settings IS
    'Database-wide settings: embedding_provider and reranker_provider (docs/providers.md; a bank''s config keys '
    'of the same names take precedence), llm_endpoints (the language model base URLs that roles other than '
    'superusers may have the database call, docs/reflect.md). A missing row means the built-in default (local '
    'all-MiniLM-L6-v2; no reranker; no endpoints). Change with hindsight.set_setting.';
SELECT pg_catalog.pg_extension_config_dump('hindsight.settings', '');
GRANT SELECT ON hindsight.settings TO PUBLIC;

-- Every bank config is validated, however it is written (create_bank, UPDATE, a restore).
CREATE FUNCTION hindsight._banks_config_checked()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM hindsight._check_config(NEW.config);
    ELSIF NEW.config IS DISTINCT FROM OLD.config THEN
        -- provider keys a superuser set and this change keeps are not the writer's to answer for
        PERFORM hindsight._check_config(NEW.config - ARRAY(
            SELECT k FROM unnest(ARRAY['embedding_provider', 'reranker_provider']) k
            WHERE NEW.config ? k AND NEW.config->k = OLD.config->k));
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION hindsight._banks_config_checked() IS
    'Trigger: validates a bank''s config with hindsight._check_config on insert and on every config change '
    '(provider keys left as they were are not checked again, so a bank admin may change other keys of a bank '
    'whose provider a superuser set).';

CREATE TRIGGER banks_config_checked BEFORE INSERT OR UPDATE OF config ON hindsight.banks
    FOR EACH ROW EXECUTE FUNCTION hindsight._banks_config_checked();

-- Observations (consolidation): a mark on consolidated facts, and which facts support which
-- observation (as in 001-tables.sql and 004-security.sql); BM25 statistics skip updates that
-- leave the text as it was (003-triggers.sql).
CREATE OR REPLACE FUNCTION hindsight._index_units()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        -- an update that leaves every search_vector as it was (e.g. consolidated_at) changes no statistics;
        -- a set difference, not a join: the plan is cached from the first call (often one row), and a
        -- nested loop over thousands of rows would be quadratic
        IF NOT EXISTS (SELECT n.bank_id, n.id, n.search_vector::text FROM new_rows n
                       EXCEPT ALL
                       SELECT o.bank_id, o.id, o.search_vector::text FROM old_rows o) THEN
            RETURN NULL;
        END IF;
    END IF;
    -- the rows that left, then the rows that came (an UPDATE does both)
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        WITH gone AS (
            SELECT o.bank_id, o.id, t.lexeme, cardinality(t.positions) AS tf
            FROM old_rows o, unnest(o.search_vector) AS t
        ), removed AS (
            DELETE FROM hindsight._bm25_postings p USING gone g
            WHERE p.bank_id = g.bank_id AND p.term = g.lexeme AND p.unit_id = g.id
        ), counted AS (
            SELECT bank_id, lexeme, count(*)::int AS n FROM gone GROUP BY 1, 2
        )
        UPDATE hindsight._bm25_terms t SET df = t.df - c.n
        FROM counted c WHERE t.bank_id = c.bank_id AND t.term = c.lexeme;
        DELETE FROM hindsight._bm25_terms t WHERE t.df <= 0 AND t.bank_id IN (SELECT DISTINCT bank_id FROM old_rows);
        UPDATE hindsight._bank_counts b
        SET unit_count = b.unit_count - n.units, total_length = b.total_length - n.length
        FROM (SELECT o.bank_id, count(*) AS units,
                     coalesce(sum((SELECT sum(cardinality(t.positions)) FROM unnest(o.search_vector) t)), 0) AS length
              FROM old_rows o GROUP BY o.bank_id) n
        WHERE b.bank_id = n.bank_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        WITH came AS (
            SELECT r.bank_id, r.id, t.lexeme, cardinality(t.positions) AS tf,
                   (SELECT sum(cardinality(x.positions)) FROM unnest(r.search_vector) x)::int AS doc_length
            FROM new_rows r, unnest(r.search_vector) AS t
        ), added AS (
            INSERT INTO hindsight._bm25_postings (bank_id, term, unit_id, tf, doc_length)
            SELECT bank_id, lexeme, id, tf, doc_length FROM came
        )
        INSERT INTO hindsight._bm25_terms AS t (bank_id, term, df)
        SELECT bank_id, lexeme, count(*) FROM came GROUP BY 1, 2
        ON CONFLICT (bank_id, term) DO UPDATE SET df = t.df + excluded.df;
        INSERT INTO hindsight._bank_counts AS b (bank_id, unit_count, total_length)
        SELECT r.bank_id, count(*),
               coalesce(sum((SELECT sum(cardinality(t.positions)) FROM unnest(r.search_vector) t)), 0)
        FROM new_rows r GROUP BY r.bank_id
        ON CONFLICT (bank_id) DO UPDATE
        SET unit_count = b.unit_count + excluded.unit_count, total_length = b.total_length + excluded.total_length;
    END IF;
    RETURN NULL;
END
$$;
ALTER TABLE hindsight.memory_units ADD COLUMN consolidated_at timestamptz;
CREATE TABLE hindsight.observation_sources (
    bank_id        text NOT NULL,
    observation_id uuid NOT NULL,
    unit_id        uuid NOT NULL,
    added_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bank_id, observation_id, unit_id),
    FOREIGN KEY (bank_id, observation_id) REFERENCES hindsight.memory_units ON DELETE CASCADE,
    FOREIGN KEY (bank_id, unit_id) REFERENCES hindsight.memory_units ON DELETE CASCADE
);
CREATE INDEX observation_sources_unit_idx ON hindsight.observation_sources (bank_id, unit_id);
COMMENT ON TABLE hindsight.observation_sources IS
    'The facts (world or experience memory units) that support each observation: its proof. Deleting a fact '
    'updates or removes its observations (trigger observation_sources_changed).';
SELECT pg_catalog.pg_extension_config_dump('hindsight.observation_sources', '');

ALTER TABLE hindsight.observation_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE hindsight.observation_sources FORCE ROW LEVEL SECURITY;
CREATE POLICY bank_read ON hindsight.observation_sources FOR SELECT
    USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'read'))::text[]));
CREATE POLICY bank_write ON hindsight.observation_sources FOR ALL
    USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'write'))::text[]))
    WITH CHECK (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'write'))::text[]));
GRANT SELECT, INSERT, UPDATE, DELETE ON hindsight.observation_sources TO PUBLIC;

-- Observations follow their facts: a fact deleted from an observation's proof updates the
-- observation, or removes it when no fact is left (hindsight._refresh_observation).
CREATE FUNCTION hindsight._observation_sources_changed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    o record;
BEGIN
    FOR o IN SELECT DISTINCT g.bank_id, g.observation_id FROM gone g
             JOIN hindsight.memory_units u ON u.bank_id = g.bank_id AND u.id = g.observation_id LOOP
        PERFORM hindsight._refresh_observation(o.bank_id, o.observation_id);
    END LOOP;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._observation_sources_changed() IS
    'Trigger: refreshes (or deletes, when no fact is left) the observations whose supporting facts were deleted.';

CREATE TRIGGER observation_sources_changed AFTER DELETE ON hindsight.observation_sources
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION hindsight._observation_sources_changed();

-- recall, recall_json and recall_finish take prefer_observations (a new last argument): the
-- old signatures go, the functions files create the new ones.
DROP FUNCTION hindsight.recall_json(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool, int);
DROP FUNCTION hindsight.recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text);
DROP FUNCTION hindsight.recall_finish(text, hindsight.recall_candidate[], float8[], text, int, timestamptz, text, bool);

-- Mental models: named summaries a reflect keeps up to date (docs/reflect.md).
CREATE TABLE hindsight.mental_models (
    bank_id           text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    id                uuid NOT NULL DEFAULT gen_random_uuid(),
    name              text NOT NULL CHECK (btrim(name) <> ''),
    source_query      text NOT NULL CHECK (btrim(source_query) <> ''),
    tags              text[] NOT NULL DEFAULT '{}',
    max_tokens        int NOT NULL DEFAULT 2048 CHECK (max_tokens > 0),
    content           text,
    embedding         vector(384),
    based_on          uuid[] NOT NULL DEFAULT '{}',
    last_refreshed_at timestamptz,
    history           jsonb NOT NULL DEFAULT '[]'::jsonb,
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bank_id, id),
    UNIQUE (bank_id, name)
);
COMMENT ON TABLE hindsight.mental_models IS
    'Named summaries of a bank: source_query is answered by reflect on every refresh; content, embedding, '
    'based_on and last_refreshed_at hold the latest answer, history the earlier ones.';
SELECT pg_catalog.pg_extension_config_dump('hindsight.mental_models', '');
ALTER TABLE hindsight.mental_models ENABLE ROW LEVEL SECURITY;
ALTER TABLE hindsight.mental_models FORCE ROW LEVEL SECURITY;
CREATE POLICY bank_read ON hindsight.mental_models FOR SELECT
    USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'read'))::text[]));
CREATE POLICY bank_write ON hindsight.mental_models FOR ALL
    USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'write'))::text[]))
    WITH CHECK (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'write'))::text[]));
GRANT SELECT, INSERT, UPDATE, DELETE ON hindsight.mental_models TO PUBLIC;

-- A row of hindsight.retain_text (as in 001-tables.sql): a PL/pgSQL function cannot return a column named like one
-- of its arguments (document_id), so its rows have this type.
CREATE TYPE hindsight.retained_unit AS (document_id text, unit_id uuid);
COMMENT ON TYPE hindsight.retained_unit IS
    'A row of hindsight.retain_text: the document and one memory unit it stored (NULL when it stored none).';
