-- Derived data, kept exact by statement-level triggers on the memory tables.
--
-- Restore-safe by construction: pg_dump keeps the memory tables' rows (they are
-- extension config tables) but not the derived tables below, and a restore
-- inserts the rows again, which fires these triggers on empty derived tables.
-- entities.mention_count, which is dumped with its row, is recounted rather than
-- incremented, so a restore cannot double it.
--
--   _bank_counts    per bank: memory units and their total keyword length
--   _bm25_terms     per bank and term: document frequency
--   _bm25_postings  per bank, term and unit: term frequency and the unit's length
-- (the BM25 keyword backend reads the last two; the graph arm reads unit_count).
-- The triggers run as the extension owner (SECURITY DEFINER): callers may read
-- the derived tables of their banks but never write them.

CREATE TABLE hindsight._bank_counts (
    bank_id      text PRIMARY KEY REFERENCES hindsight.banks ON DELETE CASCADE,
    unit_count   bigint NOT NULL DEFAULT 0,
    total_length bigint NOT NULL DEFAULT 0
);
COMMENT ON TABLE hindsight._bank_counts IS
    'Derived: memory units per bank and the sum of their keyword lengths (BM25 avgdl). Kept by triggers.';

CREATE TABLE hindsight._bm25_terms (
    bank_id text NOT NULL,
    term    text NOT NULL,
    df      int NOT NULL CHECK (df >= 0),  -- rows at 0 are removed by the same trigger
    PRIMARY KEY (bank_id, term)
);
COMMENT ON TABLE hindsight._bm25_terms IS
    'Derived: in how many memory units of the bank each search_vector lexeme occurs. Kept by triggers.';

CREATE TABLE hindsight._bm25_postings (
    bank_id    text NOT NULL,
    term       text NOT NULL,
    unit_id    uuid NOT NULL,
    tf         int NOT NULL,
    doc_length int NOT NULL,
    PRIMARY KEY (bank_id, term, unit_id) INCLUDE (tf, doc_length)
);
COMMENT ON TABLE hindsight._bm25_postings IS
    'Derived: per term, the units it occurs in with its frequency there and the unit''s length, read only for '
    'the query''s terms. Kept by triggers.';

CREATE FUNCTION hindsight._index_units()
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
COMMENT ON FUNCTION hindsight._index_units() IS
    'Trigger: keeps _bank_counts, _bm25_terms and _bm25_postings exact as memory units come, go or change text.';

CREATE TRIGGER memory_units_indexed_insert AFTER INSERT ON hindsight.memory_units
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hindsight._index_units();
CREATE TRIGGER memory_units_indexed_delete AFTER DELETE ON hindsight.memory_units
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hindsight._index_units();
CREATE TRIGGER memory_units_indexed_update AFTER UPDATE ON hindsight.memory_units
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION hindsight._index_units();

CREATE FUNCTION hindsight._count_mentions()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    UPDATE hindsight.entities e
    SET mention_count = (SELECT count(*) FROM hindsight.unit_entities ue
                         WHERE ue.bank_id = e.bank_id AND ue.entity_id = e.id)
    FROM (SELECT DISTINCT bank_id, entity_id FROM changed) c
    WHERE e.bank_id = c.bank_id AND e.id = c.entity_id;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._count_mentions() IS
    'Trigger: recounts entities.mention_count (units linked to the entity) for the entities a statement touched.';

CREATE TRIGGER unit_entities_counted_insert AFTER INSERT ON hindsight.unit_entities
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_mentions();
CREATE TRIGGER unit_entities_counted_delete AFTER DELETE ON hindsight.unit_entities
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_mentions();

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
