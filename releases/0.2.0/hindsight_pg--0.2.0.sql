-- hindsight_pg 0.2.0, as released (frozen: never edit; sql/upgrades/ takes it forward).
\echo Use "CREATE EXTENSION hindsight_pg VERSION '0.2.0' CASCADE" to load this file. \quit

-- sql/schema/001-tables.sql
-- Tables of hindsight_pg. Every key includes bank_id, so each table can be
-- distributed by bank (Citus) without changing a constraint.

CREATE TABLE hindsight.banks (
    bank_id    text PRIMARY KEY
               CHECK (btrim(bank_id) <> '' AND length(bank_id) <= 200),
    name       text,
    config     jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(config) = 'object'),
    created_by name NOT NULL DEFAULT current_user,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX banks_created_by_idx ON hindsight.banks (created_by);
COMMENT ON TABLE hindsight.banks IS
    'Memory banks: one isolated memory per agent or user. config overrides hindsight._default_config(); '
    'created_by (the creating role) is the bank''s first admin (see bank_members).';

CREATE TABLE hindsight.documents (
    bank_id       text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    document_id   text NOT NULL CHECK (document_id <> ''),
    original_text text,
    content_hash  text,
    tags          text[] NOT NULL DEFAULT '{}',
    metadata      jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bank_id, document_id)
);
COMMENT ON TABLE hindsight.documents IS
    'Retained items as given (one row per retain item); retaining the same document_id again replaces it.';

CREATE TABLE hindsight.chunks (
    bank_id      text NOT NULL,
    chunk_id     text NOT NULL,
    document_id  text NOT NULL,
    chunk_index  int NOT NULL CHECK (chunk_index >= 0),
    chunk_text   text NOT NULL,
    content_hash text NOT NULL,
    PRIMARY KEY (bank_id, chunk_id),
    UNIQUE (bank_id, document_id, chunk_index),
    FOREIGN KEY (bank_id, document_id) REFERENCES hindsight.documents ON DELETE CASCADE
);
COMMENT ON TABLE hindsight.chunks IS
    'Pieces of a document (at most 3,000 characters each, split on paragraph, sentence, word).';

CREATE TABLE hindsight.memory_units (
    bank_id        text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    id             uuid NOT NULL DEFAULT gen_random_uuid(),
    document_id    text,
    chunk_id       text,
    text           text NOT NULL,
    context        text,
    fact_type      text NOT NULL DEFAULT 'world'
                   CHECK (fact_type IN ('world', 'experience', 'observation')),
    embedding      vector(384) NOT NULL,
    occurred_start timestamptz,
    occurred_end   timestamptz,
    mentioned_at   timestamptz,
    tags           text[] NOT NULL DEFAULT '{}',
    metadata       jsonb NOT NULL DEFAULT '{}'::jsonb,
    proof_count    int CHECK (proof_count IS NULL OR proof_count >= 1),
    token_count    int NOT NULL CHECK (token_count >= 0),
    search_vector  tsvector NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    consolidated_at timestamptz,  -- when hindsight.consolidate processed this fact (NULL: not yet)
    PRIMARY KEY (bank_id, id),
    FOREIGN KEY (bank_id, document_id) REFERENCES hindsight.documents ON DELETE CASCADE,
    FOREIGN KEY (bank_id, chunk_id) REFERENCES hindsight.chunks ON DELETE CASCADE ON UPDATE CASCADE,
    CHECK (occurred_start IS NULL OR occurred_end IS NULL OR occurred_end >= occurred_start)
);
COMMENT ON TABLE hindsight.memory_units IS
    'Memory units (facts). embedding: unit-length 384-dim vector; token_count: cl100k_base tokens of text.';

CREATE TABLE hindsight.entities (
    bank_id        text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    id             uuid NOT NULL DEFAULT gen_random_uuid(),
    canonical_name text NOT NULL CHECK (btrim(canonical_name) <> ''),
    first_seen     timestamptz,
    last_seen      timestamptz,
    mention_count  int NOT NULL DEFAULT 0 CHECK (mention_count >= 0),  -- units linked, recounted by a trigger
    PRIMARY KEY (bank_id, id)
);
COMMENT ON TABLE hindsight.entities IS
    'People, places, projects named in memories; one row per case-insensitive name per bank.';

CREATE TABLE hindsight.unit_entities (
    bank_id   text NOT NULL,
    unit_id   uuid NOT NULL,
    entity_id uuid NOT NULL,
    PRIMARY KEY (bank_id, unit_id, entity_id),
    FOREIGN KEY (bank_id, unit_id) REFERENCES hindsight.memory_units (bank_id, id) ON DELETE CASCADE,
    FOREIGN KEY (bank_id, entity_id) REFERENCES hindsight.entities (bank_id, id) ON DELETE CASCADE
);
COMMENT ON TABLE hindsight.unit_entities IS 'Which entities each memory unit mentions.';

CREATE TABLE hindsight.memory_links (
    bank_id      text NOT NULL,
    from_unit_id uuid NOT NULL,
    to_unit_id   uuid NOT NULL,
    link_type    text NOT NULL CHECK (link_type IN
                 ('temporal', 'semantic', 'causes', 'caused_by', 'enables', 'prevents')),
    weight       float8 NOT NULL DEFAULT 1.0 CHECK (weight >= 0 AND weight <= 1),
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bank_id, from_unit_id, to_unit_id, link_type)
    -- No foreign keys: retain writes about a hundred links per fact, and a per-row
    -- check of both ends cost 80 % of retain's time. Links are made by retain
    -- between units it has just seen; a trigger on memory_units (003-triggers.sql)
    -- deletes the links of deleted units, set-based.
);
COMMENT ON TABLE hindsight.memory_links IS
    'Directed, weighted links between memory units, walked by the graph and temporal arms. Deleting a unit '
    'deletes its links (trigger memory_units_unlinked).';

-- One arm's ranked hit, the unit of exchange between the arms and fusion.
CREATE TYPE hindsight._arm_hit AS (arm text, unit_id uuid, rank int, score float8);

-- A fused candidate: RRF score plus every arm's rank and score (NULL when the arm missed it).
CREATE TYPE hindsight._fused_hit AS (
    unit_id        uuid,
    rrf_score      float8,
    semantic_rank  int,
    semantic_score float8,
    bm25_rank      int,
    bm25_score     float8,
    graph_rank     int,
    graph_score    float8,
    temporal_rank  int,
    temporal_score float8
);

-- A candidate after the rerank stage and combined scoring (hindsight.recall_finish).
CREATE TYPE hindsight._scored_candidate AS (
    unit_id      uuid,
    final_score  float8,
    rerank_raw   float8,
    rerank_score float8,
    recency      float8,
    proof        float8,
    token_count  int
);

-- A candidate after fusion and the rerank pre-filter: what hindsight.recall_candidates
-- hands to a cross-encoder (rerank_text) and hindsight.recall_finish scores.
CREATE TYPE hindsight.recall_candidate AS (
    candidate_rank     int,
    unit_id            uuid,
    rerank_text        text,
    rrf_score          float8,
    semantic_rank      int,
    semantic_score     float8,
    bm25_rank          int,
    bm25_score         float8,
    graph_rank         int,
    graph_score        float8,
    temporal_rank      int,
    temporal_score     float8,
    temporal_proximity float8,
    boost_additive     float8
);
COMMENT ON TYPE hindsight.recall_candidate IS
    'A recall candidate: its position after fusion (1-based), the text a cross-encoder scores, its fused '
    '(boosted) RRF score, each arm''s rank and score, its proximity to the query window (NULL without one) '
    'and the additive strategy bonus of the boosted arms that found it.';

-- A row of hindsight.retain_text: a PL/pgSQL function cannot return a column named like one
-- of its arguments (document_id), so its rows have this type.
CREATE TYPE hindsight.retained_unit AS (document_id text, unit_id uuid);
COMMENT ON TYPE hindsight.retained_unit IS
    'A row of hindsight.retain_text: the document and one memory unit it stored (NULL when it stored none).';

-- pg_dump keeps the rows of these tables (the extension owns their definitions).
SELECT pg_catalog.pg_extension_config_dump('hindsight.banks', '');
SELECT pg_catalog.pg_extension_config_dump('hindsight.documents', '');
SELECT pg_catalog.pg_extension_config_dump('hindsight.chunks', '');
SELECT pg_catalog.pg_extension_config_dump('hindsight.memory_units', '');
SELECT pg_catalog.pg_extension_config_dump('hindsight.entities', '');
SELECT pg_catalog.pg_extension_config_dump('hindsight.unit_entities', '');
SELECT pg_catalog.pg_extension_config_dump('hindsight.memory_links', '');

-- Observations: which facts support which observation (docs/observations.md).
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

-- Database-wide settings: the model providers banks use unless their config names their own, and the
-- language model endpoints the database may call for roles other than superusers.
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

-- sql/schema/002-indexes.sql
-- Indexes. There is deliberately no HNSW index over all banks: a shared graph
-- starves a bank filter (0 of 10 rows for a small bank among 100 without an
-- iterative scan, 67-75 ms with one, at 100,000 units). Small banks are scanned
-- exactly through the primary key's bank_id prefix; a bank that grows past the
-- config value hnsw_min_units gets its own partial HNSW index
-- (hindsight.index_bank, called by retain).

-- The times a unit is about: its occurred range (or either end alone) and the
-- moment it was mentioned, as one multirange; the temporal arm asks which units'
-- times overlap the query window, through this GiST index (btree_gist for bank_id).
CREATE FUNCTION hindsight._time_span(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS tstzmultirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT tstzmultirange(VARIADIC ARRAY(
        SELECT r FROM (VALUES
            (CASE WHEN occurred_start IS NOT NULL OR occurred_end IS NOT NULL
                  THEN tstzrange(coalesce(occurred_start, occurred_end), coalesce(occurred_end, occurred_start), '[]')
             END),
            (CASE WHEN mentioned_at IS NOT NULL THEN tstzrange(mentioned_at, mentioned_at, '[]') END)) v(r)
        WHERE r IS NOT NULL))
$$;
COMMENT ON FUNCTION hindsight._time_span(timestamptz, timestamptz, timestamptz) IS
    'The times a unit is about, as a multirange: [occurred_start, occurred_end] (or the one that exists) '
    'and the instant mentioned_at. Empty when the unit has no date.';

CREATE INDEX memory_units_time_idx
    ON hindsight.memory_units USING gist (bank_id, hindsight._time_span(occurred_start, occurred_end, mentioned_at));

CREATE INDEX memory_units_type_occurred_idx
    ON hindsight.memory_units (bank_id, fact_type, occurred_start);
-- Retain's temporal links: a unit's nearest neighbours in time within its fact type.
CREATE INDEX memory_units_type_effective_idx
    ON hindsight.memory_units (bank_id, fact_type, (coalesce(occurred_start, mentioned_at)));
CREATE INDEX memory_units_mentioned_idx
    ON hindsight.memory_units (bank_id, mentioned_at);
CREATE INDEX memory_units_document_idx
    ON hindsight.memory_units (bank_id, document_id);
CREATE INDEX memory_units_chunk_idx
    ON hindsight.memory_units (bank_id, chunk_id);
CREATE INDEX memory_units_search_idx
    ON hindsight.memory_units USING gin (search_vector);
CREATE INDEX memory_units_tags_idx
    ON hindsight.memory_units USING gin (tags);

CREATE UNIQUE INDEX entities_name_key
    ON hindsight.entities (bank_id, lower(canonical_name));
CREATE INDEX entities_name_trgm_idx
    ON hindsight.entities USING gin (canonical_name gin_trgm_ops);

CREATE INDEX unit_entities_entity_idx
    ON hindsight.unit_entities (bank_id, entity_id, unit_id);
CREATE INDEX memory_links_to_idx
    ON hindsight.memory_links (bank_id, to_unit_id);

-- sql/schema/003-triggers.sql
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

-- sql/schema/004-security.sql
-- Bank isolation with row-level security.
--
-- A role sees and changes only the banks it created or was granted
-- (hindsight.grant_bank): read, write or admin. Row-level security is forced on
-- every table holding bank data, so it also binds the table owner; superusers
-- (and so the extension owner, who must be one) see everything. The pipeline's
-- functions run as the caller (SECURITY INVOKER), so recall, retain and the
-- PL/Python code that reads tables see only the caller's banks. The few
-- SECURITY DEFINER functions derive data (triggers), create or drop a bank's
-- index, or read the membership table; none returns bank data.

CREATE TABLE hindsight.bank_members (
    bank_id    text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    role_name  name NOT NULL,
    privilege  text NOT NULL CHECK (privilege IN ('read', 'write', 'admin')),
    granted_by name NOT NULL DEFAULT current_user,
    granted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bank_id, role_name)
);
CREATE INDEX bank_members_role_idx ON hindsight.bank_members (role_name);
COMMENT ON TABLE hindsight.bank_members IS
    'Who may use a bank beyond its creator: read (recall), write (retain, delete), admin (grant, configure, '
    'delete the bank). Changed through hindsight.grant_bank / hindsight.revoke_bank.';
SELECT pg_catalog.pg_extension_config_dump('hindsight.bank_members', '');

CREATE FUNCTION hindsight._privilege_level(privilege text)
RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE privilege WHEN 'read' THEN 1 WHEN 'write' THEN 2 WHEN 'admin' THEN 3 END
$$;
COMMENT ON FUNCTION hindsight._privilege_level(text) IS 'read = 1 < write = 2 < admin = 3; NULL for anything else.';

CREATE FUNCTION hindsight._banks_for(role name, privilege text)
RETURNS text[]
LANGUAGE sql STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    -- The banks `role` (directly or through the roles it is a member of) created,
    -- or was granted at least `privilege` on. The policies call it once per
    -- statement: bank_id = ANY ((SELECT hindsight._banks_for(current_user, ...))::text[]).
    WITH roles AS (
        SELECT r.rolname FROM pg_roles r WHERE pg_has_role(role, r.oid, 'MEMBER')
    )
    SELECT coalesce(array_agg(DISTINCT x.bank_id), '{}') FROM (
        SELECT b.bank_id FROM hindsight.banks b WHERE b.created_by IN (SELECT rolname FROM roles)
        UNION ALL
        SELECT m.bank_id FROM hindsight.bank_members m
        WHERE m.role_name IN (SELECT rolname FROM roles)
          AND hindsight._privilege_level(m.privilege) >= hindsight._privilege_level(_banks_for.privilege)
    ) x
$$;
COMMENT ON FUNCTION hindsight._banks_for(name, text) IS
    'Bank ids a role may use with at least the given privilege (read, write, admin): the banks it or a role it '
    'belongs to created, and its grants. Runs as the extension owner to read the membership; returns ids only.';

-- Policies: read for SELECT, write for changes, admin for the bank row itself.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['documents', 'chunks', 'memory_units', 'entities', 'unit_entities', 'memory_links',
                             'observation_sources', 'mental_models'] LOOP
        EXECUTE format('ALTER TABLE hindsight.%I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE hindsight.%I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY bank_read ON hindsight.%I FOR SELECT'
                       ' USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, ''read''))::text[]))', t);
        EXECUTE format('CREATE POLICY bank_write ON hindsight.%I FOR ALL'
                       ' USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, ''write''))::text[]))'
                       ' WITH CHECK (bank_id = ANY ((SELECT hindsight._banks_for(current_user, ''write''))::text[]))', t);
    END LOOP;
    FOREACH t IN ARRAY ARRAY['_bank_counts', '_bm25_terms', '_bm25_postings', '_entity_cooccurrences'] LOOP
        EXECUTE format('ALTER TABLE hindsight.%I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE hindsight.%I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY bank_read ON hindsight.%I FOR SELECT'
                       ' USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, ''read''))::text[]))', t);
    END LOOP;
END
$$;

ALTER TABLE hindsight.banks ENABLE ROW LEVEL SECURITY;
ALTER TABLE hindsight.banks FORCE ROW LEVEL SECURITY;
CREATE POLICY bank_read ON hindsight.banks FOR SELECT
    USING (created_by = current_user OR bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'read'))::text[]));
CREATE POLICY bank_create ON hindsight.banks FOR INSERT
    WITH CHECK (created_by = current_user);
CREATE POLICY bank_admin ON hindsight.banks FOR UPDATE
    USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'admin'))::text[]))
    WITH CHECK (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'admin'))::text[]));
CREATE POLICY bank_admin_delete ON hindsight.banks FOR DELETE
    USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'admin'))::text[]));

ALTER TABLE hindsight.bank_members ENABLE ROW LEVEL SECURITY;
ALTER TABLE hindsight.bank_members FORCE ROW LEVEL SECURITY;
CREATE POLICY member_read ON hindsight.bank_members FOR SELECT
    USING (role_name = current_user OR bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'admin'))::text[]));
CREATE POLICY member_admin ON hindsight.bank_members FOR ALL
    USING (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'admin'))::text[]))
    WITH CHECK (bank_id = ANY ((SELECT hindsight._banks_for(current_user, 'admin'))::text[]));

-- Any role may use the schema; row-level security decides which rows it reaches.
GRANT USAGE ON SCHEMA hindsight TO PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON hindsight.banks, hindsight.documents, hindsight.chunks,
    hindsight.memory_units, hindsight.entities, hindsight.unit_entities, hindsight.memory_links,
    hindsight.observation_sources, hindsight.mental_models TO PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON hindsight.bank_members TO PUBLIC;
GRANT SELECT ON hindsight._bank_counts, hindsight._bm25_terms, hindsight._bm25_postings,
    hindsight._entity_cooccurrences TO PUBLIC;
GRANT SELECT ON hindsight.settings TO PUBLIC;

CREATE FUNCTION hindsight._invoker()
RETURNS name
LANGUAGE sql STABLE
AS $$
    -- The role a SECURITY DEFINER function was called by: the SET ROLE role, else
    -- the session user (current_user inside such a function is its owner).
    SELECT CASE WHEN current_setting('role') IN ('', 'none') THEN session_user
                ELSE current_setting('role')::name END
$$;
COMMENT ON FUNCTION hindsight._invoker() IS
    'The calling role as seen from inside a SECURITY DEFINER function: the SET ROLE role, else session_user.';

CREATE FUNCTION hindsight._is_superuser(role name)
RETURNS bool
LANGUAGE sql STABLE
AS $$
    SELECT coalesce((SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = role), false)
$$;
COMMENT ON FUNCTION hindsight._is_superuser(name) IS 'Whether a role is a superuser (false for an unknown role).';

-- sql/functions/_arms.sql
-- The four retrieval arms. Each returns its hits ranked 1..n (hindsight._arm_hit[])
-- and applies the same filters: bank, fact types, tags.

CREATE OR REPLACE FUNCTION hindsight._semantic_arm(
    bank_id text,
    query_embedding vector,
    types text[],
    tags text[],
    tags_match text,
    recall_budget int
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
SET hnsw.ef_search = 40
SET hnsw.iterative_scan = off
AS $$
DECLARE
    hits hindsight._arm_hit[];
BEGIN
    -- EXECUTE ... USING plans the statement once with these values, so the bank
    -- id is a constant and the planner can prove that a bank's partial HNSW index
    -- applies; a small bank without one is scanned exactly. ef_search and the
    -- iterative scan hold for this call only: the function's SET clauses for the
    -- same two settings restore the caller's values when it returns.
    PERFORM set_config('hnsw.ef_search', least(recall_budget, 1000)::text, true);
    PERFORM set_config('hnsw.iterative_scan', 'strict_order', true);
    EXECUTE $sql$
        SELECT coalesce(array_agg(ROW('semantic', s.id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
        FROM (SELECT n.id, n.score, row_number() OVER (ORDER BY n.score DESC, n.id)::int AS rn
              FROM (SELECT u.id, 1 - (u.embedding <=> $2) AS score
                    FROM hindsight.memory_units u
                    WHERE u.bank_id = $1
                      AND ($3::text[] IS NULL OR u.fact_type = ANY ($3))
                      AND hindsight._tags_match(u.tags, $4, $5)
                    ORDER BY u.embedding <=> $2
                    LIMIT $6) n) s
    $sql$
    INTO hits
    USING bank_id, query_embedding, types, tags, tags_match, recall_budget;
    RETURN hits;
END
$$;
COMMENT ON FUNCTION hindsight._semantic_arm(text, vector, text[], text[], text, int) IS
    'Semantic arm: the recall_budget units nearest to the query embedding by cosine distance (score = cosine '
    'similarity), through the bank''s partial HNSW index (ef_search = min(recall_budget, 1000), iterative scan) '
    'or an exact scan for a small bank.';

CREATE OR REPLACE FUNCTION hindsight._keyword_arm(
    bank_id text,
    keyword_query tsquery,
    types text[],
    tags text[],
    tags_match text,
    recall_budget int
)
RETURNS hindsight._arm_hit[]
LANGUAGE sql STABLE
AS $$
    -- Ties are frequent (ts_rank_cd knows no term rarity: a speaker's name matches
    -- half a conversation). They go to the longer text, then by text, so the order
    -- does not depend on random unit ids. Longer first, because a longer memory
    -- says more: on the LoCoMo dev split (760 questions) Recall@10 of the full
    -- pipeline is 0.659 with longer-first and 0.601 with shorter-first.
    SELECT coalesce(array_agg(ROW('bm25', s.id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
    FROM (SELECT n.id, n.score, row_number() OVER (ORDER BY n.score DESC, n.len DESC, n.text, n.id)::int AS rn
          FROM (SELECT u.id, ts_rank_cd(u.search_vector, keyword_query)::float8 AS score,
                       length(u.text) AS len, u.text
                FROM hindsight.memory_units u
                WHERE u.bank_id = _keyword_arm.bank_id
                  AND u.search_vector @@ keyword_query
                  AND (types IS NULL OR u.fact_type = ANY (types))
                  AND hindsight._tags_match(u.tags, _keyword_arm.tags, tags_match)
                ORDER BY 2 DESC, 3 DESC, 4, u.id
                LIMIT recall_budget) n) s
$$;
COMMENT ON FUNCTION hindsight._keyword_arm(text, tsquery, text[], text[], text, int) IS
    'Keyword arm: units matching the tsquery (GIN on search_vector), ranked by ts_rank_cd, ties to the longer '
    'text, LIMIT recall_budget.';

CREATE OR REPLACE FUNCTION hindsight._bm25_arm(
    bank_id text,
    terms text[],
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    config jsonb
)
RETURNS hindsight._arm_hit[]
LANGUAGE sql STABLE
AS $$
    -- Okapi BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework:
    -- BM25 and Beyond", 2009) from the bank's term statistics:
    --   score(d) = sum over query terms t of idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))
    --   idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)),  k1 = 1.2, b = 0.75
    -- over at most bm25_max_terms (16) of the query's terms, the rarest first.
    -- Only the postings of those terms are read. Ties go to the longer unit.
    -- The constants are folded per term first, so each posting costs one
    -- multiply-add and one division.
    WITH params AS (
        SELECT (config->>'bm25_k1')::float8 AS k1, (config->>'bm25_b')::float8 AS b,
               c.unit_count::float8 AS n, c.total_length::float8 / greatest(c.unit_count, 1) AS avgdl
        FROM hindsight._bank_counts c WHERE c.bank_id = _bm25_arm.bank_id
    ),
    q AS (
        SELECT t.term,
               ln(1 + (p.n - t.df + 0.5) / (t.df + 0.5)) * (p.k1 + 1) AS weight,  -- idf * (k1 + 1)
               p.k1 * (1 - p.b) AS base,                                        -- k1 * (1 - b)
               p.k1 * p.b / greatest(p.avgdl, 1e-9) AS per_length              -- k1 * b / avgdl
        FROM hindsight._bm25_terms t, params p
        WHERE t.bank_id = _bm25_arm.bank_id AND t.term = ANY (terms)
        ORDER BY t.df, t.term
        LIMIT (config->>'bm25_max_terms')::int
    ),
    scored AS (
        SELECT p.unit_id, sum(q.weight * p.tf / (p.tf + q.base + q.per_length * p.doc_length)) AS score,
               max(p.doc_length) AS doc_length
        FROM q
        JOIN hindsight._bm25_postings p ON p.bank_id = _bm25_arm.bank_id AND p.term = q.term
        GROUP BY p.unit_id
    ),
    top AS (  -- a top-N sort: the ranks are numbered after the LIMIT
        SELECT sc.unit_id, sc.score, sc.doc_length
        FROM scored sc
        WHERE (types IS NULL AND coalesce(cardinality(_bm25_arm.tags), 0) = 0)
           OR EXISTS (SELECT FROM hindsight.memory_units u
                      WHERE u.bank_id = _bm25_arm.bank_id AND u.id = sc.unit_id
                        AND (types IS NULL OR u.fact_type = ANY (types))
                        AND hindsight._tags_match(u.tags, _bm25_arm.tags, tags_match))
        ORDER BY sc.score DESC, sc.doc_length DESC, sc.unit_id
        LIMIT recall_budget
    )
    SELECT coalesce(array_agg(ROW('bm25', r.unit_id, r.rn, r.score)::hindsight._arm_hit ORDER BY r.rn), '{}')
    FROM (SELECT t.unit_id, t.score,
                 row_number() OVER (ORDER BY t.score DESC, t.doc_length DESC, t.unit_id)::int AS rn
          FROM top t) r
$$;
COMMENT ON FUNCTION hindsight._bm25_arm(text, text[], text[], text[], text, int, jsonb) IS
    'Keyword arm, bm25 backend: Okapi BM25 (k1 = bm25_k1 1.2, b = bm25_b 0.75, idf = ln(1 + (N - df + 0.5) / '
    '(df + 0.5))) over the query''s rarest bm25_max_terms (16) terms, from _bm25_terms / _bm25_postings; ties to '
    'the longer unit; LIMIT recall_budget.';

CREATE OR REPLACE FUNCTION hindsight._graph_expand(
    bank_id text,
    from_ids uuid[],
    exclude_ids uuid[],
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    entity_fanout int,
    max_entity_units float8
)
RETURNS TABLE (unit_id uuid, shared_entities int, semantic_weight float8, causal_weight float8)
LANGUAGE sql STABLE
AS $$
    -- One hop from from_ids, three ways, each limited to recall_budget candidates:
    -- units sharing entities (at most entity_fanout units per entity, counted as
    -- distinct shared entities), semantic links in both directions (highest
    -- weight), outgoing causal links (highest weight). An entity linked to more
    -- than max_entity_units units is common (a speaker on every turn, the user
    -- in every fact) and is not evidence of anything: it is not followed.
    WITH seed_entities AS (
        SELECT DISTINCT ue.entity_id
        FROM hindsight.unit_entities ue
        JOIN hindsight.entities en ON en.bank_id = ue.bank_id AND en.id = ue.entity_id
        WHERE ue.bank_id = _graph_expand.bank_id AND ue.unit_id = ANY (from_ids)
          AND en.mention_count <= max_entity_units
    ),
    by_entity AS (
        -- each entity lists a unit once, so count(*) counts distinct shared entities
        SELECT x.unit_id, count(*)::int AS shared
        FROM seed_entities e
        CROSS JOIN LATERAL (
            SELECT ue.unit_id FROM hindsight.unit_entities ue
            WHERE ue.bank_id = _graph_expand.bank_id AND ue.entity_id = e.entity_id
              AND NOT ue.unit_id = ANY (exclude_ids)
            ORDER BY ue.unit_id
            LIMIT entity_fanout) x
        GROUP BY x.unit_id
    ),
    entity_hits AS (
        SELECT b.unit_id, b.shared
        FROM by_entity b
        WHERE (types IS NULL AND coalesce(cardinality(_graph_expand.tags), 0) = 0)
           OR EXISTS (SELECT FROM hindsight.memory_units u
                      WHERE u.bank_id = _graph_expand.bank_id AND u.id = b.unit_id
                        AND (types IS NULL OR u.fact_type = ANY (types))
                        AND hindsight._tags_match(u.tags, _graph_expand.tags, tags_match))
        ORDER BY b.shared DESC, b.unit_id
        LIMIT recall_budget
    ),
    semantic_hits AS (
        SELECT n.unit_id, max(n.weight) AS weight
        FROM (SELECT l.to_unit_id AS unit_id, l.weight FROM hindsight.memory_links l
              WHERE l.bank_id = _graph_expand.bank_id AND l.link_type = 'semantic' AND l.from_unit_id = ANY (from_ids)
              UNION ALL
              SELECT l.from_unit_id, l.weight FROM hindsight.memory_links l
              WHERE l.bank_id = _graph_expand.bank_id AND l.link_type = 'semantic' AND l.to_unit_id = ANY (from_ids)) n
        JOIN hindsight.memory_units u ON u.bank_id = _graph_expand.bank_id AND u.id = n.unit_id
        WHERE NOT n.unit_id = ANY (exclude_ids)
          AND (types IS NULL OR u.fact_type = ANY (types)) AND hindsight._tags_match(u.tags, _graph_expand.tags, tags_match)
        GROUP BY n.unit_id
        ORDER BY 2 DESC, 1
        LIMIT recall_budget
    ),
    causal_hits AS (
        SELECT l.to_unit_id AS unit_id, max(l.weight) AS weight
        FROM hindsight.memory_links l
        JOIN hindsight.memory_units u ON u.bank_id = l.bank_id AND u.id = l.to_unit_id
        WHERE l.bank_id = _graph_expand.bank_id AND l.from_unit_id = ANY (from_ids)
          AND l.link_type IN ('causes', 'caused_by', 'enables', 'prevents')
          AND NOT l.to_unit_id = ANY (exclude_ids)
          AND (types IS NULL OR u.fact_type = ANY (types)) AND hindsight._tags_match(u.tags, _graph_expand.tags, tags_match)
        GROUP BY l.to_unit_id
        ORDER BY 2 DESC, 1
        LIMIT recall_budget
    )
    SELECT unit_id, coalesce(e.shared, 0), coalesce(s.weight, 0.0), coalesce(c.weight, 0.0)
    FROM entity_hits e
    FULL JOIN semantic_hits s USING (unit_id)
    FULL JOIN causal_hits c USING (unit_id)
$$;
COMMENT ON FUNCTION hindsight._graph_expand(text, uuid[], uuid[], text[], text[], text, int, int, float8) IS
    'One hop of the graph arm from from_ids (excluding exclude_ids): per reached unit, the number of distinct '
    'entities it shares with from_ids, its highest semantic link weight (either direction) and its highest '
    'outgoing causal link weight (causes, caused_by, enables, prevents). Each way keeps recall_budget units. '
    'Entities linked to more than max_entity_units units are not followed.';

CREATE OR REPLACE FUNCTION hindsight._graph_arm(
    bank_id text,
    query_embedding vector,
    semantic_hits hindsight._arm_hit[],
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    config jsonb
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    seeds uuid[];
    reached uuid[];
    frontier uuid[];
    hop int := 1;
    found jsonb := '{}';  -- unit id -> [activation, cosine similarity to the query]
    floor_similarity float8 := (config->>'graph_semantic_floor')::float8;
    decay float8 := 1.0;
    max_entity_units float8;
    step jsonb;
BEGIN
    -- Seeds: the best semantic hits with cosine similarity >= graph_seed_min_similarity.
    seeds := ARRAY(SELECT h.unit_id FROM unnest(semantic_hits) h
                   WHERE h.score >= (config->>'graph_seed_min_similarity')::float8
                   ORDER BY h.rank LIMIT (config->>'graph_seed_limit')::int);
    IF cardinality(seeds) = 0 THEN
        RETURN '{}';
    END IF;
    -- Common entities: linked to more than graph_common_entity_share of the
    -- bank's units, and to more than graph_common_entity_min_units units.
    SELECT greatest((_graph_arm.config->>'graph_common_entity_min_units')::float8,
                    (_graph_arm.config->>'graph_common_entity_share')::float8 * coalesce(max(b.unit_count), 0))
    INTO max_entity_units
    FROM hindsight._bank_counts b WHERE b.bank_id = _graph_arm.bank_id;
    reached := seeds;
    frontier := seeds;
    WHILE hop <= (config->>'graph_max_hops')::int AND cardinality(frontier) > 0 LOOP
        -- activation = tanh(0.5 * shared entities) + semantic weight + causal weight,
        -- times graph_hop_decay per hop beyond the first. Only candidates with real
        -- evidence stay: a shared entity, a causal link, or (reached through a
        -- semantic link only) a cosine similarity to the query >= graph_semantic_floor.
        SELECT coalesce(jsonb_object_agg(g.unit_id::text, jsonb_build_array(
                   decay * (tanh(0.5 * g.shared_entities) + g.semantic_weight + g.causal_weight),
                   CASE WHEN query_embedding IS NULL THEN 0 ELSE 1 - (u.embedding <=> query_embedding) END)), '{}')
        INTO step
        FROM hindsight._graph_expand(bank_id, frontier, reached, types, tags, tags_match, recall_budget,
                                     (config->>'graph_entity_fanout')::int, max_entity_units) g
        JOIN hindsight.memory_units u ON u.bank_id = _graph_arm.bank_id AND u.id = g.unit_id
        WHERE g.shared_entities > 0 OR g.causal_weight > 0
           OR (query_embedding IS NOT NULL AND 1 - (u.embedding <=> query_embedding) >= floor_similarity);
        found := step || found;  -- a unit keeps the activation of the hop that reached it first
        reached := reached || ARRAY(SELECT k::uuid FROM jsonb_object_keys(step) k);
        -- the next hop starts from this hop's best graph_seed_limit units, as the first did from the seeds
        frontier := ARRAY(SELECT f.key::uuid FROM jsonb_each(step) f
                          ORDER BY (f.value->>0)::float8 DESC, (f.value->>1)::float8 DESC, f.key
                          LIMIT (config->>'graph_seed_limit')::int);
        hop := hop + 1;
        decay := decay * (config->>'graph_hop_decay')::float8;
    END LOOP;
    -- Ties in activation (common: many units share one entity) go to the unit
    -- closer to the query.
    RETURN (SELECT coalesce(array_agg(ROW('graph', a.id, a.rn, a.activation)::hindsight._arm_hit ORDER BY a.rn), '{}')
            FROM (SELECT f.key::uuid AS id, (f.value->>0)::float8 AS activation,
                         row_number() OVER (ORDER BY (f.value->>0)::float8 DESC, (f.value->>1)::float8 DESC,
                                            f.key)::int AS rn
                  FROM jsonb_each(found) f) a
            WHERE a.rn <= recall_budget);
END
$$;
COMMENT ON FUNCTION hindsight._graph_arm(text, vector, hindsight._arm_hit[], text[], text[], text, int, jsonb) IS
    'Graph arm (link expansion, Hindsight TEMPR): from up to graph_seed_limit (20) semantic hits with cosine '
    '>= graph_seed_min_similarity (0.3), expand through shared entities, semantic and causal links; activation '
    '= tanh(0.5 * shared entities) + semantic weight + causal weight, in [0, 3]; hops beyond the first '
    '(graph_max_hops, default 2) start from the previous hop''s best graph_seed_limit units and are multiplied by '
    'graph_hop_decay (0.5) per hop. Candidates need evidence: a '
    'shared entity, a causal link, or cosine to the query >= graph_semantic_floor (0.3). Entities linked to more '
    'than max(graph_common_entity_min_units (20), graph_common_entity_share (0.1) * bank units) units are not '
    'followed. Ranked by activation, '
    'ties by cosine to the query, LIMIT recall_budget.';

CREATE OR REPLACE FUNCTION hindsight._temporal_arm(
    bank_id text,
    query_embedding vector,
    temporal_window tstzrange,
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    config jsonb
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    entry_ids uuid[];
    entry_scores float8[];
    buckets int := (config->>'temporal_buckets')::int;
    window_seconds float8 := extract(epoch FROM upper(temporal_window) - lower(temporal_window));
BEGIN
    -- Pool: units whose time overlaps the window (their occurred range overlaps
    -- it, or mentioned_at / occurred_start / occurred_end falls in it), with
    -- cosine similarity >= temporal_min_similarity, best first, at most
    -- temporal_pool_size. Coverage: the window in temporal_buckets equal slices
    -- by effective date; entry points round-robin over the slices (each slice's
    -- best, then each slice's second, ...), at most temporal_entry_points.
    -- An entry point's score is its temporal proximity.
    WITH pool AS (
        SELECT u.id,
               CASE WHEN query_embedding IS NULL THEN 0.0 ELSE 1 - (u.embedding <=> query_embedding) END AS similarity,
               hindsight._effective_date(u.occurred_start, u.occurred_end, u.mentioned_at) AS unit_date,
               hindsight._proximity(hindsight._best_date(u.occurred_start, u.occurred_end, u.mentioned_at),
                                    temporal_window) AS proximity
        FROM hindsight.memory_units u
        WHERE u.bank_id = _temporal_arm.bank_id
          AND hindsight._time_span(u.occurred_start, u.occurred_end, u.mentioned_at) && temporal_window
          AND (query_embedding IS NULL
               OR 1 - (u.embedding <=> query_embedding) >= (config->>'temporal_min_similarity')::float8)
          AND (types IS NULL OR u.fact_type = ANY (types))
          AND hindsight._tags_match(u.tags, _temporal_arm.tags, tags_match)
        ORDER BY 2 DESC, u.id
        LIMIT (config->>'temporal_pool_size')::int
    ),
    bucketed AS (
        SELECT p.*, row_number() OVER (PARTITION BY p.bucket ORDER BY p.similarity DESC, p.id) AS turn
        FROM (SELECT pool.*,
                     CASE WHEN window_seconds <= 0 THEN 0
                          ELSE greatest(0, least(buckets - 1, floor(
                              extract(epoch FROM pool.unit_date - lower(temporal_window)) / window_seconds * buckets)))
                     END AS bucket
              FROM pool) p
    ),
    entries AS (
        SELECT b.id, b.proximity, row_number() OVER (ORDER BY b.turn, b.bucket) AS o FROM bucketed b
        ORDER BY b.turn, b.bucket
        LIMIT (config->>'temporal_entry_points')::int
    )
    SELECT array_agg(e.id ORDER BY e.o), array_agg(e.proximity ORDER BY e.o)
    INTO entry_ids, entry_scores
    FROM entries e;
    IF entry_ids IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT coalesce(array_agg(ROW('temporal', s.unit_id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
            FROM (SELECT t.unit_id, t.score, row_number() OVER (ORDER BY t.score DESC, t.reached)::int AS rn
                  FROM hindsight._temporal_spread(bank_id, entry_ids, entry_scores, temporal_window, types, tags,
                                                  tags_match, recall_budget, config) t) s);
END
$$;
COMMENT ON FUNCTION hindsight._temporal_arm(text, vector, tstzrange, text[], text[], text, int, jsonb) IS
    'Temporal arm (Hindsight TEMPR): a pool of units overlapping the window (cosine >= 0.1, best 60), entry '
    'points chosen round-robin over 8 equal slices of the window (up to 10, scored by proximity), then '
    'spreading along temporal and causal links (hindsight._temporal_spread). Ranked by score, LIMIT recall_budget.';

CREATE OR REPLACE FUNCTION hindsight._temporal_spread(
    bank_id text,
    entry_ids uuid[],
    entry_scores float8[],
    temporal_window tstzrange,
    types text[],
    tags text[],
    tags_match text,
    max_nodes int,
    config jsonb
)
RETURNS TABLE (unit_id uuid, score float8, reached int)
LANGUAGE plpython3u STABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
import json
plan = GD.get("hindsight_spread_plan")
if plan is None:
    plan = plpy.prepare(
        "SELECT * FROM hindsight._temporal_links($1, $2, $3, $4, $5, $6, $7, $8)",
        ["text", "uuid[]", "tstzrange", "text[]", "text[]", "text", "int", "float8"],
    )
    GD["hindsight_spread_plan"] = plan
cfg = json.loads(config)
params = hpl.spreading.SpreadParams.from_config(cfg)

def fetch(frontier):
    rows = plpy.execute(plan, [bank_id, frontier, temporal_window, types, tags, tags_match,
                               params.links_per_node, params.min_link_weight])
    return [hpl.spreading.Link(r["from_unit_id"], r["to_unit_id"], r["link_type"], r["weight"], r["proximity"])
            for r in rows]

scores = hpl.spreading.spread(dict(zip(entry_ids, entry_scores)), fetch, params, max_nodes)
return [(unit, score, order) for order, (unit, score) in enumerate(scores.items(), start=1)]
$$;
COMMENT ON FUNCTION hindsight._temporal_spread(text, uuid[], float8[], tstzrange, text[], text[], text, int, jsonb) IS
    'Spreading activation of the temporal arm from its entry points (ids and proximity scores) along temporal '
    'and causal links; see hindsight_pl.spreading.spread for the rule. Returns every reached unit with its score '
    'and the order it was reached in (entries first, in coverage order), which breaks ties.';

CREATE OR REPLACE FUNCTION hindsight._temporal_links(
    bank_id text,
    from_ids uuid[],
    temporal_window tstzrange,
    types text[],
    tags text[],
    tags_match text,
    links_per_node int,
    min_weight float8
)
RETURNS TABLE (from_unit_id text, to_unit_id text, link_type text, weight float8, proximity float8)
LANGUAGE sql STABLE
AS $$
    -- For each unit of from_ids, its links_per_node strongest outgoing temporal
    -- and causal links of weight >= min_weight, to units that pass the filters;
    -- proximity is NULL for a target without any date.
    SELECT l.from_unit_id::text, l.to_unit_id::text, l.link_type, l.weight,
           CASE WHEN u.occurred_start IS NULL AND u.occurred_end IS NULL AND u.mentioned_at IS NULL THEN NULL
                ELSE hindsight._proximity(hindsight._best_date(u.occurred_start, u.occurred_end, u.mentioned_at),
                                          temporal_window) END
    FROM unnest(from_ids) AS f(id)
    CROSS JOIN LATERAL (
        SELECT m.from_unit_id, m.to_unit_id, m.link_type, m.weight FROM hindsight.memory_links m
        WHERE m.bank_id = _temporal_links.bank_id AND m.from_unit_id = f.id
          AND m.link_type IN ('temporal', 'causes', 'caused_by', 'enables', 'prevents') AND m.weight >= min_weight
        ORDER BY m.weight DESC, m.to_unit_id
        LIMIT links_per_node) l
    JOIN hindsight.memory_units u ON u.bank_id = _temporal_links.bank_id AND u.id = l.to_unit_id
    WHERE (types IS NULL OR u.fact_type = ANY (types)) AND hindsight._tags_match(u.tags, _temporal_links.tags, tags_match)
    ORDER BY l.from_unit_id, l.weight DESC, l.to_unit_id
$$;
COMMENT ON FUNCTION hindsight._temporal_links(text, uuid[], tstzrange, text[], text[], text, int, float8) IS
    'Links the temporal arm spreads along: per source unit its strongest outgoing temporal/causal links '
    '(weight >= min_weight, at most links_per_node) to units passing the filters, with the target''s proximity '
    'to the window (NULL when it has no date).';

-- sql/functions/_fuse.sql
-- Budgets, fusion and strategy boosts.

CREATE OR REPLACE FUNCTION hindsight._recall_budget(
    config jsonb,
    budget text,
    max_tokens int
)
RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- fixed: recall_budgets[budget] (100 / 300 / 1000);
    -- adaptive: clamp(round(max_tokens * adaptive_ratios[budget]), adaptive_min, adaptive_max),
    -- e.g. mid with 4096 tokens: round(4096 * 0.075) = 307.
    SELECT CASE config->>'budget_function'
        WHEN 'adaptive' THEN greatest((config->>'adaptive_min')::int, least((config->>'adaptive_max')::int,
                 round(max_tokens * (config->'adaptive_ratios'->>budget)::float8)::int))
        ELSE (config->'recall_budgets'->>budget)::int
    END
$$;
COMMENT ON FUNCTION hindsight._recall_budget(jsonb, text, int) IS
    'Candidates per arm for a budget (low|mid|high): fixed = recall_budgets[budget]; adaptive = '
    'clamp(round(max_tokens * adaptive_ratios[budget]), adaptive_min, adaptive_max). NULL for an unknown budget.';

CREATE OR REPLACE FUNCTION hindsight._strategy(config jsonb, OUT divisors jsonb, OUT additive jsonb)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Strategy boost tiers: low = (rank divisor 2, additive 0.05), medium = (4, 0.2), high = (8, 0.5).
    SELECT coalesce(jsonb_object_agg(b.key, t.divisor), '{}'), coalesce(jsonb_object_agg(b.key, t.additive), '{}')
    FROM jsonb_each_text(coalesce(config->'strategy_boosts', '{}')) b
    JOIN (VALUES ('low', 2.0, 0.05), ('medium', 4.0, 0.2), ('high', 8.0, 0.5)) t(tier, divisor, additive)
      ON t.tier = b.value
$$;
COMMENT ON FUNCTION hindsight._strategy(jsonb) IS
    'The rank divisors and additive bonuses of a bank''s strategy_boosts ({"graph": "high"}): tiers low / '
    'medium / high = (2.0, 0.05) / (4.0, 0.2) / (8.0, 0.5), as {arm: value} objects.';

CREATE OR REPLACE FUNCTION hindsight._fuse(
    hits hindsight._arm_hit[],
    method text DEFAULT 'rrf',
    k float8 DEFAULT 60,
    weights jsonb DEFAULT '{}',
    divisors jsonb DEFAULT '{}'
)
RETURNS SETOF hindsight._fused_hit
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- rrf: fused = sum over arms of weight_arm / (k + rank / divisor_arm), ranks
    -- 1-based (Cormack, Clarke & Buettcher, SIGIR 2009; k = 60 as in TEMPR).
    -- interleave: round-robin over semantic, bm25, graph, temporal (each arm's #1,
    -- then each arm's #2, ...), a unit placed where it first appears; fused =
    -- 1 / (k + position). Every unit keeps its rank and score in each arm.
    WITH per_unit AS (
        SELECT h.unit_id,
               sum(coalesce((weights->>h.arm)::float8, 1.0)
                   / (k + h.rank / coalesce((divisors->>h.arm)::float8, 1.0))) AS rrf,
               min(h.rank * 4 + array_position(ARRAY['semantic', 'bm25', 'graph', 'temporal'], h.arm)) AS first_slot,
               min(h.rank) FILTER (WHERE h.arm = 'semantic') AS semantic_rank,
               max(h.score) FILTER (WHERE h.arm = 'semantic') AS semantic_score,
               min(h.rank) FILTER (WHERE h.arm = 'bm25') AS bm25_rank,
               max(h.score) FILTER (WHERE h.arm = 'bm25') AS bm25_score,
               min(h.rank) FILTER (WHERE h.arm = 'graph') AS graph_rank,
               max(h.score) FILTER (WHERE h.arm = 'graph') AS graph_score,
               min(h.rank) FILTER (WHERE h.arm = 'temporal') AS temporal_rank,
               max(h.score) FILTER (WHERE h.arm = 'temporal') AS temporal_score
        FROM unnest(hits) AS h
        GROUP BY h.unit_id
    )
    SELECT p.unit_id,
           CASE WHEN method = 'interleave'
                THEN 1.0 / (k + row_number() OVER (ORDER BY p.first_slot))
                ELSE p.rrf END,
           p.semantic_rank, p.semantic_score, p.bm25_rank, p.bm25_score,
           p.graph_rank, p.graph_score, p.temporal_rank, p.temporal_score
    FROM per_unit p
$$;
COMMENT ON FUNCTION hindsight._fuse(hindsight._arm_hit[], text, float8, jsonb, jsonb) IS
    'Fuses ranked arm hits (arms semantic, bm25, graph, temporal; ranks 1-based) into one row per unit. '
    'rrf: sum of weight/(k + rank/divisor) (Cormack et al. 2009); interleave: 1/(k + round-robin position). '
    'Each row keeps every arm''s rank and score. Unordered.';

-- sql/functions/_keyword_pg_search.sql
-- The pg_search keyword backend (ParadeDB's BM25 index). Everything that knows
-- about pg_search is in this file; the pipeline only sees another keyword arm.
-- pg_search cannot be installed on this machine: the statements below that use
-- its operators run through EXECUTE, so the extension installs without it.

CREATE OR REPLACE FUNCTION hindsight.enable_pg_search(tokenizer text DEFAULT 'default')
RETURNS text
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname = 'pg_search') THEN
        RAISE EXCEPTION 'the pg_search extension is not installed in this database'
            USING ERRCODE = '0A000', HINT = 'Use a ParadeDB image (docker/pg_search) or install pg_search.';
    END IF;
    IF tokenizer NOT IN ('default', 'whitespace', 'raw', 'chinese_compatible', 'jieba', 'icu') THEN
        RAISE EXCEPTION 'unknown pg_search tokenizer "%"', tokenizer
            USING ERRCODE = '22023', HINT = 'default, whitespace, raw, chinese_compatible, jieba or icu.';
    END IF;
    EXECUTE 'DROP INDEX IF EXISTS hindsight.memory_units_bm25_idx';
    EXECUTE format(
        'CREATE INDEX memory_units_bm25_idx ON hindsight.memory_units USING bm25 (id, bank_id, text) '
        'WITH (key_field = %L, text_fields = %L)',
        'id', json_build_object('text', json_build_object('tokenizer', json_build_object('type', tokenizer))));
    RETURN 'memory_units_bm25_idx';
END
$$;
COMMENT ON FUNCTION hindsight.enable_pg_search(text) IS
    'Creates the ParadeDB pg_search BM25 index over memory_units.text with a tokenizer (default, whitespace, raw, '
    'chinese_compatible, jieba, icu), after which banks may set keyword_backend = pg_search. Raises 0A000 when '
    'pg_search is not installed.';

CREATE OR REPLACE FUNCTION hindsight._pg_search_arm(
    bank_id text,
    query text,
    types text[],
    tags text[],
    tags_match text,
    recall_budget int
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    hits hindsight._arm_hit[];
BEGIN
    IF to_regclass('hindsight.memory_units_bm25_idx') IS NULL THEN
        RAISE EXCEPTION 'keyword_backend pg_search needs its index'
            USING ERRCODE = '0A000', HINT = 'Run SELECT hindsight.enable_pg_search();';
    END IF;
    -- paradedb.match parses nothing (no query syntax), so the query is plain text.
    EXECUTE $sql$
        SELECT coalesce(array_agg(ROW('bm25', s.id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
        FROM (SELECT u.id, paradedb.score(u.id)::float8 AS score,
                     row_number() OVER (ORDER BY paradedb.score(u.id) DESC, u.id)::int AS rn
              FROM hindsight.memory_units u
              WHERE u.id @@@ paradedb.match('text', $2)
                AND u.bank_id = $1
                AND ($3::text[] IS NULL OR u.fact_type = ANY ($3))
                AND hindsight._tags_match(u.tags, $4, $5)
              ORDER BY paradedb.score(u.id) DESC, u.id
              LIMIT $6) s
    $sql$
    INTO hits
    USING bank_id, query, types, tags, tags_match, recall_budget;
    RETURN hits;
END
$$;
COMMENT ON FUNCTION hindsight._pg_search_arm(text, text, text[], text[], text, int) IS
    'Keyword arm, pg_search backend: ParadeDB BM25 (paradedb.match over memory_units.text, paradedb.score), '
    'same filters and LIMIT as the other backends. Needs hindsight.enable_pg_search().';

-- sql/functions/_pack_by_tokens.sql
-- Token-budget packing (sequential, so PL/Python over a pure function).

CREATE OR REPLACE FUNCTION hindsight._pack_by_tokens(
    token_counts int[],
    max_tokens int
)
RETURNS int[]
LANGUAGE plpython3u IMMUTABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
return hpl.packing.pack_by_tokens(token_counts or [], max_tokens)
$$;
COMMENT ON FUNCTION hindsight._pack_by_tokens(int[], int) IS
    'Greedy token-budget packing over results in score order: the 1-based positions of the results kept. '
    'A result is kept when it fits in what is left of max_tokens and skipped otherwise; when none fits, the '
    'first is kept whole; max_tokens = 0 keeps none. See hindsight_pl.packing.pack_by_tokens.';

-- sql/functions/_python.sql
-- Loading the in-database Python package hindsight_pl.
--
-- Every PL/Python function starts with
--     hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
-- so the package is imported once per session and its version checked once.
-- Errors are raised from PL/pgSQL (hindsight._require_python), not from Python,
-- so they read as plain messages with a SQLSTATE and a hint; retain and recall
-- call it first for that reason.

CREATE OR REPLACE FUNCTION hindsight._python_path()
RETURNS text
LANGUAGE sql STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    -- Python imported from this directory runs inside the server as its operating
    -- system user, so an ordinary role must not redirect it: the setting counts in
    -- a superuser's session, and otherwise only as written in the server's
    -- configuration (postgresql.conf, ALTER SYSTEM).
    SELECT coalesce(
        CASE WHEN hindsight._is_superuser(hindsight._invoker())
             THEN nullif(current_setting('hindsight.python_path', true), '')
             ELSE (SELECT nullif(f.setting, '') FROM pg_file_settings f
                   WHERE f.name = 'hindsight.python_path' AND f.error IS NULL
                   ORDER BY f.seqno DESC LIMIT 1) END,
        '@PYTHON_LIB_DIR@')
$$;
COMMENT ON FUNCTION hindsight._python_path() IS
    'Directory holding the hindsight_pl package and its dependencies: the setting hindsight.python_path (in a '
    'superuser''s session; for other roles only as set in the server configuration, so they cannot redirect the '
    'import), else the directory chosen at build time.';

CREATE OR REPLACE FUNCTION hindsight._load(
    OUT sqlstate text,
    OUT message text,
    OUT hint text
)
LANGUAGE plpython3u
AS $$
import sys

if "hindsight_pl" in GD:
    return None, None, None
path = plpy.execute("SELECT hindsight._python_path() AS p")[0]["p"]
if path not in sys.path:
    sys.path.insert(0, path)
try:
    import hindsight_pl
except ImportError as exc:
    return ("58P01", f"cannot import hindsight_pl from {path}: {exc}",
            "Run `make install` in the hindsight_pg source tree, or SET hindsight.python_path "
            "to the directory that holds hindsight_pl.")
expected = plpy.execute(
    "SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'hindsight_pg'"
)[0]["extversion"]
if hindsight_pl.__version__ != expected:
    return ("0A000",
            f"hindsight_pl {hindsight_pl.__version__} at {hindsight_pl.__file__} does not match "
            f"extension hindsight_pg {expected}",
            f"Install hindsight_pl {expected} (make install), or point hindsight.python_path at it.")
GD["hindsight_pl"] = hindsight_pl
return None, None, None
$$;
COMMENT ON FUNCTION hindsight._load() IS
    'Imports hindsight_pl from hindsight._python_path() into this session (cached in GD). Returns NULLs, '
    'or the SQLSTATE, message and hint of why it cannot (58P01 not found, 0A000 version differs from the '
    'extension''s).';

CREATE OR REPLACE FUNCTION hindsight._require_python()
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    problem record;
BEGIN
    problem := hindsight._load();
    IF problem.sqlstate IS NOT NULL THEN
        RAISE EXCEPTION '%', problem.message USING ERRCODE = problem.sqlstate, HINT = problem.hint;
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._require_python() IS
    'Makes sure hindsight_pl is loaded in this session; raises 58P01 when it cannot be imported and 0A000 '
    'when its version differs from the extension''s, each with a hint.';

CREATE OR REPLACE FUNCTION hindsight._raise(sqlstate text, message text, hint text)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    message := regexp_replace(message, '^(plpy\.[A-Za-z]*Error|spiexceptions\.[A-Za-z]+): ', '');
    IF coalesce(hint, '') = '' THEN
        RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message;
    END IF;
    RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message, HINT = hint;
END
$$;
COMMENT ON FUNCTION hindsight._raise(text, text, text) IS
    'Raises an error again without PL/Python''s exception class before its message (plpy.Error: ..., '
    'spiexceptions.InsufficientPrivilege: ...) and '
    'without its traceback: the public PL/pgSQL wrappers of PL/Python functions (hindsight.reflect, '
    'consolidate, embed, rerank, retain_text) catch an error and call this with its SQLSTATE, message and hint.';

-- sql/functions/_scoring.sql
-- Per-unit signals and the combined score (Hindsight TEMPR, "combined scoring").
-- Each boost is 1 + alpha * (signal - 0.5), so a neutral signal (0.5) leaves the
-- score as it is; the defaults alpha = 0.2 (recency), 0.2 (temporal), 0.1 (proof)
-- bound the product to [0.7695, 1.2705].

CREATE OR REPLACE FUNCTION hindsight._effective_date(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(occurred_start, mentioned_at, occurred_end)
$$;
COMMENT ON FUNCTION hindsight._effective_date(timestamptz, timestamptz, timestamptz) IS
    'The date a unit is filed under: occurred_start, else mentioned_at, else occurred_end (NULL when none).';

CREATE OR REPLACE FUNCTION hindsight._best_date(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN occurred_start IS NOT NULL AND occurred_end IS NOT NULL
                THEN occurred_start + (occurred_end - occurred_start) / 2
                ELSE coalesce(occurred_start, occurred_end, mentioned_at) END
$$;
COMMENT ON FUNCTION hindsight._best_date(timestamptz, timestamptz, timestamptz) IS
    'The date temporal proximity measures from: the midpoint of occurred_start and occurred_end when both '
    'exist, else whichever exists, else mentioned_at.';

CREATE OR REPLACE FUNCTION hindsight._proximity(
    best_date timestamptz,
    temporal_window tstzrange
)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- 1 - min(|best - window_mid| / (window_length / 2), 1); 0.5 without a date;
    -- NULL without a window. A zero-length window gives 1 at its instant, else 0.
    SELECT CASE
        WHEN temporal_window IS NULL THEN NULL
        WHEN best_date IS NULL THEN 0.5
        WHEN upper(temporal_window) = lower(temporal_window) THEN
            CASE WHEN best_date = lower(temporal_window) THEN 1.0 ELSE 0.0 END
        ELSE 1.0 - least(
            abs(extract(epoch FROM best_date - (lower(temporal_window)
                + (upper(temporal_window) - lower(temporal_window)) / 2)))::float8
            / (extract(epoch FROM upper(temporal_window) - lower(temporal_window))::float8 / 2), 1.0)
    END
$$;
COMMENT ON FUNCTION hindsight._proximity(timestamptz, tstzrange) IS
    'Temporal proximity of a date to a query window, in [0, 1]: 1 - min(|date - window midpoint| / '
    '(window length / 2), 1). 0.5 when the unit has no date; NULL when there is no window.';

CREATE OR REPLACE FUNCTION hindsight._recency_of(
    unit_date timestamptz,
    query_timestamp timestamptz,
    method text,
    horizon_days float8,
    half_life_days float8
)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE
        WHEN unit_date IS NULL THEN 0.5
        WHEN unit_date > query_timestamp THEN 1.0
        WHEN method = 'exponential' THEN
            least(power(0.5, extract(epoch FROM query_timestamp - unit_date)::float8 / 86400 / half_life_days), 1.0)
        ELSE greatest(least(1.0 - extract(epoch FROM query_timestamp - unit_date)::float8 / 86400 / horizon_days,
                            1.0), 0.1)
    END
$$;
COMMENT ON FUNCTION hindsight._recency_of(timestamptz, timestamptz, text, float8, float8) IS
    'Recency of one date at query_timestamp: NULL -> 0.5, future -> 1.0, exponential min(0.5^(days/half_life), 1), '
    'else linear clamp(1 - days/horizon, 0.1, 1).';

CREATE OR REPLACE FUNCTION hindsight._recency(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz,
    query_timestamp timestamptz,
    method text DEFAULT 'linear',
    horizon_days float8 DEFAULT 365,
    half_life_days float8 DEFAULT 90
)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Age in days from the unit's date to query_timestamp. A unit stored as a
    -- whole coarse period (27 days or more, i.e. a calendar month or longer) is
    -- aged from the period's end and capped at 0.5: never stale while it runs,
    -- never boosted. One expression, so the planner inlines it per row.
    SELECT CASE
        WHEN method = 'none' THEN 0.5
        WHEN occurred_end - occurred_start >= interval '27 days' THEN least(0.5,
            hindsight._recency_of(occurred_end, query_timestamp, method, horizon_days, half_life_days))
        ELSE hindsight._recency_of(coalesce(occurred_start, mentioned_at, occurred_end), query_timestamp, method,
                                   horizon_days, half_life_days)
    END
$$;
COMMENT ON FUNCTION hindsight._recency(timestamptz, timestamptz, timestamptz, timestamptz, text, float8, float8) IS
    'Recency signal in [0, 1] of a unit at query_timestamp. Date: occurred_start, else mentioned_at, else '
    'occurred_end; a coarse period (>= 27 days) counts from its end and is capped at 0.5. linear: '
    'clamp(1 - days/horizon_days, 0.1, 1); exponential: min(0.5^(days/half_life_days), 1); none: 0.5. '
    'No date: 0.5; a future date: 1.0 (Hindsight TEMPR).';

CREATE OR REPLACE FUNCTION hindsight._proof(proof_count int)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN proof_count IS NULL OR proof_count < 1 THEN 0.5
                ELSE greatest(0.0, least(1.0, 0.5 + ln(proof_count) / 10)) END
$$;
COMMENT ON FUNCTION hindsight._proof(int) IS
    'Proof signal of an observation: clamp(0.5 + ln(proof_count)/10, 0, 1) (1 -> 0.5, 3 -> 0.61, 10 -> 0.73, '
    '150 -> 1.0); 0.5 when proof_count is NULL.';

CREATE OR REPLACE FUNCTION hindsight._boost(signal float8, alpha float8)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT 1.0 + alpha * (coalesce(signal, 0.5) - 0.5)
$$;
COMMENT ON FUNCTION hindsight._boost(float8, float8) IS
    'Multiplicative boost 1 + alpha * (signal - 0.5); a NULL signal is neutral (0.5).';

CREATE OR REPLACE FUNCTION hindsight._normalize_rerank(raw_scores float8[])
RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Scores already in [0, 1] (a calibrated reranker) are kept; otherwise each
    -- becomes 1 / (1 + e^-x). NaN becomes 0 and does not decide which case applies.
    WITH c AS (
        SELECT bool_and(x BETWEEN 0 AND 1) FILTER (WHERE x <> 'NaN'::float8) IS NOT FALSE AS calibrated
        FROM unnest(raw_scores) AS x
    )
    SELECT coalesce(array_agg(
               CASE WHEN s IS NULL OR s = 'NaN'::float8 THEN 0.0
                    WHEN c.calibrated THEN s
                    WHEN s < -700 THEN 0.0
                    WHEN s > 700 THEN 1.0
                    ELSE 1.0 / (1.0 + exp(-s)) END ORDER BY o), '{}')
    FROM unnest(raw_scores) WITH ORDINALITY AS r(s, o), c
$$;
COMMENT ON FUNCTION hindsight._normalize_rerank(float8[]) IS
    'Normalises cross-encoder scores: kept as they are when every (non-NaN) score is within [0, 1], else '
    'the sigmoid 1/(1 + e^-x) of each; NaN becomes 0. Same order as the input.';

CREATE OR REPLACE FUNCTION hindsight._rerank_text(
    text text,
    context text,
    occurred_start timestamptz
)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN occurred_start IS NULL THEN ''
                ELSE '[Date: ' || to_char(occurred_start AT TIME ZONE 'UTC', 'FMMonth DD, YYYY')
                     || ' (' || to_char(occurred_start AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ')] ' END
        || CASE WHEN context IS NOT NULL AND context <> '' THEN context || ': ' || text ELSE text END
$$;
COMMENT ON FUNCTION hindsight._rerank_text(text, text, timestamptz) IS
    'The text a cross-encoder scores: "<context>: <text>" (or the text alone), prefixed by '
    '"[Date: June 05, 2022 (2022-06-05)] " when the unit has an occurred date (UTC).';

-- sql/functions/_text.sql
-- Text helpers shared by retain and recall: token counts, validation, keyword queries.

CREATE OR REPLACE FUNCTION hindsight._unit_token_counts(
    texts text[],
    labels text[] DEFAULT NULL,
    OUT token_counts int[],
    OUT problem text,
    OUT hint text
)
LANGUAGE plpython3u STABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
try:
    return hpl.text.validate_and_count(texts or [], labels), None, None
except hpl.text.InvalidText as exc:
    return None, str(exc), exc.hint
$$;
COMMENT ON FUNCTION hindsight._unit_token_counts(text[], text[]) IS
    'Checks memory texts (not blank, not punctuation-only, at most 100,000 characters) and returns their '
    'cl100k_base token counts in order, or (NULL, problem, hint) naming the first bad text by its label '
    '(default: its 1-based position). The caller raises.';

CREATE OR REPLACE FUNCTION hindsight.count_tokens(content text)
RETURNS int
LANGUAGE plpython3u STABLE PARALLEL SAFE STRICT
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
return hpl.tokens.count_tokens(content)
$$;
COMMENT ON FUNCTION hindsight.count_tokens(text) IS
    'Number of cl100k_base tokens in a text (the tokenizer recall packs budgets with; loads offline).';

CREATE OR REPLACE FUNCTION hindsight._search_text(content text, for_query bool DEFAULT false)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Chinese, Japanese and Korean are written without spaces, so a text search
    -- parser sees a whole run as one word. Each CJK run becomes its overlapping
    -- character bigrams (and, when indexing, its single characters too, so that a
    -- one-character query matches); a query's one-character run stays as it is.
    -- Other text is unchanged (and keeps the configuration's stemming).
    SELECT coalesce(string_agg(
        CASE WHEN m[1] IS NULL THEN m[2]
             WHEN length(m[1]) = 1 THEN ' ' || m[1] || ' '
             ELSE ' ' || (SELECT string_agg(substr(m[1], i, 2), ' ') FROM generate_series(1, length(m[1]) - 1) i)
                  || CASE WHEN for_query THEN '' ELSE ' ' || (SELECT string_agg(substr(m[1], i, 1), ' ')
                                                               FROM generate_series(1, length(m[1])) i) END
                  || ' '
        END, ''), '')
    FROM regexp_matches(coalesce(content, ''),
                        '([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)|([^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)',
                        'g') AS m
$$;
COMMENT ON FUNCTION hindsight._search_text(text, bool) IS
    'The text a search_vector is built from: CJK runs as overlapping character bigrams (plus single characters '
    'when indexing; a one-character query run as itself), other text unchanged.';

CREATE OR REPLACE FUNCTION hindsight._search_vector(content text, config regconfig)
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT to_tsvector(config, hindsight._search_text(content))
$$;
COMMENT ON FUNCTION hindsight._search_vector(text, regconfig) IS
    'search_vector of a memory unit: to_tsvector(config, hindsight._search_text(content)).';

CREATE OR REPLACE FUNCTION hindsight._query_terms(query text, config regconfig)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT tsvector_to_array(to_tsvector(config, hindsight._search_text(coalesce(query, ''), true)))
$$;
COMMENT ON FUNCTION hindsight._query_terms(text, regconfig) IS
    'The distinct lexemes of a query, as the keyword backends match them (CJK as bigrams).';

CREATE OR REPLACE FUNCTION hindsight._keyword_query(query text, config regconfig)
RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- The OR of the query's lexemes. Each lexeme is quoted as a tsquery literal
    -- (backslash and quote escaped), so no character of the query is ever parsed
    -- as a tsquery operator: "team:infra & a|b" cannot raise. NULL when the query
    -- has no searchable word (only stop words or punctuation).
    SELECT pg_catalog.string_agg(
               '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''', ' | ' ORDER BY lexeme
           )::tsquery
    FROM pg_catalog.unnest(hindsight._query_terms(query, config)) AS lexeme
$$;
COMMENT ON FUNCTION hindsight._keyword_query(text, regconfig) IS
    'The keyword arm''s query: OR of the lexemes of query under a text search configuration, each quoted, '
    'so operators and quotes in the query are plain text. NULL when nothing is searchable.';

CREATE OR REPLACE FUNCTION hindsight._tags_match(
    unit_tags text[],
    wanted text[],
    mode text
)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Inlined into each arm's WHERE clause. Modes: any / all keep untagged
    -- units; the _strict forms and exact drop them.
    SELECT wanted IS NULL OR cardinality(wanted) = 0 OR CASE mode
        WHEN 'any'        THEN unit_tags && wanted OR cardinality(unit_tags) = 0
        WHEN 'all'        THEN unit_tags @> wanted OR cardinality(unit_tags) = 0
        WHEN 'any_strict' THEN unit_tags && wanted
        WHEN 'all_strict' THEN unit_tags @> wanted
        WHEN 'exact'      THEN unit_tags @> wanted AND unit_tags <@ wanted
    END
$$;
COMMENT ON FUNCTION hindsight._tags_match(text[], text[], text) IS
    'Tag filter of every recall arm. any: shares a tag or untagged; all: has every tag or untagged; '
    'any_strict / all_strict: the same without untagged units; exact: the same set of tags.';

-- sql/functions/access.sql
-- Granting and revoking access to banks (row-level security, sql/schema/004-security.sql).

CREATE OR REPLACE FUNCTION hindsight.grant_bank(
    bank_id text,
    role name,
    privilege text DEFAULT 'read'
)
RETURNS void
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    IF hindsight._privilege_level(privilege) IS NULL THEN
        RAISE EXCEPTION 'unknown privilege "%"', privilege
            USING ERRCODE = '22023', HINT = 'Use read (recall), write (retain, delete) or admin (grant, configure).';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname = role) THEN
        RAISE EXCEPTION 'role "%" does not exist', role USING ERRCODE = '42704';
    END IF;
    PERFORM hindsight.bank_config(bank_id);  -- HS404 when the caller cannot see the bank
    -- row-level security on bank_members lets only the bank's admins write here
    INSERT INTO hindsight.bank_members AS m (bank_id, role_name, privilege)
    VALUES (grant_bank.bank_id, grant_bank.role, grant_bank.privilege)
    ON CONFLICT ON CONSTRAINT bank_members_pkey DO UPDATE
    SET privilege = excluded.privilege, granted_by = current_user, granted_at = now();
EXCEPTION WHEN insufficient_privilege THEN
    RAISE EXCEPTION 'only an admin of bank "%" can grant access to it', grant_bank.bank_id
        USING ERRCODE = '42501';
END
$$;
COMMENT ON FUNCTION hindsight.grant_bank(text, name, text) IS
    'Gives a role (and the roles that are members of it) read, write or admin access to a bank, replacing an '
    'earlier grant. Only the bank''s admins (its creator, admin grantees, superusers) may. Raises HS404 for a bank '
    'the caller cannot see, 42501 for a non-admin, 42704 for an unknown role, 22023 for an unknown privilege.';

CREATE OR REPLACE FUNCTION hindsight.revoke_bank(
    bank_id text,
    role name
)
RETURNS bool
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    PERFORM hindsight.bank_config(bank_id);
    IF NOT bank_id = ANY (hindsight._banks_for(current_user, 'admin')) AND NOT hindsight._is_superuser(current_user) THEN
        RAISE EXCEPTION 'only an admin of bank "%" can revoke access to it', bank_id USING ERRCODE = '42501';
    END IF;
    DELETE FROM hindsight.bank_members m WHERE m.bank_id = revoke_bank.bank_id AND m.role_name = revoke_bank.role;
    RETURN FOUND;
END
$$;
COMMENT ON FUNCTION hindsight.revoke_bank(text, name) IS
    'Removes a role''s grant on a bank; it takes effect with the next statement. Returns false when there was none. '
    'The creator''s own access is not a grant and stays. Only the bank''s admins may (42501 otherwise).';

-- sql/functions/banks.sql
-- Banks and their configuration.

CREATE OR REPLACE FUNCTION hindsight._default_config()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT '{
        "recall_budgets": {"low": 100, "mid": 300, "high": 1000},
        "budget_function": "fixed",
        "adaptive_ratios": {"low": 0.025, "mid": 0.075, "high": 0.25},
        "adaptive_min": 20,
        "adaptive_max": 2000,
        "rrf_k": 60,
        "arm_weights": {"semantic": 1.0, "bm25": 1.0, "graph": 0.25, "temporal": 1.0},
        "strategy_boosts": {},
        "reranker_max_candidates": 300,
        "graph_seed_limit": 20,
        "graph_seed_min_similarity": 0.3,
        "graph_entity_fanout": 200,
        "graph_common_entity_share": 0.1,
        "graph_common_entity_min_units": 20,
        "graph_semantic_floor": 0.3,
        "graph_max_hops": 2,
        "graph_hop_decay": 0.5,
        "temporal_pool_size": 60,
        "temporal_min_similarity": 0.1,
        "temporal_buckets": 8,
        "temporal_entry_points": 10,
        "temporal_max_rounds": 5,
        "temporal_links_per_node": 10,
        "temporal_min_link_weight": 0.1,
        "temporal_decay": 0.7,
        "temporal_spread_threshold": 0.2,
        "temporal_no_date_score": 0.3,
        "temporal_link_boosts": {"temporal": 1.0, "causes": 2.0, "caused_by": 2.0, "enables": 1.5, "prevents": 1.5},
        "recency_function": "linear",
        "recency_horizon_days": 365,
        "recency_half_life_days": 90,
        "recency_alpha": 0.2,
        "temporal_alpha": 0.2,
        "proof_alpha": 0.1,
        "hnsw_min_units": 1000,
        "text_search_config": "english",
        "keyword_backend": "native",
        "bm25_k1": 1.2,
        "bm25_b": 0.75,
        "bm25_max_terms": 16,
        "time_zone": "UTC",
        "hemisphere": "north",
        "extractor": "offline",
        "agent_name": "assistant",
        "llm_base_url": "",
        "llm_model": "",
        "llm_api_key_env": "OPENAI_API_KEY",
        "dedupe_similarity": 0.95,
        "entity_merge_threshold": 0.6,
        "temporal_link_neighbours": 20,
        "semantic_link_top_k": 50,
        "semantic_link_min_similarity": 0.7,
        "observation_similarity": 0.85,
        "observation_merge_similarity": 0.97,
        "disposition": {"skepticism": 3, "literalism": 3, "empathy": 3},
        "directives": []
    }'::jsonb
$$;
COMMENT ON FUNCTION hindsight._default_config() IS
    'Database-wide defaults that a bank''s config overrides key by key (object values merge per key). '
    'See docs/recall.md for what each key does.';

CREATE OR REPLACE FUNCTION hindsight._check_config(config jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    defaults jsonb := hindsight._default_config();
    config_key text;
    config_value jsonb;
    expected text;
    bad text;
    integer_keys text[] := ARRAY['adaptive_min', 'adaptive_max', 'reranker_max_candidates', 'graph_seed_limit',
        'graph_entity_fanout', 'graph_max_hops', 'temporal_pool_size', 'temporal_buckets', 'temporal_entry_points',
        'temporal_max_rounds', 'temporal_links_per_node', 'hnsw_min_units', 'bm25_max_terms'];
    count_keys text[] := ARRAY['temporal_link_neighbours', 'semantic_link_top_k'];  -- 0 turns the links off
BEGIN
    IF config IS NULL THEN
        RETURN '{}'::jsonb;
    END IF;
    IF jsonb_typeof(config) <> 'object' THEN
        RAISE EXCEPTION 'bank config must be a JSON object, not %', jsonb_typeof(config)
            USING ERRCODE = '22023';
    END IF;
    FOR config_key, config_value IN SELECT * FROM jsonb_each(config) LOOP
        IF config_key IN ('embedding_provider', 'reranker_provider') THEN
            -- in-database providers load models and call URLs as the server's operating-system user
            IF NOT hindsight._is_superuser(hindsight._invoker()) THEN
                RAISE EXCEPTION 'only a superuser may set a bank''s %', config_key
                    USING ERRCODE = '42501', HINT = 'Without it the bank uses the database-wide setting (docs/providers.md).';
            END IF;
            PERFORM hindsight._check_provider(config_value, replace(config_key, '_provider', ''));
            CONTINUE;
        END IF;
        IF NOT defaults ? config_key THEN
            RAISE EXCEPTION 'unknown bank config key "%"', config_key
                USING ERRCODE = '22023', HINT = format('Known keys: %s.',
                    (SELECT string_agg(k, ', ' ORDER BY k) FROM jsonb_object_keys(defaults) k));
        END IF;
        expected := jsonb_typeof(defaults->config_key);
        IF jsonb_typeof(config_value) <> expected THEN
            RAISE EXCEPTION 'bank config "%" must be a JSON %, got %', config_key, expected, config_value
                USING ERRCODE = '22023';
        END IF;
        IF expected = 'number' AND (config_value::text::numeric < 0
                OR (config_key = ANY (integer_keys) AND (config_value::text::numeric < 1
                    OR config_value::text::numeric <> trunc(config_value::text::numeric)))) THEN
            RAISE EXCEPTION 'bank config "%" must be %, got %', config_key,
                CASE WHEN config_key = ANY (integer_keys) THEN 'an integer >= 1' ELSE 'a number >= 0' END, config_value
                USING ERRCODE = '22023';
        END IF;
        IF config_key = ANY (count_keys) AND config_value::text::numeric <> trunc(config_value::text::numeric) THEN
            RAISE EXCEPTION 'bank config "%" must be an integer >= 0, got %', config_key, config_value
                USING ERRCODE = '22023';
        END IF;
        IF config_key = 'strategy_boosts' THEN
            SELECT format('"%s": "%s"', b.key, b.value #>> '{}') INTO bad FROM jsonb_each(config_value) b
            WHERE b.key NOT IN ('semantic', 'bm25', 'graph', 'temporal')
               OR coalesce(b.value #>> '{}', '') NOT IN ('low', 'medium', 'high') LIMIT 1;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'strategy_boosts entry % is not an arm with a tier', bad
                    USING ERRCODE = '22023',
                          HINT = 'Arms: semantic, bm25, graph, temporal; tiers: low, medium, high.';
            END IF;
        ELSIF config_key = 'disposition' THEN
            SELECT b.key INTO bad FROM jsonb_each(config_value) b
            WHERE NOT (defaults->config_key) ? b.key OR jsonb_typeof(b.value) <> 'number'
               OR b.value::text::numeric NOT IN (1, 2, 3, 4, 5)
            LIMIT 1;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'disposition trait "%" must be an integer from 1 to 5, got %', bad, config_value->bad
                    USING ERRCODE = '22023', HINT = 'Traits: skepticism, literalism, empathy; 3 is the default.';
            END IF;
        ELSIF config_key = 'directives' THEN
            SELECT d.n INTO bad FROM jsonb_array_elements(config_value) WITH ORDINALITY AS d(v, n)
            WHERE jsonb_typeof(d.v) <> 'object' OR jsonb_typeof(d.v->'name') IS DISTINCT FROM 'string'
               OR jsonb_typeof(d.v->'content') IS DISTINCT FROM 'string'
               OR coalesce(jsonb_typeof(d.v->'priority'), 'number') <> 'number'
               OR coalesce(jsonb_typeof(d.v->'active'), 'boolean') <> 'boolean'
               OR coalesce(jsonb_typeof(d.v->'tags'), 'array') <> 'array'
               OR EXISTS (SELECT FROM jsonb_object_keys(d.v) k WHERE k NOT IN ('name', 'content', 'priority', 'active', 'tags'))
            LIMIT 1;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'directive % is not {name, content, priority?, active?, tags?}', bad
                    USING ERRCODE = '22023',
                          HINT = 'e.g. [{"name": "cite", "content": "Cite the memories you use.", "priority": 1}]';
            END IF;
        ELSIF expected = 'object' THEN
            SELECT b.key INTO bad FROM jsonb_each(config_value) b
            WHERE NOT (defaults->config_key) ? b.key OR jsonb_typeof(b.value) <> 'number' OR b.value::text::numeric < 0
            LIMIT 1;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'bank config "%" has a bad entry "%"', config_key, bad
                    USING ERRCODE = '22023', HINT = format('Keys: %s; values: numbers >= 0.',
                        (SELECT string_agg(k, ', ') FROM jsonb_object_keys(defaults->config_key) k));
            END IF;
            IF config_key = 'recall_budgets' AND EXISTS (SELECT FROM jsonb_each(config_value) b
                    WHERE b.value::text::numeric < 1 OR b.value::text::numeric <> trunc(b.value::text::numeric)) THEN
                RAISE EXCEPTION 'recall_budgets must map low, mid, high to integers >= 1, got %', config_value
                    USING ERRCODE = '22023';
            END IF;
        END IF;
    END LOOP;
    IF config->>'budget_function' NOT IN ('fixed', 'adaptive') THEN
        RAISE EXCEPTION 'budget_function must be fixed or adaptive, got "%"', config->>'budget_function'
            USING ERRCODE = '22023';
    END IF;
    IF config->>'recency_function' NOT IN ('linear', 'exponential', 'none') THEN
        RAISE EXCEPTION 'recency_function must be linear, exponential or none, got "%"', config->>'recency_function'
            USING ERRCODE = '22023';
    END IF;
    IF config->>'keyword_backend' NOT IN ('bm25', 'native', 'pg_search') THEN
        RAISE EXCEPTION 'keyword_backend must be bm25, native or pg_search, got "%"', config->>'keyword_backend'
            USING ERRCODE = '22023';
    END IF;
    IF config->>'keyword_backend' = 'pg_search' AND to_regclass('hindsight.memory_units_bm25_idx') IS NULL THEN
        RAISE EXCEPTION 'keyword_backend pg_search needs the pg_search extension and its index'
            USING ERRCODE = '0A000', HINT = 'Run SELECT hindsight.enable_pg_search(); (docs/scale-out.md).';
    END IF;
    IF config->>'extractor' NOT IN ('offline', 'verbatim', 'llm') THEN
        RAISE EXCEPTION 'extractor must be offline, verbatim or llm, got "%"', config->>'extractor'
            USING ERRCODE = '22023', HINT = 'llm also needs llm_base_url and llm_model (docs/retain.md).';
    END IF;
    IF config->>'extractor' = 'llm' AND (coalesce(config->>'llm_base_url', '') = '' OR coalesce(config->>'llm_model', '') = '') THEN
        RAISE EXCEPTION 'extractor llm needs llm_base_url and llm_model'
            USING ERRCODE = '22023',
                  HINT = 'e.g. {"extractor": "llm", "llm_base_url": "https://api.openai.com/v1", "llm_model": "gpt-4o-mini"}';
    END IF;
    SELECT k INTO bad FROM unnest(ARRAY['dedupe_similarity', 'semantic_link_min_similarity', 'observation_similarity',
                                        'observation_merge_similarity']) k
    WHERE (config->>k)::float8 > 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION '% must be a cosine similarity in [0, 1], got %', bad, config->bad
            USING ERRCODE = '22023';
    END IF;
    IF config->>'hemisphere' NOT IN ('north', 'south') THEN
        RAISE EXCEPTION 'hemisphere must be north or south, got "%"', config->>'hemisphere' USING ERRCODE = '22023';
    END IF;
    IF config ? 'time_zone' THEN
        BEGIN
            PERFORM now() AT TIME ZONE (config->>'time_zone');
        EXCEPTION WHEN invalid_parameter_value THEN
            RAISE EXCEPTION 'unknown time zone "%"', config->>'time_zone'
                USING ERRCODE = '22023', HINT = 'Use an IANA name such as UTC or Europe/Berlin.';
        END;
    END IF;
    IF config ? 'text_search_config' THEN
        BEGIN
            PERFORM (config->>'text_search_config')::regconfig;
        EXCEPTION WHEN undefined_object OR invalid_name OR syntax_error THEN
            RAISE EXCEPTION 'unknown text search configuration "%"', config->>'text_search_config'
                USING ERRCODE = '22023', HINT = 'See \dF in psql, e.g. english, simple, german.';
        END;
    END IF;
    RETURN config;
END
$$;
COMMENT ON FUNCTION hindsight._check_config(jsonb) IS
    'Validates a bank config against hindsight._default_config() (known keys, JSON types, ranges, enums, '
    'strategy_boosts arms and tiers; embedding_provider and reranker_provider by hindsight._check_provider, set by '
    'superusers only: 42501) and returns it; raises 22023 naming the bad key. Trigger banks_config_checked runs '
    'it on every insert and config update.';

CREATE OR REPLACE FUNCTION hindsight.create_bank(
    bank_id text,
    name text DEFAULT NULL,
    config jsonb DEFAULT '{}'::jsonb,
    if_not_exists bool DEFAULT false
)
RETURNS text
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    IF bank_id IS NULL OR btrim(bank_id) = '' OR length(bank_id) > 200 THEN
        RAISE EXCEPTION 'bank_id must be a non-blank string of at most 200 characters'
            USING ERRCODE = '22023';
    END IF;
    INSERT INTO hindsight.banks AS b (bank_id, name, config)
    VALUES (create_bank.bank_id, create_bank.name, hindsight._check_config(create_bank.config))
    ON CONFLICT ON CONSTRAINT banks_pkey DO NOTHING;
    IF NOT FOUND AND NOT if_not_exists THEN
        RAISE EXCEPTION 'bank "%" already exists', bank_id
            USING ERRCODE = '23505', HINT = 'Pass if_not_exists => true to reuse it.';
    END IF;
    RETURN bank_id;
END
$$;
COMMENT ON FUNCTION hindsight.create_bank(text, text, jsonb, bool) IS
    'Creates a memory bank and returns its id. config (a JSON object) overrides hindsight._default_config(); '
    'raises 23505 when the bank exists unless if_not_exists, 22023 on a bad id or config.';

CREATE OR REPLACE FUNCTION hindsight.configure_bank(bank_id text, config jsonb)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    own jsonb;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown (or unreadable) bank
    IF config IS NULL OR jsonb_typeof(config) <> 'object' THEN
        RAISE EXCEPTION 'config must be a JSON object, got %', coalesce(jsonb_typeof(config), 'NULL')
            USING ERRCODE = '22023', HINT = 'e.g. {"llm_base_url": "http://localhost:11434/v1", "llm_model": "llama3.1:8b"}';
    END IF;
    SELECT b.config INTO own FROM hindsight.banks b WHERE b.bank_id = configure_bank.bank_id;
    -- keys given as null go back to their defaults
    own := (own || config) - ARRAY(SELECT c.key FROM jsonb_each(config) c WHERE c.value = 'null'::jsonb);
    UPDATE hindsight.banks b SET config = own  -- validated by the trigger banks_config_checked
    WHERE b.bank_id = configure_bank.bank_id;
    IF NOT FOUND THEN  -- row-level security: only the bank's admins update it
        RAISE EXCEPTION 'only an admin of bank "%" may change its config', bank_id
            USING ERRCODE = '42501', HINT = 'An admin grants it with hindsight.grant_bank(bank_id, role, ''admin'').';
    END IF;
    RETURN hindsight.bank_config(bank_id);
END
$$;
COMMENT ON FUNCTION hindsight.configure_bank(text, jsonb) IS
    'Changes an existing bank''s config: the keys of config (a JSON object) replace the bank''s own, a key given '
    'as null goes back to its default; validated like create_bank''s (provider keys only when they change: '
    'superusers only). Returns the effective config '
    '(hindsight.bank_config). Errors: HS404 unknown bank, 22023 a bad key or value, 42501 not an admin of the bank.';

CREATE OR REPLACE FUNCTION hindsight.delete_bank(bank_id text)
RETURNS bool
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    deleted bool;
BEGIN
    DELETE FROM hindsight.banks b WHERE b.bank_id = delete_bank.bank_id;  -- admins only (row-level security)
    deleted := FOUND;
    IF deleted THEN
        PERFORM hindsight._drop_bank_index(bank_id);
    END IF;
    RETURN deleted;
END
$$;
COMMENT ON FUNCTION hindsight.delete_bank(text) IS
    'Deletes a bank with all its documents, chunks, memory units, entities and links, and its HNSW index. '
    'Returns false when there was no such bank.';

CREATE OR REPLACE FUNCTION hindsight.bank_config(bank_id text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    own jsonb;
    defaults jsonb := hindsight._default_config();
BEGIN
    SELECT b.config INTO own FROM hindsight.banks b WHERE b.bank_id = bank_config.bank_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown bank "%"', bank_id
            USING ERRCODE = 'HS404', HINT = 'Create it first with hindsight.create_bank(bank_id => ...).';
    END IF;
    RETURN defaults || own || coalesce((
        SELECT jsonb_object_agg(d.key, d.value || (own->d.key))
        FROM jsonb_each(defaults) d
        WHERE jsonb_typeof(d.value) = 'object' AND own ? d.key), '{}'::jsonb);
END
$$;
COMMENT ON FUNCTION hindsight.bank_config(text) IS
    'The effective config of a bank (defaults overridden by its own keys). Raises HS404 for an unknown bank.';

-- sql/functions/consolidate.sql
-- Observations: facts consolidated into what they say together (docs/observations.md).

CREATE OR REPLACE FUNCTION hindsight._refresh_observation(bank_id text, observation_id uuid)
RETURNS void
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    cfg jsonb := hindsight.bank_config(_refresh_observation.bank_id);
    medoid text;
BEGIN
    IF NOT EXISTS (SELECT FROM hindsight.observation_sources s
                   WHERE s.bank_id = _refresh_observation.bank_id
                     AND s.observation_id = _refresh_observation.observation_id) THEN
        DELETE FROM hindsight.memory_units u
        WHERE u.bank_id = _refresh_observation.bank_id AND u.id = _refresh_observation.observation_id
          AND u.fact_type = 'observation';
        RETURN;
    END IF;
    -- the text: the most central supporting fact (least summed cosine distance to the others)
    SELECT f.text INTO medoid
    FROM hindsight.observation_sources s
    JOIN hindsight.memory_units f ON f.bank_id = s.bank_id AND f.id = s.unit_id
    WHERE s.bank_id = _refresh_observation.bank_id AND s.observation_id = _refresh_observation.observation_id
    ORDER BY (SELECT sum(f.embedding <=> g.embedding)
              FROM hindsight.observation_sources t
              JOIN hindsight.memory_units g ON g.bank_id = t.bank_id AND g.id = t.unit_id
              WHERE t.bank_id = s.bank_id AND t.observation_id = s.observation_id),
             f.mentioned_at, f.id
    LIMIT 1;
    UPDATE hindsight.memory_units o
    SET text = medoid,
        embedding = agg.embedding,
        occurred_start = agg.first_at,
        occurred_end = agg.last_at,
        mentioned_at = agg.mentioned_at,
        tags = ARRAY(SELECT DISTINCT t
                     FROM hindsight.observation_sources s
                     JOIN hindsight.memory_units f ON f.bank_id = s.bank_id AND f.id = s.unit_id,
                          unnest(f.tags) AS t
                     WHERE s.bank_id = _refresh_observation.bank_id
                       AND s.observation_id = _refresh_observation.observation_id
                     ORDER BY t),
        proof_count = agg.proof,
        token_count = hindsight.count_tokens(medoid),
        search_vector = hindsight._search_vector(medoid, (cfg->>'text_search_config')::regconfig)
    FROM (SELECT l2_normalize(avg(f.embedding)) AS embedding,
                 min(coalesce(f.occurred_start, f.mentioned_at)) AS first_at,
                 max(coalesce(f.occurred_end, f.occurred_start, f.mentioned_at)) AS last_at,
                 max(f.mentioned_at) AS mentioned_at,
                 count(*)::int AS proof
          FROM hindsight.observation_sources s
          JOIN hindsight.memory_units f ON f.bank_id = s.bank_id AND f.id = s.unit_id
          WHERE s.bank_id = _refresh_observation.bank_id
            AND s.observation_id = _refresh_observation.observation_id) agg
    WHERE o.bank_id = _refresh_observation.bank_id AND o.id = _refresh_observation.observation_id;
    -- its entities: those of its facts
    DELETE FROM hindsight.unit_entities ue
    WHERE ue.bank_id = _refresh_observation.bank_id AND ue.unit_id = _refresh_observation.observation_id
      AND ue.entity_id NOT IN (
          SELECT fe.entity_id FROM hindsight.observation_sources s
          JOIN hindsight.unit_entities fe ON fe.bank_id = s.bank_id AND fe.unit_id = s.unit_id
          WHERE s.bank_id = _refresh_observation.bank_id AND s.observation_id = _refresh_observation.observation_id);
    INSERT INTO hindsight.unit_entities (bank_id, unit_id, entity_id)
    SELECT DISTINCT s.bank_id, s.observation_id, fe.entity_id
    FROM hindsight.observation_sources s
    JOIN hindsight.unit_entities fe ON fe.bank_id = s.bank_id AND fe.unit_id = s.unit_id
    WHERE s.bank_id = _refresh_observation.bank_id AND s.observation_id = _refresh_observation.observation_id
    ON CONFLICT DO NOTHING;
END
$$;
COMMENT ON FUNCTION hindsight._refresh_observation(text, uuid) IS
    'Recomputes an observation from its supporting facts (observation_sources): text = the medoid fact by cosine, '
    'embedding = l2_normalize(mean), dates = the span of the facts'' dates, mentioned_at = the latest, tags and '
    'entities = the union, proof_count = the number of facts; deletes it when no fact is left.';

CREATE OR REPLACE FUNCTION hindsight._group_observations(bank_id text)
RETURNS TABLE (observation_id uuid, action text, proof_count int)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(_group_observations.bank_id);
    min_similarity float8 := (cfg->>'observation_similarity')::float8;
    merge_at float8 := (cfg->>'observation_merge_similarity')::float8;
    ts_config regconfig := (cfg->>'text_search_config')::regconfig;
    fact record;
    candidate record;
    joined uuid;
    members uuid[];
    placed uuid[] := '{}';
    fresh uuid[];
    created uuid[] := '{}';
    updated uuid[] := '{}';
    merged uuid[] := '{}';
    obs record;
    twin uuid;
    keep uuid;
    drop_id uuid;
    new_id uuid;
BEGIN
    -- one consolidation of a bank at a time
    PERFORM pg_advisory_xact_lock(hashtextextended('hindsight.consolidate ' || _group_observations.bank_id, 0));
    SELECT coalesce(array_agg(u.id ORDER BY coalesce(u.occurred_start, u.mentioned_at), u.created_at, u.id), '{}')
    INTO fresh
    FROM hindsight.memory_units u
    WHERE u.bank_id = _group_observations.bank_id AND u.fact_type IN ('world', 'experience') AND u.consolidated_at IS NULL;

    FOR fact IN SELECT u.id, u.embedding FROM unnest(fresh) WITH ORDINALITY AS f(id, n)
                JOIN hindsight.memory_units u ON u.bank_id = _group_observations.bank_id AND u.id = f.id ORDER BY f.n LOOP
        CONTINUE WHEN fact.id = ANY (placed);
        -- 1. the most similar observation that shares an entity with the fact takes it
        SELECT o.id INTO joined
        FROM hindsight.memory_units o
        WHERE o.bank_id = _group_observations.bank_id AND o.fact_type = 'observation'
          AND (o.embedding <=> fact.embedding) <= 1 - min_similarity
          AND EXISTS (SELECT FROM hindsight.unit_entities a
                      JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.entity_id = a.entity_id
                      WHERE a.bank_id = _group_observations.bank_id AND a.unit_id = fact.id AND b.unit_id = o.id)
        ORDER BY o.embedding <=> fact.embedding, o.id
        LIMIT 1;
        IF joined IS NOT NULL THEN
            INSERT INTO hindsight.observation_sources (bank_id, observation_id, unit_id)
            VALUES (_group_observations.bank_id, joined, fact.id) ON CONFLICT DO NOTHING;
            PERFORM hindsight._refresh_observation(_group_observations.bank_id, joined);
            placed := placed || fact.id;
            IF NOT joined = ANY (created) THEN
                updated := updated || joined;
            END IF;
            CONTINUE;
        END IF;
        -- 2. a new observation from the fact and its semantic neighbours (retain's links) that share an
        --    entity with it, are in no observation yet, and are all pairwise similar enough
        members := ARRAY[fact.id];
        FOR candidate IN
            SELECT g.id, g.embedding
            FROM hindsight.memory_links l
            JOIN hindsight.memory_units g ON g.bank_id = l.bank_id AND g.id = l.to_unit_id
            WHERE l.bank_id = _group_observations.bank_id AND l.from_unit_id = fact.id AND l.link_type = 'semantic'
              AND l.weight >= min_similarity AND g.fact_type IN ('world', 'experience')
              AND NOT g.id = ANY (placed)
              AND NOT EXISTS (SELECT FROM hindsight.observation_sources s
                              WHERE s.bank_id = g.bank_id AND s.unit_id = g.id)
              AND EXISTS (SELECT FROM hindsight.unit_entities a
                          JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.entity_id = a.entity_id
                          WHERE a.bank_id = _group_observations.bank_id AND a.unit_id = fact.id AND b.unit_id = g.id)
            ORDER BY l.weight DESC, g.id
        LOOP
            IF NOT EXISTS (SELECT FROM hindsight.memory_units m
                           WHERE m.bank_id = _group_observations.bank_id AND m.id = ANY (members)
                             AND (m.embedding <=> candidate.embedding) > 1 - min_similarity) THEN
                members := members || candidate.id;
            END IF;
        END LOOP;
        CONTINUE WHEN cardinality(members) < 2;
        INSERT INTO hindsight.memory_units AS o (bank_id, text, fact_type, embedding, token_count, search_vector,
                                                 proof_count, consolidated_at)
        SELECT _group_observations.bank_id, u.text, 'observation', u.embedding, u.token_count, u.search_vector,
               cardinality(members), now()
        FROM hindsight.memory_units u WHERE u.bank_id = _group_observations.bank_id AND u.id = fact.id
        RETURNING o.id INTO new_id;
        INSERT INTO hindsight.observation_sources (bank_id, observation_id, unit_id)
        SELECT _group_observations.bank_id, new_id, m FROM unnest(members) m;
        PERFORM hindsight._refresh_observation(_group_observations.bank_id, new_id);
        placed := placed || members;
        created := created || new_id;
    END LOOP;

    UPDATE hindsight.memory_units u SET consolidated_at = now()
    WHERE u.bank_id = _group_observations.bank_id AND u.id = ANY (fresh || placed) AND u.consolidated_at IS NULL;

    -- 3. observations that came out nearly the same merge into the older one
    FOR obs IN SELECT o.id, o.embedding FROM hindsight.memory_units o
               WHERE o.bank_id = _group_observations.bank_id AND o.id = ANY (created || updated) ORDER BY o.created_at, o.id LOOP
        CONTINUE WHEN obs.id = ANY (merged);
        SELECT o.id INTO twin FROM hindsight.memory_units o
        WHERE o.bank_id = _group_observations.bank_id AND o.fact_type = 'observation' AND o.id <> obs.id
          AND NOT o.id = ANY (merged) AND (o.embedding <=> obs.embedding) <= 1 - merge_at
        ORDER BY o.embedding <=> obs.embedding, o.id LIMIT 1;
        CONTINUE WHEN twin IS NULL;
        SELECT CASE WHEN a.created_at <= b.created_at THEN a.id ELSE b.id END,
               CASE WHEN a.created_at <= b.created_at THEN b.id ELSE a.id END
        INTO keep, drop_id
        FROM hindsight.memory_units a, hindsight.memory_units b
        WHERE a.bank_id = _group_observations.bank_id AND a.id = obs.id AND b.bank_id = _group_observations.bank_id AND b.id = twin;
        INSERT INTO hindsight.observation_sources (bank_id, observation_id, unit_id)
        SELECT _group_observations.bank_id, keep, s.unit_id FROM hindsight.observation_sources s
        WHERE s.bank_id = _group_observations.bank_id AND s.observation_id = drop_id
        ON CONFLICT DO NOTHING;
        DELETE FROM hindsight.memory_units u WHERE u.bank_id = _group_observations.bank_id AND u.id = drop_id;
        PERFORM hindsight._refresh_observation(_group_observations.bank_id, keep);
        merged := merged || drop_id;
        IF NOT keep = ANY (created) THEN
            updated := updated || keep;
        END IF;
    END LOOP;

    RETURN QUERY
    SELECT o.id, CASE WHEN o.id = ANY (created) THEN 'created' ELSE 'updated' END, o.proof_count
    FROM hindsight.memory_units o
    WHERE o.bank_id = _group_observations.bank_id AND o.id = ANY (created || updated)
    UNION ALL
    SELECT m, 'merged', NULL::int FROM unnest(merged) m
    ORDER BY 2, 1;
END
$$;
COMMENT ON FUNCTION hindsight._group_observations(text) IS
$$The offline pass of hindsight.consolidate: consolidates the bank's facts (world and experience memory units) that no consolidation has seen yet
(consolidated_at NULL), in time order, offline and deterministically: a fact joins the most similar observation
that shares an entity with it when their cosine similarity is >= observation_similarity (0.85); otherwise it and
its semantic neighbours (retain's links) that share an entity with it, are in no observation, and are pairwise
>= observation_similarity form a new observation when they are at least two. An observation's text is its medoid
fact, its embedding the normalised mean, its dates the facts' span, proof_count the number of facts
(hindsight.observation_sources lists them). Observations within observation_merge_similarity (0.97) of each other
merge into the older. Running it again without new facts changes nothing. Returns (observation_id, action
created | updated | merged, proof_count). HS404 unknown bank. docs/observations.md.$$;

CREATE OR REPLACE FUNCTION hindsight._observation_facts(bank_id text, observation_id uuid)
RETURNS TABLE (unit_id uuid, text text)
LANGUAGE sql STABLE
SET search_path FROM CURRENT
AS $$
    SELECT u.id, u.text
    FROM hindsight.observation_sources s
    JOIN hindsight.memory_units u ON u.bank_id = s.bank_id AND u.id = s.unit_id
    WHERE s.bank_id = _observation_facts.bank_id AND s.observation_id = _observation_facts.observation_id
    ORDER BY coalesce(u.occurred_start, u.mentioned_at), u.id
$$;
COMMENT ON FUNCTION hindsight._observation_facts(text, uuid) IS
    'The facts an observation rests on (hindsight.observation_sources), oldest first: (unit_id, text).';

CREATE OR REPLACE FUNCTION hindsight._write_observation(
    bank_id text,
    observation_id uuid,
    text text,
    contradicting uuid[],
    written_by text
)
RETURNS int
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(_write_observation.bank_id);
    dropped jsonb;
    proof int;
BEGIN
    IF cardinality(contradicting) > 0 THEN
        SELECT jsonb_agg(jsonb_build_object('id', u.id, 'text', u.text) ORDER BY u.id) INTO dropped
        FROM hindsight.memory_units u
        WHERE u.bank_id = _write_observation.bank_id AND u.id = ANY (contradicting);
        UPDATE hindsight.memory_units o
        SET metadata = jsonb_set(o.metadata, '{history}', coalesce(o.metadata->'history', '[]') || jsonb_build_array(
                jsonb_build_object('at', now(), 'event', 'contradicted', 'by', written_by, 'facts', dropped)))
        WHERE o.bank_id = _write_observation.bank_id AND o.id = _write_observation.observation_id;
        -- the contradicting facts no longer count as proof (the trigger recomputes the observation)
        DELETE FROM hindsight.observation_sources s
        WHERE s.bank_id = _write_observation.bank_id AND s.observation_id = _write_observation.observation_id
          AND s.unit_id = ANY (contradicting);
    END IF;
    UPDATE hindsight.memory_units o
    SET text = _write_observation.text,
        token_count = hindsight.count_tokens(_write_observation.text),
        search_vector = hindsight._search_vector(_write_observation.text, (cfg->>'text_search_config')::regconfig),
        metadata = jsonb_set(o.metadata || jsonb_build_object('written_by', written_by), '{history}',
            coalesce(o.metadata->'history', '[]') || jsonb_build_array(
                jsonb_build_object('at', now(), 'event', 'written', 'by', written_by, 'text', _write_observation.text)))
    WHERE o.bank_id = _write_observation.bank_id AND o.id = _write_observation.observation_id
      AND o.fact_type = 'observation'
    RETURNING o.proof_count INTO proof;
    RETURN proof;
END
$$;
COMMENT ON FUNCTION hindsight._write_observation(text, uuid, text, uuid[], text) IS
    'LLM consolidation: records the contradicting facts in the observation''s metadata history and removes them '
    'from its proof (observation_sources), then sets the text a model wrote (metadata written_by, history). '
    'Returns the observation''s proof_count, NULL when it is gone (every fact contradicted it).';

CREATE OR REPLACE FUNCTION hindsight._consolidate_with_llm(bank_id text)
RETURNS TABLE (observation_id uuid, action text, proof_count int)
LANGUAGE plpython3u
AS $$
import json
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.llm import LLMError, in_database, rewrite_observations

config = json.loads(plpy.execute(plpy.prepare("SELECT hindsight.bank_config($1) AS c", ["text"]), [bank_id])[0]["c"])
llm = in_database(plpy, config)
if llm is None:
    plpy.error(f"bank {bank_id!r} has no language model to consolidate with", sqlstate="22023")
facts = plpy.prepare("SELECT unit_id, text FROM hindsight._observation_facts($1, $2)", ["text", "uuid"])
write = plpy.prepare("SELECT hindsight._write_observation($1, $2, $3, $4, $5) AS proof",
                     ["text", "uuid", "text", "uuid[]", "text"])
rows = plpy.execute(plpy.prepare("SELECT * FROM hindsight._group_observations($1)", ["text"]), [bank_id])
try:
    return rewrite_observations(
        llm, [(r["observation_id"], r["action"], r["proof_count"]) for r in rows],
        facts_of=lambda o: [(f["unit_id"], f["text"]) for f in plpy.execute(facts, [bank_id, o])],
        write=lambda o, text, bad: plpy.execute(write, [bank_id, o, text, bad, llm.model])[0]["proof"])
except LLMError as exc:
    plpy.error(str(exc), sqlstate="HS503", hint=exc.hint)
$$;
COMMENT ON FUNCTION hindsight._consolidate_with_llm(text) IS
    'The LLM pass of hindsight.consolidate: the offline pass (hindsight._group_observations), then the bank''s '
    'language model writes each created or updated observation''s text (hindsight_pl.llm.rewrite_observations, '
    'the driver''s code). 22023 without a language model, 42501 an endpoint the role may not call '
    '(hindsight._check_llm_endpoint), HS503 when the model fails.';

CREATE OR REPLACE FUNCTION hindsight.consolidate(bank_id text, use_llm bool DEFAULT true)
RETURNS TABLE (observation_id uuid, action text, proof_count int)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    cfg jsonb := hindsight.bank_config(bank_id);
    state text;
    message text;
    hint text;
BEGIN
    IF NOT coalesce(use_llm, true) OR coalesce(cfg->>'llm_base_url', '') = '' OR coalesce(cfg->>'llm_model', '') = '' THEN
        RETURN QUERY SELECT * FROM hindsight._group_observations(bank_id);
        RETURN;
    END IF;
    RETURN QUERY SELECT * FROM hindsight._consolidate_with_llm(bank_id);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.consolidate(text, bool) IS
$$Consolidates the bank's facts (world and experience memory units) that no consolidation has seen yet
(consolidated_at NULL) into observations, in time order and in one transaction. The offline pass is
deterministic: a fact joins the most similar observation that shares an entity with it when their cosine
similarity is >= observation_similarity (0.85); otherwise it and its semantic neighbours (retain's links) that
share an entity with it, are in no observation, and are pairwise >= observation_similarity form a new observation
when they are at least two. An observation's text is its medoid fact, its embedding the normalised mean, its dates
the facts' span, proof_count the number of facts (hindsight.observation_sources lists them). Observations within
observation_merge_similarity (0.97) of each other merge into the older. Then, when the bank has a language model
(llm_base_url, llm_model) and use_llm, the model writes each created or updated observation's text from its facts
and may find facts that contradict it: those leave its proof (metadata history records them; an observation left
with no fact is removed). Running it again without new facts changes nothing. Returns
(observation_id, action created | updated | merged | removed, proof_count; NULL for merged and removed ones).
Errors: HS404 unknown bank, 42501 a language model endpoint the role may not call (setting llm_endpoints), HS503
the model failed (nothing is kept). docs/observations.md.$$;

-- sql/functions/distribute.sql
-- Scale-out with Citus: every bank-keyed table distributed by bank_id, colocated.

CREATE OR REPLACE FUNCTION hindsight.distribute(shard_count int DEFAULT 32)
RETURNS text[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    tables text[] := ARRAY['banks', 'bank_members', 'documents', 'chunks', 'memory_units', 'entities',
                           'unit_entities', 'memory_links', '_bank_counts', '_bm25_terms', '_bm25_postings',
                           '_entity_cooccurrences', 'observation_sources', 'mental_models'];
    functions text[] := ARRAY[
        'hindsight.recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool)',
        'hindsight.recall_json(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool, int, bool)',
        'hindsight.recall_candidates(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[])',
        'hindsight.retain(text, jsonb)',
        'hindsight.retain_text(text, text, text, timestamptz, text, text[], jsonb, text[], text, text)',
        'hindsight._group_observations(text)',
        'hindsight.bank_config(text)'];
    t text;
    f text;
    done text[] := '{}';
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'the citus extension is not installed in this database'
            USING ERRCODE = '0A000',
                  HINT = 'On a Citus coordinator: CREATE EXTENSION citus; then SELECT hindsight.distribute(). '
                         'See docs/scale-out.md.';
    END IF;
    IF shard_count IS NULL OR shard_count < 1 THEN
        RAISE EXCEPTION 'shard_count must be >= 1, got %', shard_count USING ERRCODE = '22023';
    END IF;
    -- Every table is distributed by bank_id and colocated with banks, so a bank's
    -- rows, its statistics and its links live on one worker and every join of the
    -- pipeline (which always equates bank_id) stays on that worker.
    FOREACH t IN ARRAY tables LOOP
        IF t = 'banks' THEN
            EXECUTE format('SELECT create_distributed_table(%L, %L, shard_count => %s)',
                           'hindsight.banks', 'bank_id', shard_count);
        ELSE
            EXECUTE format('SELECT create_distributed_table(%L, %L, colocate_with => %L)',
                           'hindsight.' || t, 'bank_id', 'hindsight.banks');
        END IF;
        done := done || ('hindsight.' || t);
    END LOOP;
    -- The database-wide settings are read everywhere: a reference table, copied to every worker.
    PERFORM create_reference_table('hindsight.settings');
    done := done || 'hindsight.settings'::text;
    -- A call with a bank id runs on the worker that holds the bank.
    FOREACH f IN ARRAY functions LOOP
        EXECUTE format('SELECT create_distributed_function(%L, %L, colocate_with => %L)',
                       f, '$1', 'hindsight.banks');
        done := done || f;
    END LOOP;
    RETURN done;
END
$$;
COMMENT ON FUNCTION hindsight.distribute(int) IS
    'On a Citus coordinator: distributes every bank-keyed table by bank_id (shard_count shards, colocated with '
    'banks), makes hindsight.settings a reference table, and distributes recall, recall_json, recall_candidates, '
    'retain, retain_text, consolidate''s offline pass (_group_observations) and bank_config by their bank_id argument, '
    'so one call runs on the worker holding the bank '
    '(in-database models then load on the workers: docs/providers.md). Returns what it distributed. Raises 0A000 when '
    'Citus is not installed. See docs/scale-out.md.';

-- sql/functions/index_bank.sql
-- Per-bank HNSW indexes.
--
-- A bank below hnsw_min_units units is searched exactly (b-tree on bank_id, then
-- a top-N sort of the cosine distances: 2.4 ms for 1,000 units here). A larger
-- bank gets its own partial HNSW index `WHERE bank_id = '<bank>'`, so its
-- neighbours never compete with other banks' units and a LIMIT is always filled.
-- The semantic arm of recall plans its query with the bank id as a constant,
-- which lets the planner prove the partial index applies.

CREATE OR REPLACE FUNCTION hindsight._bank_index_name(bank_id text)
RETURNS name
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT ('memory_units_hnsw_' || left(pg_catalog.md5(bank_id), 16))::name
$$;
COMMENT ON FUNCTION hindsight._bank_index_name(text) IS
    'Name of the partial HNSW index of a bank: memory_units_hnsw_ + 16 hex digits of md5(bank_id).';

CREATE OR REPLACE FUNCTION hindsight._drop_bank_index(bank_id text)
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- only the index of a bank that no longer exists (delete_bank calls this after deleting it)
    IF to_regclass(format('hindsight.%I', hindsight._bank_index_name(bank_id))) IS NOT NULL
       AND NOT EXISTS (SELECT FROM hindsight.banks b WHERE b.bank_id = _drop_bank_index.bank_id) THEN
        EXECUTE format('DROP INDEX hindsight.%I', hindsight._bank_index_name(bank_id));
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._drop_bank_index(text) IS
    'Drops the partial HNSW index of a bank that no longer exists (runs as the extension owner).';

CREATE OR REPLACE FUNCTION hindsight.index_bank(
    bank_id text,
    force bool DEFAULT false
)
RETURNS text
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    index_name name := hindsight._bank_index_name(bank_id);
    min_units int := (hindsight.bank_config(bank_id)->>'hnsw_min_units')::int;
    vector_schema name;
BEGIN
    -- This runs as the extension owner, who sees every bank: act only for a caller
    -- who may write the bank.
    IF NOT hindsight._is_superuser(hindsight._invoker())
       AND NOT bank_id = ANY (hindsight._banks_for(hindsight._invoker(), 'write')) THEN
        RAISE EXCEPTION 'unknown bank "%"', bank_id
            USING ERRCODE = 'HS404', HINT = 'Create it first with hindsight.create_bank(bank_id => ...).';
    END IF;
    IF to_regclass(format('hindsight.%I', index_name)) IS NOT NULL THEN
        RETURN index_name;
    END IF;
    IF NOT force AND (SELECT count(*) FROM (
            SELECT 1 FROM hindsight.memory_units u
            WHERE u.bank_id = index_bank.bank_id LIMIT min_units) s) < min_units THEN
        RETURN NULL;
    END IF;
    SELECT n.nspname INTO vector_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'vector';
    EXECUTE format(
        'CREATE INDEX %I ON hindsight.memory_units USING hnsw (embedding %I.vector_cosine_ops) WHERE bank_id = %L',
        index_name, vector_schema, bank_id);
    RETURN index_name;
END
$$;
COMMENT ON FUNCTION hindsight.index_bank(text, bool) IS
    'Gives a bank its own partial HNSW index (vector_cosine_ops, WHERE bank_id = the bank) once it holds '
    'hnsw_min_units units (default 1000), or at once with force. Returns the index name, or NULL while the '
    'bank is still searched exactly. Called by retain; runs as the extension owner. Raises HS404 for an unknown bank.';

-- sql/functions/parse_temporal.sql
-- Query analysis: the date window a query talks about (hindsight_pl.temporal).

CREATE OR REPLACE FUNCTION hindsight._parse_temporal(
    query text,
    reference timestamptz,
    time_zone text,
    hemisphere text,
    OUT window_start timestamptz,
    OUT window_end timestamptz,
    OUT problem text
)
LANGUAGE plpython3u STABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from datetime import datetime
try:
    found = hpl.temporal.parse_temporal(query or "", datetime.fromisoformat(reference), time_zone, hemisphere)
except ValueError as exc:
    return None, None, str(exc)
if found is None:
    return None, None, None
return found[0].isoformat(), found[1].isoformat(), None
$$;
COMMENT ON FUNCTION hindsight._parse_temporal(text, timestamptz, text, text) IS
    'hindsight_pl.temporal.parse_temporal: the window (first instant, last instant) or NULLs, and the problem '
    'with the arguments (unknown time zone or hemisphere) instead of raising.';

CREATE OR REPLACE FUNCTION hindsight.parse_temporal(
    query text,
    reference timestamptz DEFAULT now(),
    time_zone text DEFAULT 'UTC',
    hemisphere text DEFAULT 'north'
)
RETURNS tstzrange
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    found record;
BEGIN
    PERFORM hindsight._require_python();
    SELECT * INTO found FROM hindsight._parse_temporal(query, coalesce(reference, now()), time_zone, hemisphere);
    IF found.problem IS NOT NULL THEN
        RAISE EXCEPTION '%', found.problem USING ERRCODE = '22023',
            HINT = 'time_zone: an IANA name such as UTC or Europe/Berlin; hemisphere: north or south.';
    END IF;
    IF found.window_start IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN tstzrange(found.window_start, found.window_end, '[]');
END
$$;
COMMENT ON FUNCTION hindsight.parse_temporal(text, timestamptz, text, text) IS
$$The date window a query talks about, as whole days in time_zone: [first day 00:00, last day
23:59:59.999999], days counted from reference seen in that zone; NULL when the query has no time
constraint. English, Spanish, Italian, French, German and Russian rules, a Chinese rule set, then
dateparser as the fallback (docs/temporal.md). Seasons are meteorological, for the given hemisphere.
Raises 22023 for an unknown time zone or hemisphere.$$;

CREATE OR REPLACE FUNCTION hindsight._query_window(
    query text,
    reference timestamptz,
    config jsonb
)
RETURNS tstzrange
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    found record;
BEGIN
    -- Recall's automatic window. Whatever goes wrong in the analysis means "no window":
    -- it never fails a recall.
    SELECT * INTO found FROM hindsight._parse_temporal(query, reference, config->>'time_zone', config->>'hemisphere');
    IF found.window_start IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN tstzrange(found.window_start, found.window_end, '[]');
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._query_window(text, timestamptz, jsonb) IS
    'The window recall uses when no temporal_window is given: hindsight.parse_temporal of the query at the '
    'query timestamp with the bank''s time_zone and hemisphere; NULL when there is none or the analysis fails.';

-- sql/functions/providers.sql
-- Model providers inside the database: embeddings and cross-encoder scores from PL/Python
-- (hindsight_pl.providers), configured per bank or database-wide (docs/providers.md).

CREATE OR REPLACE FUNCTION hindsight._check_provider(config jsonb, what text)
RETURNS jsonb
LANGUAGE plpython3u IMMUTABLE
AS $$
import json
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl import providers
try:
    return json.dumps(providers.check(json.loads(config), what))
except ValueError as exc:
    plpy.error(str(exc), sqlstate="22023", hint="e.g. {\"kind\": \"http\", \"url\": \"http://127.0.0.1:8081\"}"
               " or {\"kind\": \"local\", \"model\": \"all-MiniLM-L6-v2\"} (docs/providers.md).")
$$;
COMMENT ON FUNCTION hindsight._check_provider(jsonb, text) IS
    'Validates a provider config for what = embedding or reranker (hindsight_pl.providers.check) and returns '
    'it; raises 22023 naming the problem.';

CREATE OR REPLACE FUNCTION hindsight.set_setting(name text, value jsonb)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    IF name IS NULL OR name NOT IN ('embedding_provider', 'reranker_provider', 'llm_endpoints') THEN
        RAISE EXCEPTION 'unknown setting "%"', name
            USING ERRCODE = '22023', HINT = 'Settings: embedding_provider, reranker_provider, llm_endpoints.';
    END IF;
    IF NOT hindsight._is_superuser(hindsight._invoker()) THEN
        RAISE EXCEPTION 'only a superuser may change %', name
            USING ERRCODE = '42501',
                  HINT = 'In-database providers run as the server''s operating-system user (docs/providers.md).';
    END IF;
    IF value IS NULL THEN
        DELETE FROM hindsight.settings s WHERE s.name = set_setting.name;
        RETURN hindsight._setting(name);
    END IF;
    IF name = 'llm_endpoints' AND NOT (
        jsonb_typeof(value) = 'object' AND value ?& ARRAY['base_urls'] AND (SELECT count(*) FROM jsonb_object_keys(value)) = 1
        AND jsonb_typeof(value->'base_urls') = 'array'
        AND NOT jsonb_path_exists(value->'base_urls', '$[*] ? (@.type() != "string")')) THEN
        RAISE EXCEPTION 'llm_endpoints must be {"base_urls": [...]}, a list of base URLs, got %', value
            USING ERRCODE = '22023', HINT = 'e.g. {"base_urls": ["http://127.0.0.1:11434/v1"]} (docs/reflect.md).';
    END IF;
    INSERT INTO hindsight.settings AS s (name, value)
    VALUES (set_setting.name, CASE WHEN set_setting.name = 'llm_endpoints' THEN value
                                   ELSE hindsight._check_provider(value, replace(set_setting.name, '_provider', '')) END)
    ON CONFLICT ON CONSTRAINT settings_pkey DO UPDATE SET value = excluded.value;
    RETURN hindsight._setting(name);
END
$$;
COMMENT ON FUNCTION hindsight.set_setting(text, jsonb) IS
    'Sets a database-wide setting and returns its value: embedding_provider or reranker_provider (a provider '
    'config such as {"kind": "http", "url": "http://127.0.0.1:8081"}, docs/providers.md), llm_endpoints '
    '({"base_urls": [...]}: the language model endpoints in-database reflect may call for roles other than '
    'superusers, docs/reflect.md). NULL restores the built-in default. Superusers only (42501): in-database models '
    'run as the server''s operating-system user. 22023 on an unknown name or a bad value.';

CREATE OR REPLACE FUNCTION hindsight._setting(name text)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path FROM CURRENT
AS $$
    SELECT coalesce(
        (SELECT s.value FROM hindsight.settings s WHERE s.name = _setting.name),
        CASE name WHEN 'embedding_provider' THEN '{"kind": "local", "model": "all-MiniLM-L6-v2"}'::jsonb
                  WHEN 'reranker_provider' THEN '{"kind": "none"}'::jsonb
                  WHEN 'llm_endpoints' THEN '{"base_urls": []}'::jsonb END)
$$;
COMMENT ON FUNCTION hindsight._setting(text) IS
    'A database-wide setting: its row in hindsight.settings, else the built-in default.';

CREATE OR REPLACE FUNCTION hindsight.provider_config(bank_id text, what text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
BEGIN
    IF what IS NULL OR what NOT IN ('embedding', 'reranker') THEN
        RAISE EXCEPTION 'what must be embedding or reranker, got "%"', what USING ERRCODE = '22023';
    END IF;
    IF bank_id IS NULL THEN
        RETURN hindsight._setting(what || '_provider');
    END IF;
    RETURN coalesce(hindsight.bank_config(bank_id)->(what || '_provider'), hindsight._setting(what || '_provider'));
END
$$;
COMMENT ON FUNCTION hindsight.provider_config(text, text) IS
    'The provider config a bank uses for what = embedding or reranker: the bank''s config key '
    'embedding_provider / reranker_provider, else the database-wide setting, else the built-in default (local '
    'all-MiniLM-L6-v2; no reranker). bank_id NULL gives the database-wide one. HS404 unknown bank.';

CREATE OR REPLACE FUNCTION hindsight._embed(bank_id text, texts text[], kind text)
RETURNS vector[]
LANGUAGE plpython3u
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl import providers
if kind not in ("query", "passage"):
    plpy.error(f"kind must be query or passage, got {kind!r}", sqlstate="22023")
try:
    vectors = providers.for_bank(plpy, GD, bank_id, "embedding").embed([t or "" for t in (texts or [])], kind)
except providers.ProviderError as exc:
    plpy.error(str(exc), sqlstate="HS502", hint="Check the provider with SELECT hindsight.provider_config(bank_id, "
               "'embedding') (docs/providers.md).")
except ValueError as exc:
    plpy.error(str(exc), sqlstate="22023")
return ["[" + ",".join(map(repr, row)) + "]" for row in vectors.tolist()]
$$;
COMMENT ON FUNCTION hindsight._embed(text, text[], text) IS
    'The PL/Python body of hindsight.embed (which see).';

CREATE OR REPLACE FUNCTION hindsight.embed(bank_id text, texts text[], kind text DEFAULT 'passage')
RETURNS vector[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    RETURN hindsight._embed(bank_id, texts, kind);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.embed(text, text[], text) IS
$$Embeds texts with the bank's embedding provider (hindsight.provider_config(bank_id, 'embedding')) inside the
database: kind = query or passage (E5 models prefix "query: " / "passage: "). Returns one unit-length vector(384)
per text, in order. A local model loads once per database session (all-MiniLM-L6-v2: about 5 s and 0.5 GB);
an http provider calls a TEI-protocol server. Errors: HS502 when the provider fails (the message names the
model or URL), 22023 bad kind, HS404 unknown bank.$$;

CREATE OR REPLACE FUNCTION hindsight._rerank(bank_id text, query text, documents text[])
RETURNS float8[]
LANGUAGE plpython3u
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl import providers
try:
    model = providers.for_bank(plpy, GD, bank_id, "reranker")
    if model is None:
        return None
    return model.rerank(query or "", [d or "" for d in (documents or [])]).tolist()
except providers.ProviderError as exc:
    plpy.error(str(exc), sqlstate="HS502", hint="Check the provider with SELECT hindsight.provider_config(bank_id, "
               "'reranker') (docs/providers.md).")
except ValueError as exc:
    plpy.error(str(exc), sqlstate="22023")
$$;
COMMENT ON FUNCTION hindsight._rerank(text, text, text[]) IS
    'The PL/Python body of hindsight.rerank (which see).';

CREATE OR REPLACE FUNCTION hindsight.rerank(bank_id text, query text, documents text[])
RETURNS float8[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    RETURN hindsight._rerank(bank_id, query, documents);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.rerank(text, text, text[]) IS
$$Scores (query, document) pairs with the bank's cross-encoder (hindsight.provider_config(bank_id, 'reranker'))
inside the database: raw scores (logits), one per document in order, or NULL when the bank has no reranker
(kind none). A local CrossEncoder loads once per database session; an http provider calls a TEI-protocol
server's /rerank with raw_scores. Errors: HS502 when the provider fails (naming the model or URL), HS404
unknown bank.$$;

CREATE OR REPLACE FUNCTION hindsight._retain_text(
    bank_id text,
    content text,
    document_id text DEFAULT NULL,
    mentioned_at timestamptz DEFAULT NULL,
    context text DEFAULT NULL,
    tags text[] DEFAULT NULL,
    metadata jsonb DEFAULT NULL,
    entities text[] DEFAULT NULL,
    speaker text DEFAULT NULL,
    update_mode text DEFAULT 'replace'
)
RETURNS TABLE (document_id text, unit_id uuid)
LANGUAGE plpython3u
AS $$
import json
from collections import Counter
from datetime import UTC, datetime
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl import chunking, providers, text, units
from hindsight_pl.dedupe import Deduplicator
from hindsight_pl.llm import LLMError, in_database

config = json.loads(plpy.execute(plpy.prepare("SELECT hindsight.bank_config($1) AS c", ["text"]), [bank_id])[0]["c"])
extractor = units.bank_extractor(config, in_database(plpy, config))
cleaned = text.clean_text(content or "")
if not text.is_meaningful(cleaned):
    plpy.error(f"content is blank or has only punctuation: {cleaned[:40]!r}", sqlstate="22023",
               hint="Retain text that has at least one letter or digit.")
if update_mode not in ("replace", "append"):
    plpy.error(f"update_mode must be replace or append, got {update_mode!r}", sqlstate="22023")
said = plpy.execute(plpy.prepare("SELECT extract(epoch FROM coalesce($1, now()))::float8 AS t", ["timestamptz"]),
                    [mentioned_at])[0]["t"]
moment = datetime.fromtimestamp(said, UTC)
names = [n for n in (text.clean_text(e).strip() for e in (entities or []) if e) if n]
who = (text.clean_text(speaker).strip() or None) if speaker else None
item = {
    "entities": names, "speaker": who, "timestamp": moment,
    "payload": {
        "document_id": document_id, "update_mode": update_mode, "content": cleaned,
        "context": text.clean_text(context) if context else None, "timestamp": moment.isoformat(),
        "tags": [text.clean_text(t) for t in (tags or []) if t is not None],
        "metadata": json.loads(metadata) if metadata else {}, "chunks": chunking.chunk_text(cleaned),
    },
}
stored = Counter()
if document_id:
    rows = plpy.execute(plpy.prepare("SELECT content_hash FROM hindsight.chunks WHERE bank_id = $1 AND document_id = $2",
                                     ["text", "text"]), [bank_id, document_id])
    stored.update(r["content_hash"] for r in rows)
try:
    embedder = providers.for_bank(plpy, GD, bank_id, "embedding")
    units.fill_units([item], extractor=extractor, embed=lambda texts: embedder.embed(texts, kind="passage"),
                     dedupe=Deduplicator(float(config.get("dedupe_similarity", 0.95))),
                     stored={document_id or "": stored})
except providers.ProviderError as exc:
    plpy.error(str(exc), sqlstate="HS502", hint="Check the provider with SELECT hindsight.provider_config(bank_id, "
               "'embedding') (docs/providers.md).")
except LLMError as exc:
    plpy.error(str(exc), sqlstate="HS503", hint=exc.hint)
rows = plpy.execute(plpy.prepare("SELECT document_id, unit_id FROM hindsight.retain($1, $2::jsonb)", ["text", "text"]),
                    [bank_id, json.dumps([item["payload"]])])
return [(r["document_id"], r["unit_id"]) for r in rows]
$$;
COMMENT ON FUNCTION hindsight._retain_text(text, text, text, timestamptz, text, text[], jsonb, text[], text, text) IS
    'The PL/Python body of hindsight.retain_text (which see).';

CREATE OR REPLACE FUNCTION hindsight.retain_text(
    bank_id text,
    content text,
    document_id text DEFAULT NULL,
    mentioned_at timestamptz DEFAULT NULL,
    context text DEFAULT NULL,
    tags text[] DEFAULT NULL,
    metadata jsonb DEFAULT NULL,
    entities text[] DEFAULT NULL,
    speaker text DEFAULT NULL,
    update_mode text DEFAULT 'replace'
)
RETURNS SETOF hindsight.retained_unit
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    -- positional: document_id names both an argument and a result column
    RETURN QUERY SELECT * FROM hindsight._retain_text($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.retain_text(text, text, text, timestamptz, text, text[], jsonb, text[], text, text) IS
$$Retains raw text from SQL alone: cleans and chunks content (at most 3,000 characters a chunk), extracts facts
with the bank's extractor (offline, verbatim, or llm: the bank's language model, called from the database;
docs/retain.md), embeds them with the bank's embedding provider
(hindsight.embed) and stores them with hindsight.retain, all inside the database and in one transaction.
mentioned_at (when the text was said or written; relative dates in it count from there) defaults to now(); entities and speaker are the caller's names; update_mode replace | append for an existing
document_id (unchanged chunks keep their memories). Returns (document_id, unit_id) per new memory unit (unit_id
NULL when the text gave none). Errors: HS404 unknown bank, 22023 blank content or bad update_mode, 42501 a
language model endpoint the role may not call (setting llm_endpoints, docs/reflect.md), HS503 the language model
failed, HS502 the embedding provider failed; nothing is stored then.$$;

-- sql/functions/recall.sql
-- Recall: the whole TEMPR pipeline in one call, as rows or as one JSON document.

CREATE OR REPLACE FUNCTION hindsight.recall(
    bank_id text,
    query text,
    query_embedding vector DEFAULT NULL,
    budget text DEFAULT 'mid',
    max_tokens int DEFAULT 4096,
    types text[] DEFAULT NULL,
    tags text[] DEFAULT NULL,
    tags_match text DEFAULT 'any',
    query_timestamp timestamptz DEFAULT NULL,
    trace bool DEFAULT false,
    temporal_window tstzrange DEFAULT NULL,
    fusion text DEFAULT 'rrf',
    cap_per_source int DEFAULT NULL,
    arms text[] DEFAULT NULL,
    passthrough text DEFAULT 'normalized',
    prefer_observations bool DEFAULT false
)
RETURNS TABLE (
    rank int,
    id uuid,
    text text,
    fact_type text,
    context text,
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz,
    document_id text,
    chunk_id text,
    tags text[],
    metadata jsonb,
    tokens int,
    score float8,
    rrf_score float8,
    rerank_score float8,
    recency float8,
    temporal_proximity float8,
    proof float8,
    semantic_rank int,
    semantic_score float8,
    bm25_rank int,
    bm25_score float8,
    graph_rank int,
    graph_score float8,
    temporal_rank int,
    temporal_score float8
)
LANGUAGE sql
AS $$
    WITH c AS MATERIALIZED (
        SELECT ARRAY(SELECT c FROM hindsight.recall_candidates(
                         bank_id, query, query_embedding, budget, max_tokens, types, tags, tags_match, query_timestamp,
                         trace, temporal_window, fusion, cap_per_source, arms) AS c
                     ORDER BY c.candidate_rank) AS candidates
    )
    SELECT f.*
    FROM c, LATERAL hindsight.recall_finish(
        bank_id,
        c.candidates,
        -- the rerank stage: the bank's cross-encoder, when it has one, scores the pre-filtered candidates
        CASE WHEN cardinality(c.candidates) > 0 AND hindsight.provider_config(bank_id, 'reranker')->>'kind' <> 'none'
             THEN hindsight.rerank(bank_id, query, ARRAY(SELECT x.rerank_text FROM unnest(c.candidates) x)) END,
        budget, max_tokens, query_timestamp, passthrough, trace, prefer_observations) AS f
$$;
COMMENT ON FUNCTION hindsight.recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool) IS
$$Recalls the memory units of a bank that best answer query, packed into max_tokens (cl100k_base tokens):
hindsight.recall_finish over hindsight.recall_candidates, with the bank's cross-encoder (hindsight.rerank) when
it has one (docs/recall.md gives every formula, docs/providers.md the providers). Arms (each LIMIT
recall_budget; budget low|mid|high = 100|300|1000, or adaptive): semantic (cosine to query_embedding,
vector(384); when NULL, the bank's embedding provider embeds the query, hindsight.embed), bm25 (OR of the query's words, ts_rank_cd), graph (entity,
semantic and causal links from the semantic hits, tanh activation), temporal (units in temporal_window, then
spreading along temporal and causal links). Fusion: RRF, sum 1/(60 + rank) (Cormack et al. 2009), or
interleave. Score: passthrough (fused / best fused) times recency, temporal-proximity and proof boosts.
Packing: greedy over the best recall_budget*2; when nothing fits the top result is returned whole;
max_tokens = 0 returns none. Filters: types (world|experience|observation), tags with tags_match
any|all|any_strict|all_strict|exact; prefer_observations drops a fact an observation among the results cites. trace => true stores a JSON trace in the setting hindsight.last_trace.
Rows: rank (1-based), the unit's columns, tokens, score, rrf_score, rerank_score, recency,
temporal_proximity, proof, and each arm's rank and score (NULL when the arm did not return the unit).
Errors: HS404 unknown bank; 22023 bad budget, max_tokens, tags_match, types, arms, fusion, window or
embedding; 22004 NULL query; HS502 a model provider failed.$$;

CREATE OR REPLACE FUNCTION hindsight.recall_json(
    bank_id text,
    query text,
    query_embedding vector DEFAULT NULL,
    budget text DEFAULT 'mid',
    max_tokens int DEFAULT 4096,
    types text[] DEFAULT NULL,
    tags text[] DEFAULT NULL,
    tags_match text DEFAULT 'any',
    query_timestamp timestamptz DEFAULT NULL,
    trace bool DEFAULT false,
    temporal_window tstzrange DEFAULT NULL,
    fusion text DEFAULT 'rrf',
    cap_per_source int DEFAULT NULL,
    arms text[] DEFAULT NULL,
    passthrough text DEFAULT 'normalized',
    include_chunks bool DEFAULT false,
    max_chunk_tokens int DEFAULT 8192,
    prefer_observations bool DEFAULT false
)
RETURNS jsonb
LANGUAGE sql
AS $$
    WITH r AS MATERIALIZED (
        SELECT * FROM hindsight.recall(bank_id, query, query_embedding, budget, max_tokens, types, tags, tags_match,
                                       query_timestamp, trace, temporal_window, fusion, cap_per_source, arms,
                                       passthrough, prefer_observations)
    )
    SELECT jsonb_build_object(
        'results', coalesce((SELECT jsonb_agg(to_jsonb(r) ORDER BY r.rank) FROM r), '[]'::jsonb),
        'chunks', CASE WHEN include_chunks THEN hindsight.recall_chunks(
                           bank_id, ARRAY(SELECT r.chunk_id FROM r WHERE r.chunk_id IS NOT NULL ORDER BY r.rank),
                           max_chunk_tokens) END,
        'trace', CASE WHEN trace THEN current_setting('hindsight.last_trace', true)::jsonb END)
$$;
COMMENT ON FUNCTION hindsight.recall_json(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool, int, bool) IS
    'hindsight.recall as one jsonb document {"results": [rows in rank order], "chunks": [...] or null, '
    '"trace": {...} or null}. include_chunks adds the source chunks of the results (hindsight.recall_chunks, '
    'packed into max_chunk_tokens). The trace (trace => true) holds the window, every arm''s hits and '
    'milliseconds, the fused candidates with source ranks, the pre-filter, every score component per '
    'result, packing and milliseconds per phase. Same arguments and errors as recall.';

CREATE OR REPLACE FUNCTION hindsight.recall_chunks(
    bank_id text,
    chunk_ids text[],
    max_chunk_tokens int DEFAULT 8192
)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    ordered text[];
    texts text[];
    result jsonb;
BEGIN
    PERFORM hindsight._require_python();
    IF max_chunk_tokens IS NULL OR max_chunk_tokens < 0 THEN
        RAISE EXCEPTION 'max_chunk_tokens must be an integer >= 0, got %', coalesce(max_chunk_tokens::text, 'NULL')
            USING ERRCODE = '22023';
    END IF;
    -- distinct chunks in the order of their first mention
    SELECT array_agg(x.id ORDER BY x.first), array_agg(c.chunk_text ORDER BY x.first)
    INTO ordered, texts
    FROM (SELECT i.id, min(i.o) AS first FROM unnest(chunk_ids) WITH ORDINALITY AS i(id, o) GROUP BY i.id) x
    JOIN hindsight.chunks c ON c.bank_id = recall_chunks.bank_id AND c.chunk_id = x.id;
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'chunk_id', c.chunk_id, 'document_id', c.document_id, 'chunk_index', c.chunk_index,
               'text', p.text, 'tokens', p.tokens, 'truncated', p.truncated) ORDER BY p.chunk_position), '[]')
    INTO result
    FROM hindsight._pack_chunks(coalesce(texts, '{}'), max_chunk_tokens) p
    JOIN hindsight.chunks c ON c.bank_id = recall_chunks.bank_id AND c.chunk_id = ordered[p.chunk_position];
    RETURN result;
END
$$;
COMMENT ON FUNCTION hindsight.recall_chunks(text, text[], int) IS
    'The source chunks of recall results: distinct chunk ids in the order given (rank order), their texts packed '
    'into max_chunk_tokens (cl100k_base); the chunk that overflows is cut to the tokens left and marked '
    'truncated, and nothing follows it. Returns a JSON array of {chunk_id, document_id, chunk_index, text, '
    'tokens, truncated}.';

CREATE OR REPLACE FUNCTION hindsight._pack_chunks(texts text[], max_tokens int)
RETURNS TABLE (chunk_position int, text text, tokens int, truncated bool)
LANGUAGE plpython3u STABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
return hpl.packing.pack_chunks(texts or [], max_tokens)
$$;
COMMENT ON FUNCTION hindsight._pack_chunks(text[], int) IS
    'Packs texts in order into max_tokens (cl100k_base): whole while they fit, the first that does not is cut '
    'to the tokens left (truncated = true), then stop. Rows: 1-based position, text, tokens, truncated.';

-- sql/functions/recall_candidates.sql
-- Recall, first half: the four arms, fusion, strategy boosts and the rerank pre-filter.

CREATE OR REPLACE FUNCTION hindsight._check_recall_args(
    config jsonb,
    query text,
    query_embedding vector,
    budget text,
    max_tokens int,
    types text[],
    tags_match text,
    temporal_window tstzrange,
    fusion text,
    cap_per_source int,
    arms text[]
)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    bad text;
BEGIN
    IF query IS NULL THEN
        RAISE EXCEPTION 'query must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF budget IS NULL OR NOT (config->'recall_budgets') ? budget THEN
        RAISE EXCEPTION 'unknown budget "%"', budget USING ERRCODE = '22023', HINT = 'Use one of low, mid, high.';
    END IF;
    IF max_tokens IS NULL OR max_tokens < 0 THEN
        RAISE EXCEPTION 'max_tokens must be an integer >= 0, got %', coalesce(max_tokens::text, 'NULL')
            USING ERRCODE = '22023';
    END IF;
    IF tags_match IS NULL OR tags_match NOT IN ('any', 'all', 'any_strict', 'all_strict', 'exact') THEN
        RAISE EXCEPTION 'unknown tags_match "%"', tags_match
            USING ERRCODE = '22023', HINT = 'Use one of any, all, any_strict, all_strict, exact.';
    END IF;
    SELECT t INTO bad FROM unnest(types) AS t WHERE t IS NULL OR t NOT IN ('world', 'experience', 'observation') LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'unknown fact type "%"', coalesce(bad, 'NULL')
            USING ERRCODE = '22023', HINT = 'Use world, experience or observation.';
    END IF;
    SELECT a INTO bad FROM unnest(arms) AS a WHERE a IS NULL OR a NOT IN ('semantic', 'bm25', 'graph', 'temporal') LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'unknown arm "%"', coalesce(bad, 'NULL')
            USING ERRCODE = '22023', HINT = 'Arms: semantic, bm25, graph, temporal.';
    END IF;
    IF fusion IS NULL OR fusion NOT IN ('rrf', 'interleave') THEN
        RAISE EXCEPTION 'unknown fusion "%"', fusion USING ERRCODE = '22023', HINT = 'Use rrf or interleave.';
    END IF;
    IF cap_per_source IS NOT NULL AND cap_per_source < 1 THEN
        RAISE EXCEPTION 'cap_per_source must be >= 1, got %', cap_per_source USING ERRCODE = '22023';
    END IF;
    IF temporal_window IS NOT NULL AND (isempty(temporal_window) OR lower_inf(temporal_window)
                                        OR upper_inf(temporal_window)) THEN
        RAISE EXCEPTION 'temporal_window must be a non-empty range with both bounds, got %', temporal_window
            USING ERRCODE = '22023';
    END IF;
    IF query_embedding IS NOT NULL THEN
        IF vector_dims(query_embedding) <> 384 THEN
            RAISE EXCEPTION 'query_embedding has % dimensions, expected 384', vector_dims(query_embedding)
                USING ERRCODE = '22023';
        END IF;
        IF vector_norm(query_embedding) = 0 THEN
            RAISE EXCEPTION 'query_embedding is all zeros; cosine similarity is undefined for it'
                USING ERRCODE = '22023';
        END IF;
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._check_recall_args(jsonb, text, vector, text, int, text[], text, tstzrange, text, int, text[]) IS
    'Raises 22004 / 22023 naming the first bad recall argument (query, budget, max_tokens, tags_match, types, '
    'arms, fusion, cap_per_source, temporal_window, query_embedding).';

CREATE OR REPLACE FUNCTION hindsight.recall_candidates(
    bank_id text,
    query text,
    query_embedding vector DEFAULT NULL,
    budget text DEFAULT 'mid',
    max_tokens int DEFAULT 4096,
    types text[] DEFAULT NULL,
    tags text[] DEFAULT NULL,
    tags_match text DEFAULT 'any',
    query_timestamp timestamptz DEFAULT NULL,
    trace bool DEFAULT false,
    temporal_window tstzrange DEFAULT NULL,
    fusion text DEFAULT 'rrf',
    cap_per_source int DEFAULT NULL,
    arms text[] DEFAULT NULL
)
RETURNS SETOF hindsight.recall_candidate
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    cfg jsonb := hindsight.bank_config(recall_candidates.bank_id);
    run_arms text[] := coalesce(arms, ARRAY['semantic', 'bm25', 'graph', 'temporal']);
    recall_budget int;
    strategy record;
    keyword_query tsquery;
    query_terms text[];
    window_used tstzrange := temporal_window;
    semantic_hits hindsight._arm_hit[] := '{}';
    bm25_hits hindsight._arm_hit[] := '{}';
    graph_hits hindsight._arm_hit[] := '{}';
    temporal_hits hindsight._arm_hit[] := '{}';
    fused_hits hindsight._arm_hit[];
    candidates hindsight.recall_candidate[];
    fused_count int;
    started timestamptz := clock_timestamp();
    step timestamptz;
    ms jsonb := '{}';
BEGIN
    PERFORM hindsight._require_python();
    PERFORM hindsight._check_recall_args(cfg, query, query_embedding, budget, max_tokens, types, tags_match,
                                         temporal_window, fusion, cap_per_source, arms);
    recall_budget := hindsight._recall_budget(cfg, budget, max_tokens);
    SELECT * INTO strategy FROM hindsight._strategy(cfg);

    -- Without a query embedding, the bank's embedding provider makes one in the database
    -- (not for a query without a letter or digit: there is nothing to mean).
    IF query_embedding IS NULL AND (run_arms && ARRAY['semantic', 'graph']) AND query ~ '[[:alnum:]]' THEN
        step := clock_timestamp();
        query_embedding := (hindsight.embed(bank_id, ARRAY[query], 'query'))[1];
        ms := ms || jsonb_build_object('embed', extract(epoch FROM clock_timestamp() - step) * 1000);
    END IF;

    -- Semantic arm (also the graph arm's seeds).
    IF query_embedding IS NOT NULL AND (run_arms && ARRAY['semantic', 'graph']) THEN
        step := clock_timestamp();
        semantic_hits := hindsight._semantic_arm(bank_id, query_embedding, types, tags, tags_match, recall_budget);
        ms := ms || jsonb_build_object('semantic', extract(epoch FROM clock_timestamp() - step) * 1000);
    END IF;

    -- Keyword arm: native full text search ranked with ts_rank_cd (default), true
    -- BM25 from term statistics (keyword_backend = bm25), or ParadeDB's
    -- pg_search (keyword_backend = pg_search, _keyword_pg_search.sql).
    IF 'bm25' = ANY (run_arms) THEN
        step := clock_timestamp();
        query_terms := hindsight._query_terms(query, (cfg->>'text_search_config')::regconfig);
        IF cardinality(query_terms) > 0 THEN
            IF cfg->>'keyword_backend' = 'native' THEN
                keyword_query := hindsight._keyword_query(query, (cfg->>'text_search_config')::regconfig);
                bm25_hits := hindsight._keyword_arm(bank_id, keyword_query, types, tags, tags_match, recall_budget);
            ELSIF cfg->>'keyword_backend' = 'pg_search' THEN
                bm25_hits := hindsight._pg_search_arm(bank_id, query, types, tags, tags_match, recall_budget);
            ELSE
                bm25_hits := hindsight._bm25_arm(bank_id, query_terms, types, tags, tags_match, recall_budget, cfg);
            END IF;
        END IF;
        ms := ms || jsonb_build_object('bm25', extract(epoch FROM clock_timestamp() - step) * 1000);
    END IF;

    -- Graph arm.
    IF 'graph' = ANY (run_arms) AND cardinality(semantic_hits) > 0 THEN
        step := clock_timestamp();
        graph_hits := hindsight._graph_arm(bank_id, query_embedding, semantic_hits, types, tags, tags_match,
                                           recall_budget, cfg);
        ms := ms || jsonb_build_object('graph', extract(epoch FROM clock_timestamp() - step) * 1000);
    END IF;

    -- The query's window: the argument, else the query's own time expression
    -- (hindsight.parse_temporal; a failure there means no window). Without one,
    -- no temporal arm and a neutral temporal signal.
    IF window_used IS NULL THEN
        step := clock_timestamp();
        window_used := hindsight._query_window(query, coalesce(query_timestamp, now()), cfg);
        ms := ms || jsonb_build_object('query_analysis', extract(epoch FROM clock_timestamp() - step) * 1000);
    END IF;

    -- Temporal arm.
    IF 'temporal' = ANY (run_arms) AND window_used IS NOT NULL THEN
        step := clock_timestamp();
        temporal_hits := hindsight._temporal_arm(bank_id, query_embedding, window_used, types, tags, tags_match,
                                                 recall_budget, cfg);
        ms := ms || jsonb_build_object('temporal', extract(epoch FROM clock_timestamp() - step) * 1000);
    END IF;

    -- Fusion over the arms asked for (each capped at cap_per_source), strategy
    -- boosts as rank divisors, then the rerank pre-filter.
    step := clock_timestamp();
    fused_hits := ARRAY(
        SELECT h FROM unnest(CASE WHEN 'semantic' = ANY (run_arms) THEN semantic_hits ELSE '{}' END
                             || bm25_hits || graph_hits || temporal_hits) h
        WHERE cap_per_source IS NULL OR h.rank <= cap_per_source);
    SELECT count(*)::int, coalesce(array_agg(ROW(
               c.pos, c.unit_id,
               hindsight._rerank_text(u.text, u.context, u.occurred_start),
               c.rrf_score, c.semantic_rank, c.semantic_score, c.bm25_rank, c.bm25_score,
               c.graph_rank, c.graph_score, c.temporal_rank, c.temporal_score,
               hindsight._proximity(hindsight._best_date(u.occurred_start, u.occurred_end, u.mentioned_at), window_used),
               coalesce((strategy.additive->>'semantic')::float8, 0) * (c.semantic_rank IS NOT NULL)::int
               + coalesce((strategy.additive->>'bm25')::float8, 0) * (c.bm25_rank IS NOT NULL)::int
               + coalesce((strategy.additive->>'graph')::float8, 0) * (c.graph_rank IS NOT NULL)::int
               + coalesce((strategy.additive->>'temporal')::float8, 0) * (c.temporal_rank IS NOT NULL)::int
           )::hindsight.recall_candidate ORDER BY c.pos) FILTER (WHERE c.pos <= (cfg->>'reranker_max_candidates')::int), '{}')
    INTO fused_count, candidates
    FROM (SELECT f.*, row_number() OVER (ORDER BY f.rrf_score DESC, f.semantic_rank NULLS LAST, f.bm25_rank NULLS LAST,
                                         f.graph_rank NULLS LAST, f.temporal_rank NULLS LAST, f.unit_id)::int AS pos
          FROM hindsight._fuse(fused_hits, fusion, (cfg->>'rrf_k')::float8, cfg->'arm_weights', strategy.divisors) f) c
    JOIN hindsight.memory_units u ON u.bank_id = recall_candidates.bank_id AND u.id = c.unit_id;
    ms := ms || jsonb_build_object('fusion', extract(epoch FROM clock_timestamp() - step) * 1000);

    IF trace THEN
        PERFORM set_config('hindsight.last_trace', jsonb_build_object(
            'bank_id', bank_id,
            'query', query,
            'budget', budget,
            'recall_budget', recall_budget,
            'max_tokens', max_tokens,
            'query_timestamp', coalesce(query_timestamp, now()),
            'temporal_window', CASE WHEN window_used IS NULL THEN NULL
                                    ELSE jsonb_build_object('start', lower(window_used), 'end', upper(window_used),
                                                            'source', CASE WHEN temporal_window IS NULL THEN 'query'
                                                                           ELSE 'argument' END) END,
            'query_analysis_ms', ms->'query_analysis',
            'filters', jsonb_build_object('types', types, 'tags', tags, 'tags_match', tags_match),
            'arms', jsonb_build_object(
                'semantic', jsonb_build_object(
                    'ran', query_embedding IS NOT NULL AND 'semantic' = ANY (run_arms),
                    'index', CASE WHEN query_embedding IS NULL THEN NULL
                                  ELSE coalesce(to_regclass(format('hindsight.%I',
                                       hindsight._bank_index_name(bank_id)))::text, 'exact scan') END,
                    'ef_search', least(recall_budget, 1000), 'ms', ms->'semantic',
                    'hits', hindsight._trace_hits(semantic_hits)),
                'bm25', jsonb_build_object(
                    'ran', coalesce(cardinality(query_terms), 0) > 0, 'backend', cfg->>'keyword_backend',
                    'terms', to_jsonb(query_terms), 'tsquery', keyword_query::text, 'ms', ms->'bm25',
                    'hits', hindsight._trace_hits(bm25_hits)),
                'graph', jsonb_build_object(
                    'ran', 'graph' = ANY (run_arms) AND cardinality(semantic_hits) > 0, 'ms', ms->'graph',
                    'hits', hindsight._trace_hits(graph_hits)),
                'temporal', jsonb_build_object(
                    'ran', 'temporal' = ANY (run_arms) AND window_used IS NOT NULL, 'ms', ms->'temporal',
                    'hits', hindsight._trace_hits(temporal_hits))),
            'fusion', jsonb_build_object(
                'method', fusion, 'k', (cfg->>'rrf_k')::float8, 'arm_weights', cfg->'arm_weights',
                'strategy_boosts', cfg->'strategy_boosts', 'cap_per_source', cap_per_source,
                'fused', fused_count, 'ms', ms->'fusion'),
            'prefilter', jsonb_build_object(
                'cap', (cfg->>'reranker_max_candidates')::int,
                'kept', cardinality(candidates),
                'dropped', fused_count - cardinality(candidates),
                'composition', (SELECT jsonb_build_object(
                    'semantic', count(c.semantic_rank), 'bm25', count(c.bm25_rank),
                    'graph', count(c.graph_rank), 'temporal', count(c.temporal_rank))
                    FROM unnest(candidates) c),
                'candidates', (SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                    'id', c.unit_id, 'rank', c.candidate_rank, 'rrf', c.rrf_score,
                    'source_ranks', jsonb_strip_nulls(jsonb_build_object(
                        'semantic', c.semantic_rank, 'bm25', c.bm25_rank,
                        'graph', c.graph_rank, 'temporal', c.temporal_rank)))) ORDER BY c.candidate_rank), '[]')
                    FROM unnest(candidates) c)),
            'phases_ms', jsonb_build_object('candidates', extract(epoch FROM clock_timestamp() - started) * 1000)
        )::text, false);
    ELSE
        PERFORM set_config('hindsight.last_trace', '', false);  -- no stale trace from an earlier recall
    END IF;
    RETURN QUERY SELECT * FROM unnest(candidates);
END
$$;
COMMENT ON FUNCTION hindsight.recall_candidates(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[]) IS
$$First half of hindsight.recall: runs the arms (semantic, bm25, graph, temporal; arms => a subset; without
query_embedding the bank's embedding provider embeds the query in the database, hindsight.embed),
fuses them (fusion => 'rrf' with per-bank arm_weights and strategy_boosts rank divisors, or 'interleave';
cap_per_source keeps each arm's top N first) and keeps the best reranker_max_candidates (300) by fused
score. Returns hindsight.recall_candidate rows in fused order, each with the text a cross-encoder should
score. Pass them, with scores or without, to hindsight.recall_finish. Same errors as recall.$$;

CREATE OR REPLACE FUNCTION hindsight._trace_hits(hits hindsight._arm_hit[])
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(jsonb_agg(jsonb_build_object('id', h.unit_id, 'rank', h.rank, 'score', h.score) ORDER BY h.rank),
                    '[]')
    FROM unnest(hits) h
$$;
COMMENT ON FUNCTION hindsight._trace_hits(hindsight._arm_hit[]) IS
    'An arm''s hits as a JSON array of {id, rank, score} in rank order, for the recall trace.';

-- sql/functions/recall_finish.sql
-- Recall, second half: rerank scores (or the passthrough), combined scoring, packing.

CREATE OR REPLACE FUNCTION hindsight.recall_finish(
    bank_id text,
    candidates hindsight.recall_candidate[],
    rerank_scores float8[] DEFAULT NULL,
    budget text DEFAULT 'mid',
    max_tokens int DEFAULT 4096,
    query_timestamp timestamptz DEFAULT NULL,
    passthrough text DEFAULT 'normalized',
    trace bool DEFAULT false,
    prefer_observations bool DEFAULT false
)
RETURNS TABLE (
    rank int,
    id uuid,
    text text,
    fact_type text,
    context text,
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz,
    document_id text,
    chunk_id text,
    tags text[],
    metadata jsonb,
    tokens int,
    score float8,
    rrf_score float8,
    rerank_score float8,
    recency float8,
    temporal_proximity float8,
    proof float8,
    semantic_rank int,
    semantic_score float8,
    bm25_rank int,
    bm25_score float8,
    graph_rank int,
    graph_score float8,
    temporal_rank int,
    temporal_score float8
)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(recall_finish.bank_id);
    recall_budget int;
    now_ts timestamptz := coalesce(query_timestamp, now());
    normalized float8[];
    scored hindsight._scored_candidate[];
    kept int[] := '{}';
    started timestamptz := clock_timestamp();
    earlier jsonb;
BEGIN
    PERFORM hindsight._require_python();
    IF budget IS NULL OR NOT (cfg->'recall_budgets') ? budget THEN
        RAISE EXCEPTION 'unknown budget "%"', budget USING ERRCODE = '22023', HINT = 'Use one of low, mid, high.';
    END IF;
    IF max_tokens IS NULL OR max_tokens < 0 THEN
        RAISE EXCEPTION 'max_tokens must be an integer >= 0, got %', coalesce(max_tokens::text, 'NULL')
            USING ERRCODE = '22023';
    END IF;
    IF passthrough IS NULL OR passthrough NOT IN ('normalized', 'rank_linear') THEN
        RAISE EXCEPTION 'unknown passthrough "%"', passthrough
            USING ERRCODE = '22023', HINT = 'Use normalized or rank_linear.';
    END IF;
    IF rerank_scores IS NOT NULL AND cardinality(rerank_scores) <> coalesce(cardinality(candidates), 0) THEN
        RAISE EXCEPTION 'rerank_scores has % scores for % candidates', cardinality(rerank_scores),
            coalesce(cardinality(candidates), 0)
            USING ERRCODE = '22023', HINT = 'Give one raw score per candidate, in candidate order.';
    END IF;
    recall_budget := hindsight._recall_budget(cfg, budget, max_tokens);

    -- Rerank score: the cross-encoder's, normalised; without one, the passthrough:
    -- normalized = fused score / best fused score (gaps in relevance survive),
    -- rank_linear = the fused rank mapped linearly onto [1.0, 0.1] (the reference design).
    normalized := CASE
        WHEN rerank_scores IS NOT NULL THEN hindsight._normalize_rerank(rerank_scores)
        WHEN passthrough = 'rank_linear' THEN ARRAY(
            SELECT CASE WHEN n.total <= 1 THEN 1.0 ELSE 1.0 - 0.9 * (o - 1) / (n.total - 1) END
            FROM unnest(candidates) WITH ORDINALITY AS c(candidate_rank, unit_id, rerank_text, rrf_score,
                 semantic_rank, semantic_score, bm25_rank, bm25_score, graph_rank, graph_score, temporal_rank,
                 temporal_score, temporal_proximity, boost_additive, o),
                 (SELECT cardinality(candidates)::float8 AS total) n
            ORDER BY o)
        ELSE ARRAY(
            SELECT c.rrf_score / nullif(max(c.rrf_score) OVER (), 0)
            FROM unnest(candidates) WITH ORDINALITY AS c(candidate_rank, unit_id, rerank_text, rrf_score,
                 semantic_rank, semantic_score, bm25_rank, bm25_score, graph_rank, graph_score, temporal_rank,
                 temporal_score, temporal_proximity, boost_additive, o)
            ORDER BY o)
    END;

    -- final = rerank * recency boost * temporal boost * proof boost + strategy bonus,
    -- each boost 1 + alpha * (signal - 0.5) (Hindsight TEMPR's combined scoring).
    SELECT coalesce(array_agg(ROW(s.unit_id, s.final_score, s.rerank_raw, s.rerank_score, s.recency, s.proof,
                                  s.token_count)::hindsight._scored_candidate
                              ORDER BY s.final_score DESC, s.candidate_rank), '{}')
    INTO scored
    FROM (SELECT c.unit_id, c.candidate_rank, u.token_count, rerank_scores[c.o] AS rerank_raw,
                 normalized[c.o] AS rerank_score, r.recency, p.proof,
                 normalized[c.o]
                     * hindsight._boost(r.recency, (cfg->>'recency_alpha')::float8)
                     * hindsight._boost(c.temporal_proximity, (cfg->>'temporal_alpha')::float8)
                     * hindsight._boost(p.proof, (cfg->>'proof_alpha')::float8)
                     + coalesce(c.boost_additive, 0) AS final_score
          FROM unnest(candidates) WITH ORDINALITY AS c(candidate_rank, unit_id, rerank_text, rrf_score,
               semantic_rank, semantic_score, bm25_rank, bm25_score, graph_rank, graph_score, temporal_rank,
               temporal_score, temporal_proximity, boost_additive, o)
          JOIN hindsight.memory_units u ON u.bank_id = recall_finish.bank_id AND u.id = c.unit_id
          CROSS JOIN LATERAL (SELECT hindsight._recency(u.occurred_start, u.occurred_end, u.mentioned_at, now_ts,
                                  cfg->>'recency_function', (cfg->>'recency_horizon_days')::float8,
                                  (cfg->>'recency_half_life_days')::float8) AS recency) r
          CROSS JOIN LATERAL (SELECT hindsight._proof(u.proof_count) AS proof) p) s;

    -- With prefer_observations, a fact that an observation among the best recall_budget * 2 already
    -- cites (hindsight.observation_sources) gives way to it.
    IF prefer_observations THEN
        scored := ARRAY(
            SELECT ROW(s.unit_id, s.final_score, s.rerank_raw, s.rerank_score, s.recency, s.proof,
                       s.token_count)::hindsight._scored_candidate
            FROM unnest(scored) WITH ORDINALITY AS s(unit_id, final_score, rerank_raw, rerank_score, recency, proof,
                                                     token_count, o)
            WHERE NOT EXISTS (
                SELECT FROM hindsight.observation_sources os
                JOIN unnest(scored[1:recall_budget * 2]) AS b(unit_id, final_score, rerank_raw, rerank_score, recency,
                                                              proof, token_count)
                  ON b.unit_id = os.observation_id
                WHERE os.bank_id = recall_finish.bank_id AND os.unit_id = s.unit_id)
            ORDER BY s.o);
    END IF;

    -- Packing of the best recall_budget * 2 into max_tokens.
    kept := hindsight._pack_by_tokens(ARRAY(SELECT s.token_count FROM unnest(scored[1:recall_budget * 2])
                                            WITH ORDINALITY AS s(unit_id, final_score, rerank_raw, rerank_score,
                                                                 recency, proof, token_count, o) ORDER BY s.o),
                                      max_tokens);

    RETURN QUERY
    SELECT k.rank::int, u.id, u.text, u.fact_type, u.context, u.occurred_start, u.occurred_end, u.mentioned_at,
           u.document_id, u.chunk_id, u.tags, u.metadata, u.token_count,
           s.final_score, c.rrf_score, s.rerank_score, s.recency, c.temporal_proximity, s.proof,
           c.semantic_rank, c.semantic_score, c.bm25_rank, c.bm25_score,
           c.graph_rank, c.graph_score, c.temporal_rank, c.temporal_score
    FROM unnest(kept) WITH ORDINALITY AS k(pos, rank)
    JOIN unnest(scored) WITH ORDINALITY AS s(unit_id, final_score, rerank_raw, rerank_score, recency, proof,
                                              token_count, o) ON s.o = k.pos
    JOIN unnest(candidates) AS c ON c.unit_id = s.unit_id
    JOIN hindsight.memory_units u ON u.bank_id = recall_finish.bank_id AND u.id = s.unit_id
    ORDER BY k.rank;

    IF trace THEN
        earlier := coalesce(nullif(current_setting('hindsight.last_trace', true), ''), '{}')::jsonb;
        IF earlier->>'bank_id' IS DISTINCT FROM bank_id THEN
            earlier := jsonb_build_object('bank_id', bank_id);
        END IF;
        PERFORM set_config('hindsight.last_trace', (earlier || jsonb_build_object(
            'rerank', jsonb_build_object(
                'method', CASE WHEN rerank_scores IS NOT NULL THEN 'cross-encoder' ELSE 'passthrough:' || passthrough END,
                'candidates', coalesce(cardinality(candidates), 0)),
            'scoring', jsonb_build_object(
                'recency_function', cfg->'recency_function', 'query_timestamp', now_ts,
                'alphas', jsonb_build_object('recency', cfg->'recency_alpha', 'temporal', cfg->'temporal_alpha',
                                             'proof', cfg->'proof_alpha'),
                'results', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                        'id', s.unit_id, 'position', s.o, 'final', s.final_score,
                        'rerank_raw', s.rerank_raw, 'rerank', s.rerank_score, 'rrf', c.rrf_score,
                        'recency', s.recency, 'temporal', c.temporal_proximity, 'proof', s.proof,
                        'strategy_bonus', c.boost_additive) ORDER BY s.o), '[]')
                    FROM unnest(scored) WITH ORDINALITY AS s(unit_id, final_score, rerank_raw, rerank_score, recency,
                                                             proof, token_count, o)
                    JOIN unnest(candidates) c ON c.unit_id = s.unit_id)),
            'packing', jsonb_build_object(
                'candidates', least(coalesce(cardinality(scored), 0), recall_budget * 2),
                'kept', cardinality(kept),
                'tokens', (SELECT coalesce(sum(s.token_count), 0)
                           FROM unnest(scored) WITH ORDINALITY AS s(unit_id, final_score, rerank_raw, rerank_score,
                                                                    recency, proof, token_count, o)
                           WHERE s.o = ANY (kept)),
                'max_tokens', max_tokens),
            'phases_ms', coalesce(earlier->'phases_ms', '{}') || jsonb_build_object(
                'finish', extract(epoch FROM clock_timestamp() - started) * 1000),
            'total_ms', coalesce((earlier->'phases_ms'->>'candidates')::float8, 0)
                        + extract(epoch FROM clock_timestamp() - started) * 1000
        ))::text, false);
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight.recall_finish(text, hindsight.recall_candidate[], float8[], text, int, timestamptz, text, bool, bool) IS
$$Second half of hindsight.recall. rerank_scores: raw cross-encoder scores, one per candidate in order
(kept when all within [0, 1], else sigmoid; NaN -> 0); NULL uses the passthrough: normalized = fused score /
best fused score, or rank_linear = fused rank mapped onto [1.0, 0.1]. final = rerank * (1 + 0.2 (recency -
0.5)) * (1 + 0.2 (temporal proximity - 0.5)) * (1 + 0.1 (proof - 0.5)) + strategy bonus, with recency
(linear: clamp(1 - days/365, 0.1, 1) at query_timestamp, default now()), proximity to the query window (0.5
without one) and proof clamp(0.5 + ln(proof_count)/10, 0, 1) (0.5 when NULL). The best recall_budget * 2 by
final score are packed into max_tokens; with prefer_observations, a world or experience unit that an observation
among them cites (observation_sources) is dropped first. Returns the rows of hindsight.recall. Errors: HS404 unknown bank;
22023 bad budget, max_tokens, passthrough, or a rerank_scores length that differs from the candidates'.$$;

-- sql/functions/reflect.sql
-- Reflect inside the database: the agent loop of hindsight_pl.reflect, with tools that read the
-- bank through SPI (hindsight.recall, the sources of memories, mental models). The driver's
-- Client.reflect runs the same loop over psycopg. docs/reflect.md.

CREATE OR REPLACE FUNCTION hindsight._memory_source(bank_id text, memory_id text)
RETURNS TABLE (id uuid, source text)
LANGUAGE sql STABLE
SET search_path FROM CURRENT
AS $$
    SELECT u.id, coalesce(c.chunk_text, d.original_text, u.text)
    FROM hindsight.memory_units u
    LEFT JOIN hindsight.chunks c ON c.bank_id = u.bank_id AND c.chunk_id = u.chunk_id
    LEFT JOIN hindsight.documents d ON d.bank_id = u.bank_id AND d.document_id = u.document_id
    WHERE u.bank_id = _memory_source.bank_id
      AND u.id = CASE WHEN memory_id ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' THEN memory_id::uuid END
$$;
COMMENT ON FUNCTION hindsight._memory_source(text, text) IS
    'Reflect''s expand tool: the text a memory unit came from (its chunk, else its document, else its own '
    'text), as (id, source); no row for an id that is not one of the bank''s memory units (any text is accepted).';

CREATE OR REPLACE FUNCTION hindsight._nearest_mental_models(bank_id text, query_embedding vector, k int DEFAULT 5)
RETURNS TABLE (id uuid, name text, content text)
LANGUAGE sql STABLE
SET search_path FROM CURRENT
AS $$
    SELECT m.id, m.name, m.content
    FROM hindsight.mental_models m
    WHERE m.bank_id = _nearest_mental_models.bank_id AND m.embedding IS NOT NULL
    ORDER BY m.embedding <=> query_embedding, m.name
    LIMIT k
$$;
COMMENT ON FUNCTION hindsight._nearest_mental_models(text, vector, int) IS
    'Reflect''s search_mental_models tool: the bank''s k refreshed mental models nearest query_embedding '
    '(vector(384)) by cosine distance, ties by name.';

CREATE OR REPLACE FUNCTION hindsight._check_llm_endpoint(base_url text)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
BEGIN
    IF hindsight._is_superuser(hindsight._invoker()) OR EXISTS (
        SELECT FROM jsonb_array_elements_text(hindsight._setting('llm_endpoints')->'base_urls') allowed
        WHERE rtrim(allowed, '/') = rtrim(base_url, '/')) THEN
        RETURN;
    END IF;
    RAISE EXCEPTION 'the database may not call the language model at %', base_url
        USING ERRCODE = '42501',
              HINT = 'In-database language model calls run as the server''s operating-system user: a superuser '
                     'allows the endpoint with SELECT hindsight.set_setting(''llm_endpoints'', '
                     '''{"base_urls": ["' || base_url || '"]}'') (docs/reflect.md). Or call the model from the '
                     'driver (client.reflect, client.consolidate), or consolidate offline with use_llm => false.';
END
$$;
COMMENT ON FUNCTION hindsight._check_llm_endpoint(text) IS
    'Raises 42501 unless the database may call the language model at base_url: a superuser may call any; other '
    'roles only the base URLs of the setting llm_endpoints (compared without a trailing slash). Every in-database '
    'model call runs it before its first request (hindsight_pl.llm.in_database).';

CREATE OR REPLACE FUNCTION hindsight._reflect(
    bank_id text,
    query text,
    budget text DEFAULT 'low',
    max_tokens int DEFAULT 4096,
    tags text[] DEFAULT NULL,
    tags_match text DEFAULT 'any',
    response_schema jsonb DEFAULT NULL,
    query_timestamp timestamptz DEFAULT NULL
)
RETURNS TABLE (answer text, structured_answer jsonb, based_on jsonb, usage jsonb, trace jsonb)
LANGUAGE plpython3u
AS $$
import json
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl import reflect
from hindsight_pl.llm import LLMError, in_database

config = json.loads(plpy.execute(plpy.prepare("SELECT hindsight.bank_config($1) AS c", ["text"]), [bank_id])[0]["c"])
llm = in_database(plpy, config)
if llm is None:
    plpy.error(f"bank {bank_id!r} has no language model to reflect with", sqlstate="22023", hint=reflect.NO_LLM_HINT)
plans = GD.setdefault("hindsight_reflect_plans", {})
if not plans:
    plans["search"] = plpy.prepare(
        "SELECT r.id, r.text, r.fact_type, to_json(coalesce(r.occurred_start, r.mentioned_at)) #>> '{}' AS date"
        " FROM hindsight.recall($1, $2, budget => $3, max_tokens => $4, types => $5, tags => $6, tags_match => $7,"
        " query_timestamp => $8, prefer_observations => true) r ORDER BY r.rank",
        ["text", "text", "text", "int", "text[]", "text[]", "text", "timestamptz"])
    plans["source"] = plpy.prepare("SELECT id, source FROM hindsight._memory_source($1, $2)", ["text", "text"])
    plans["models"] = plpy.prepare(
        "SELECT id, name, content FROM hindsight._nearest_mental_models($1, (hindsight.embed($1, ARRAY[$2], 'query'))[1])",
        ["text", "text"])

class Memory:
    def search(self, cue, types):
        rows = plpy.execute(plans["search"], [bank_id, cue, budget, max_tokens, types, tags, tags_match, query_timestamp])
        return [(r["id"], r["text"], r["fact_type"], r["date"]) for r in rows]

    def source(self, memory_id):
        rows = plpy.execute(plans["source"], [bank_id, memory_id])
        return (rows[0]["id"], rows[0]["source"]) if rows else None

    def mental_models(self, cue):
        return [(r["id"], r["name"], r["content"]) for r in plpy.execute(plans["models"], [bank_id, cue])]

try:
    result = reflect.reflect_loop(llm, config, query or "", budget=budget, memory=Memory(),
                                  response_schema=json.loads(response_schema) if response_schema else None)
except LLMError as exc:
    plpy.error(str(exc), sqlstate="HS503", hint=exc.hint)
except ValueError as exc:
    plpy.error(str(exc), sqlstate="22023")
# errors of the SQL the tools run (HS502 from hindsight.embed, ...) pass through with their SQLSTATE
structured = None if response_schema is None else json.dumps(result.answer)
answer = result.answer if response_schema is None else structured
return [(answer, structured, json.dumps(result.based_on), json.dumps(result.usage), json.dumps(result.trace))]
$$;
COMMENT ON FUNCTION hindsight._reflect(text, text, text, int, text[], text, jsonb, timestamptz) IS
    'The PL/Python body of hindsight.reflect (which see); hindsight.reflect raises its errors without PL/Python''s '
    'exception class and traceback.';

CREATE OR REPLACE FUNCTION hindsight.reflect(
    bank_id text,
    query text,
    budget text DEFAULT 'low',
    max_tokens int DEFAULT 4096,
    tags text[] DEFAULT NULL,
    tags_match text DEFAULT 'any',
    response_schema jsonb DEFAULT NULL,
    query_timestamp timestamptz DEFAULT NULL
)
RETURNS TABLE (answer text, structured_answer jsonb, based_on jsonb, usage jsonb, trace jsonb)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank, before any Python runs
    RETURN QUERY SELECT * FROM hindsight._reflect(bank_id, query, budget, max_tokens, tags, tags_match,
                                                  response_schema, query_timestamp);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.reflect(text, text, text, int, text[], text, jsonb, timestamptz) IS
$$Answers query from the bank's memory with its language model (config llm_base_url, llm_model; the API key from
the server's environment variable llm_api_key_env names), in the bank's disposition and directives: the agent
loop of hindsight_pl.reflect (the driver's Client.reflect runs the same one) over the tools recall (hindsight.recall
with budget, max_tokens, tags, tags_match, query_timestamp, prefer_observations; embeddings by the bank's provider), search_observations,
search_mental_models, expand and done; 5 / 10 / 20 model calls for budget low / mid / high, the last forcing an
answer. One row: answer (Markdown; with response_schema, the JSON text of the answer), structured_answer (the
answer validated against response_schema, a JSON schema; NULL without one), based_on (jsonb array of the cited
memories a tool returned: id, text, fact_type, date), usage (one {purpose, model, prompt_tokens,
completion_tokens} per model call) and trace (the tool calls: tool, arguments, results). Roles other than
superusers may only call base URLs of the setting llm_endpoints (42501). Errors: HS404 unknown bank, 22023 no
language model (the hint says how to configure one), bad budget, blank query or bad response_schema, 42501 an
endpoint not allowed, HS503 the model failed or broke the schema, HS502 the embedding provider failed.
docs/reflect.md.$$;

CREATE OR REPLACE FUNCTION hindsight._store_mental_model(
    bank_id text,
    name text,
    content text,
    embedding vector,
    based_on uuid[]
)
RETURNS hindsight.mental_models
LANGUAGE sql
SET search_path FROM CURRENT
AS $$
    UPDATE hindsight.mental_models m
    SET content = _store_mental_model.content,
        embedding = _store_mental_model.embedding,
        based_on = coalesce(_store_mental_model.based_on, '{}'),
        last_refreshed_at = now(),
        history = m.history || CASE WHEN m.content IS NULL OR m.last_refreshed_at IS NULL THEN '[]'::jsonb
                                    ELSE jsonb_build_array(jsonb_build_object(
                                        'content', m.content, 'refreshed_at', m.last_refreshed_at)) END
    WHERE m.bank_id = _store_mental_model.bank_id AND m.name = _store_mental_model.name
    RETURNING m.*
$$;
COMMENT ON FUNCTION hindsight._store_mental_model(text, text, text, vector, uuid[]) IS
    'A mental model''s refresh: stores content, its embedding (vector(384)) and the memory ids it rests on, '
    'stamps last_refreshed_at and appends the previous content ({content, refreshed_at}) to history. Returns the '
    'row, none for an unknown name. Used by hindsight.refresh_mental_model and the driver''s refresh_mental_model.';

CREATE OR REPLACE FUNCTION hindsight.refresh_mental_model(bank_id text, name text)
RETURNS hindsight.mental_models
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    model hindsight.mental_models;
    answer record;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    SELECT m.* INTO model FROM hindsight.mental_models m
    WHERE m.bank_id = refresh_mental_model.bank_id AND m.name = refresh_mental_model.name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'bank "%" has no mental model named "%"', bank_id, name
            USING ERRCODE = '22023',
                  HINT = 'Create it with INSERT INTO hindsight.mental_models (bank_id, name, source_query) VALUES (...).';
    END IF;
    SELECT r.* INTO answer
    FROM hindsight.reflect(bank_id, model.source_query, max_tokens => model.max_tokens,
                           tags => nullif(model.tags, '{}')) r;
    RETURN hindsight._store_mental_model(
        bank_id, name, answer.answer, (hindsight.embed(bank_id, ARRAY[answer.answer], 'passage'))[1],
        ARRAY(SELECT (m->>'id')::uuid FROM jsonb_array_elements(answer.based_on) m));
END
$$;
COMMENT ON FUNCTION hindsight.refresh_mental_model(text, text) IS
$$Refreshes a mental model (a row of hindsight.mental_models, created with INSERT): answers its source_query with
hindsight.reflect (its tags and max_tokens, budget low), stores the answer as content with its embedding (the
bank's embedding provider) and the ids of the memories it rests on, and keeps the previous content in history.
Returns the updated row. Errors: HS404 unknown bank, 22023 no mental model of that name, and those of
hindsight.reflect (22023 no language model, 42501 an endpoint not allowed, HS503 the model failed). docs/reflect.md.$$;

-- sql/functions/retain.sql
-- Retain: store extracted facts (memory units) with their documents and chunks,
-- resolve their entities against the bank, and link them (temporal, semantic,
-- causal), all in the caller's transaction. docs/retain.md describes the pipeline.

CREATE OR REPLACE FUNCTION hindsight._entity_names_compatible(a text, b text)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Guards of entity resolution, before any score:
    -- 1. names whose tokens with digits differ name different things ("Room 101" /
    --    "Room 102", "UA123" / "UA124", "2023 Tax Return" / "2024 Tax Return");
    -- 2. a name found inside the other but not as whole words ("Uno" in "Bruno")
    --    shares letters, not identity.
    WITH n AS (
        SELECT ' ' || btrim(regexp_replace(lower(a), '[^[:alnum:]]+', ' ', 'g')) || ' ' AS a,
               ' ' || btrim(regexp_replace(lower(b), '[^[:alnum:]]+', ' ', 'g')) || ' ' AS b
    )
    SELECT ARRAY(SELECT m[1] FROM regexp_matches(n.a, '[[:alnum:]]*[0-9][[:alnum:]]*', 'g') m ORDER BY 1)
           = ARRAY(SELECT m[1] FROM regexp_matches(n.b, '[[:alnum:]]*[0-9][[:alnum:]]*', 'g') m ORDER BY 1)
       AND NOT (strpos(btrim(n.a), btrim(n.b)) > 0 AND strpos(n.a, n.b) = 0)
       AND NOT (strpos(btrim(n.b), btrim(n.a)) > 0 AND strpos(n.b, n.a) = 0)
    FROM n
$$;
COMMENT ON FUNCTION hindsight._entity_names_compatible(text, text) IS
    'Whether two entity names may be merged at all: their digit-bearing tokens are equal, and neither is found '
    'inside the other except as whole words. Case and punctuation are ignored.';

CREATE OR REPLACE FUNCTION hindsight._resolve_entities(
    bank_id text,
    unit_ids uuid[],
    names text[],
    seen_at timestamptz[]
)
RETURNS TABLE (unit_id uuid, entity_id uuid)
LANGUAGE plpgsql
SET search_path FROM CURRENT
SET pg_trgm.similarity_threshold = 0.3
AS $$
#variable_conflict use_column
DECLARE
    threshold float8 := (hindsight.bank_config(bank_id)->>'entity_merge_threshold')::float8;
    bank_units bigint := coalesce((SELECT c.unit_count FROM hindsight._bank_counts c
                                   WHERE c.bank_id = _resolve_entities.bank_id), 0);
BEGIN
    -- Mentions (unit, name, time) -> entities. Per distinct name (case-insensitive):
    -- an entity of that exact name is reused; otherwise the best of the 200 most
    -- trigram-similar entities is merged into when
    --   score = 0.5 * name similarity
    --         + 0.3 * share of the name's co-mentioned (known, non-hub) entities that
    --                 co-occur with the candidate
    --         + 0.2 * max(0, 1 - |days from the latest mention to candidate.last_seen| / 7)
    -- exceeds entity_merge_threshold (0.6), the candidate passes
    -- _entity_names_compatible and is not itself co-mentioned with the name; else
    -- a new entity. A hub (linked to more than half of the bank's units) earns no
    -- co-occurrence credit. INSERT ... ON CONFLICT makes two retains that bring the
    -- same new name at once end with one entity.
    RETURN QUERY
    WITH m AS (
        SELECT DISTINCT ON (x.u, lower(btrim(x.nm))) x.u AS unit_id, btrim(x.nm) AS name,
               lower(btrim(x.nm)) AS lname, x.at, x.ord
        FROM unnest(unit_ids, names, seen_at) WITH ORDINALITY AS x(u, nm, at, ord)
        WHERE btrim(x.nm) <> ''
        ORDER BY x.u, lower(btrim(x.nm)), x.ord
    ),
    n AS (
        SELECT m.lname, (array_agg(m.name ORDER BY m.ord))[1] AS name, min(m.at) AS first_at, max(m.at) AS last_at
        FROM m GROUP BY m.lname
    ),
    exact AS (
        SELECT n.lname, e.id
        FROM n JOIN hindsight.entities e
          ON e.bank_id = _resolve_entities.bank_id AND lower(e.canonical_name) = n.lname
    ),
    co_mentioned AS (  -- for each name without an exact match: the known entities beside it
        SELECT DISTINCT m1.lname, x.id AS other_id, e.mention_count > bank_units / 2.0 AS hub
        FROM m m1
        JOIN m m2 ON m2.unit_id = m1.unit_id AND m2.lname <> m1.lname
        JOIN exact x ON x.lname = m2.lname
        JOIN hindsight.entities e ON e.bank_id = _resolve_entities.bank_id AND e.id = x.id
        WHERE m1.lname NOT IN (SELECT lname FROM exact)
    ),
    scored AS (
        SELECT n.lname, c.id,
               0.5 * c.sim
             + 0.3 * coalesce((SELECT count(*) FILTER (WHERE EXISTS (
                                          SELECT FROM hindsight._entity_cooccurrences co
                                          WHERE co.bank_id = _resolve_entities.bank_id AND co.entity_id = c.id
                                            AND co.other_entity_id = o.other_id))::float8 / nullif(count(*), 0)
                               FROM co_mentioned o WHERE o.lname = n.lname AND NOT o.hub), 0)
             + 0.2 * greatest(0, 1 - abs(extract(epoch FROM n.last_at - c.last_seen)) / 86400 / 7) AS score
        FROM n
        CROSS JOIN LATERAL (
            SELECT e.id, e.canonical_name, e.last_seen, similarity(e.canonical_name, n.name) AS sim
            FROM hindsight.entities e
            WHERE e.bank_id = _resolve_entities.bank_id AND e.canonical_name % n.name
            ORDER BY similarity(e.canonical_name, n.name) DESC, e.id
            LIMIT 200
        ) c
        WHERE n.lname NOT IN (SELECT lname FROM exact)
          AND hindsight._entity_names_compatible(c.canonical_name, n.name)
          AND NOT EXISTS (SELECT FROM co_mentioned o WHERE o.lname = n.lname AND o.other_id = c.id)
    ),
    resolved AS (
        SELECT lname, id FROM exact
        UNION ALL
        (SELECT DISTINCT ON (s.lname) s.lname, s.id FROM scored s WHERE s.score > threshold
         ORDER BY s.lname, s.score DESC, s.id)
    ),
    seen AS (
        UPDATE hindsight.entities e
        SET first_seen = least(e.first_seen, t.first_at), last_seen = greatest(e.last_seen, t.last_at)
        FROM (SELECT r.id, min(n.first_at) AS first_at, max(n.last_at) AS last_at
              FROM resolved r JOIN n USING (lname) GROUP BY r.id) t
        WHERE e.bank_id = _resolve_entities.bank_id AND e.id = t.id
    ),
    created AS (
        INSERT INTO hindsight.entities AS e (bank_id, canonical_name, first_seen, last_seen)
        SELECT _resolve_entities.bank_id, n.name, n.first_at, n.last_at
        FROM n WHERE n.lname NOT IN (SELECT lname FROM resolved)
        ON CONFLICT (bank_id, lower(canonical_name)) DO UPDATE
        SET first_seen = least(e.first_seen, excluded.first_seen), last_seen = greatest(e.last_seen, excluded.last_seen)
        RETURNING e.id, lower(e.canonical_name) AS lname
    )
    SELECT DISTINCT m.unit_id, coalesce(r.id, c.id)
    FROM m
    LEFT JOIN resolved r ON r.lname = m.lname
    LEFT JOIN created c ON c.lname = m.lname;
END
$$;
COMMENT ON FUNCTION hindsight._resolve_entities(text, uuid[], text[], timestamptz[]) IS
    'Entity resolution of retain: maps mentions (unit_ids[i] names names[i] at seen_at[i]) to entities of the '
    'bank, reusing exact names, merging into a similar entity when 0.5 name similarity + 0.3 co-occurrence share '
    '+ 0.2 recency (7 days) > entity_merge_threshold, else creating one; updates first_seen/last_seen. '
    'Returns one row per (unit, entity). See docs/retain.md.';

CREATE OR REPLACE FUNCTION hindsight._semantic_links_hnsw(
    bank_id text,
    unit_ids uuid[],
    top_k int,
    min_similarity float8
)
RETURNS void
LANGUAGE plpgsql
SET search_path FROM CURRENT
SET hnsw.ef_search = 40
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_sort = off
AS $$
BEGIN
    -- Semantic links of a bank with its partial HNSW index: one index search per
    -- new unit. The bank id is a constant of the plan (EXECUTE ... USING), so the
    -- index applies; scans and sorts are off because below a few thousand units
    -- the planner would rather scan the bank and sort it once per new unit. These
    -- settings, and ef_search (top_k + 10: the unit itself, ties), last for this
    -- call only.
    PERFORM set_config('hnsw.ef_search', greatest(top_k + 10, 40)::text, true);
    EXECUTE $sql$
        INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
        SELECT $1, n.id, nb.id, 'semantic', least(1.0, nb.sim)
        FROM hindsight.memory_units n
        CROSS JOIN LATERAL (
            SELECT m.id, 1 - (m.embedding <=> n.embedding) AS sim
            FROM hindsight.memory_units m
            WHERE m.bank_id = $1 AND m.id <> n.id
            ORDER BY m.embedding <=> n.embedding
            LIMIT $3
        ) nb
        WHERE n.bank_id = $1 AND n.id = ANY ($2) AND nb.sim >= $4
        ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO NOTHING
    $sql$
    USING bank_id, unit_ids, top_k, min_similarity;
END
$$;
COMMENT ON FUNCTION hindsight._semantic_links_hnsw(text, uuid[], int, float8) IS
    'Semantic links of new units (unit_ids) of a bank that has its partial HNSW index: per unit its top_k nearest '
    'units by cosine through the index, kept at similarity >= min_similarity, weight = the similarity.';

CREATE OR REPLACE FUNCTION hindsight._link_units(
    bank_id text,
    unit_ids uuid[]
)
RETURNS void
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(bank_id);
    neighbours int := (cfg->>'temporal_link_neighbours')::int;
    top_k int := (cfg->>'semantic_link_top_k')::int;
BEGIN
    IF neighbours = 0 AND top_k = 0 THEN
        RETURN;
    END IF;
    -- temporal: each new unit to its nearest units in time (effective date =
    -- occurred_start, else mentioned_at) of its bank and fact type, `neighbours`
    -- before and after, weight max(0.3, 1 - hours apart / 24), in both directions
    -- (the temporal arm walks outgoing links).
    INSERT INTO hindsight.memory_links AS l (bank_id, from_unit_id, to_unit_id, link_type, weight)
    SELECT _link_units.bank_id, d.a, d.b, 'temporal', max(p.w)
    FROM (
        SELECT n.id AS a, nb.id AS b,
               greatest(0.3, 1 - abs(extract(epoch FROM nb.t - coalesce(n.occurred_start, n.mentioned_at))) / 3600 / 24)
                   AS w
        FROM hindsight.memory_units n
        CROSS JOIN LATERAL (
            (SELECT m.id, coalesce(m.occurred_start, m.mentioned_at) AS t FROM hindsight.memory_units m
             WHERE m.bank_id = n.bank_id AND m.fact_type = n.fact_type AND m.id <> n.id
               AND coalesce(m.occurred_start, m.mentioned_at) <= coalesce(n.occurred_start, n.mentioned_at)
             ORDER BY coalesce(m.occurred_start, m.mentioned_at) DESC
             LIMIT neighbours)
            UNION ALL
            (SELECT m.id, coalesce(m.occurred_start, m.mentioned_at) FROM hindsight.memory_units m
             WHERE m.bank_id = n.bank_id AND m.fact_type = n.fact_type
               AND coalesce(m.occurred_start, m.mentioned_at) > coalesce(n.occurred_start, n.mentioned_at)
             ORDER BY coalesce(m.occurred_start, m.mentioned_at)
             LIMIT neighbours)
        ) nb
        WHERE n.bank_id = _link_units.bank_id AND n.id = ANY (unit_ids)
          AND coalesce(n.occurred_start, n.mentioned_at) IS NOT NULL
    ) p
    CROSS JOIN LATERAL (VALUES (p.a, p.b), (p.b, p.a)) AS d(a, b)
    GROUP BY d.a, d.b
    ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO UPDATE SET weight = greatest(l.weight, excluded.weight);

    -- semantic: each new unit to its top_k nearest units by cosine, kept at
    -- similarity >= semantic_link_min_similarity, weight = the similarity.
    IF top_k = 0 THEN
        RETURN;
    END IF;
    IF to_regclass(format('hindsight.%I', hindsight._bank_index_name(bank_id))) IS NOT NULL THEN
        PERFORM hindsight._semantic_links_hnsw(bank_id, unit_ids, top_k,
                                               (cfg->>'semantic_link_min_similarity')::float8);
    ELSE
        -- A small bank is scanned exactly, once for all new units (not once per unit).
        INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
        SELECT _link_units.bank_id, r.a, r.b, 'semantic', least(1.0, r.sim)
        FROM (SELECT p.a, p.b, p.sim, row_number() OVER (PARTITION BY p.a ORDER BY p.sim DESC, p.b) AS rn
              FROM (SELECT n.id AS a, m.id AS b, 1 - (m.embedding <=> n.embedding) AS sim
                    FROM (SELECT u.id, u.embedding FROM hindsight.memory_units u
                          WHERE u.bank_id = _link_units.bank_id AND u.id = ANY (unit_ids)) n
                    CROSS JOIN hindsight.memory_units m
                    WHERE m.bank_id = _link_units.bank_id AND m.id <> n.id) p
              WHERE p.sim >= (cfg->>'semantic_link_min_similarity')::float8) r
        WHERE r.rn <= top_k
        ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO NOTHING;
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._link_units(text, uuid[]) IS
    'Links new units of a bank: temporal (temporal_link_neighbours nearest before and after in time, same fact '
    'type, weight max(0.3, 1 - hours/24), both directions) and semantic (semantic_link_top_k nearest by cosine '
    'with similarity >= semantic_link_min_similarity, weight = similarity).';

CREATE OR REPLACE FUNCTION hindsight._update_document(
    bank_id text,
    document_id text,
    item jsonb
)
RETURNS text[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    kept_old text[];
    kept_new int[];
    chunk_offset int;
    result text[];
BEGIN
    -- An existing document retained again. A chunk the item gives without units
    -- whose SHA-256 equals a chunk the document has keeps that chunk's memories
    -- (matched in order among equal hashes); replace drops every other memory and
    -- chunk of the document, append adds after the last chunk and leaves the
    -- rest. Returns the chunk id of each of the item's chunks.
    CREATE TEMP TABLE IF NOT EXISTS pg_temp._hindsight_new_chunks (
        ci int, chunk_text text, hash text, occurrence int, has_units bool) ON COMMIT DROP;
    TRUNCATE pg_temp._hindsight_new_chunks;
    INSERT INTO pg_temp._hindsight_new_chunks
    SELECT c.ci, c.chunk_text, c.hash, row_number() OVER (PARTITION BY c.hash ORDER BY c.ci)::int,
           EXISTS (SELECT FROM jsonb_array_elements(item->'units') v WHERE (v->>'chunk_index')::int = c.ci)
    FROM (SELECT (co - 1)::int AS ci, t AS chunk_text, encode(sha256(convert_to(t, 'UTF8')), 'hex') AS hash
          FROM jsonb_array_elements_text(coalesce(item->'chunks', '[]')) WITH ORDINALITY AS ch(t, co)) c;

    IF coalesce(item->>'update_mode', 'replace') = 'replace' THEN
        SELECT array_agg(o.chunk_id), array_agg(nc.ci) INTO kept_old, kept_new
        FROM (SELECT c.chunk_id, c.content_hash,
                     row_number() OVER (PARTITION BY c.content_hash ORDER BY c.chunk_index)::int AS occurrence
              FROM hindsight.chunks c
              WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id) o
        JOIN pg_temp._hindsight_new_chunks nc
          ON nc.hash = o.content_hash AND nc.occurrence = o.occurrence AND NOT nc.has_units;

        DELETE FROM hindsight.memory_units u
        WHERE u.bank_id = _update_document.bank_id AND u.document_id = _update_document.document_id
          AND (u.chunk_id IS NULL OR NOT u.chunk_id = ANY (coalesce(kept_old, '{}')));
        -- kept chunks move to their new positions in two steps (positions are unique);
        -- their memories follow through ON UPDATE CASCADE
        UPDATE hindsight.chunks c SET chunk_id = c.document_id || '#~' || k.ci, chunk_index = 1000000 + k.ci
        FROM unnest(kept_old, kept_new) AS k(old_id, ci)
        WHERE c.bank_id = _update_document.bank_id AND c.chunk_id = k.old_id;
        DELETE FROM hindsight.chunks c
        WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id
          AND c.chunk_index < 1000000;
        UPDATE hindsight.chunks c SET chunk_id = c.document_id || '#' || (c.chunk_index - 1000000),
                                      chunk_index = c.chunk_index - 1000000
        WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id;
        INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
        SELECT _update_document.bank_id, _update_document.document_id || '#' || nc.ci, _update_document.document_id,
               nc.ci, nc.chunk_text, nc.hash
        FROM pg_temp._hindsight_new_chunks nc WHERE NOT nc.ci = ANY (coalesce(kept_new, '{}'));
        UPDATE hindsight.documents d
        SET original_text = item->>'content',
            content_hash = encode(sha256(convert_to(coalesce(item->>'content', ''), 'UTF8')), 'hex'),
            tags = ARRAY(SELECT jsonb_array_elements_text(coalesce(item->'tags', '[]'))),
            metadata = coalesce(item->'metadata', '{}'), updated_at = now()
        WHERE d.bank_id = _update_document.bank_id AND d.document_id = _update_document.document_id;
        -- kept memories take the document's new tags and context
        UPDATE hindsight.memory_units u
        SET tags = ARRAY(SELECT jsonb_array_elements_text(coalesce(item->'tags', '[]'))), context = item->>'context'
        WHERE u.bank_id = _update_document.bank_id AND u.document_id = _update_document.document_id
          AND (u.tags <> ARRAY(SELECT jsonb_array_elements_text(coalesce(item->'tags', '[]')))
               OR u.context IS DISTINCT FROM item->>'context');
        SELECT array_agg(_update_document.document_id || '#' || nc.ci ORDER BY nc.ci) INTO result
        FROM pg_temp._hindsight_new_chunks nc;
    ELSE
        SELECT coalesce(max(c.chunk_index) + 1, 0) INTO chunk_offset
        FROM hindsight.chunks c
        WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id;
        WITH planned AS (
            SELECT nc.ci, nc.chunk_text, nc.hash,
                   CASE WHEN NOT nc.has_units THEN
                       (SELECT c.chunk_id FROM hindsight.chunks c
                        WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id
                          AND c.content_hash = nc.hash ORDER BY c.chunk_index LIMIT 1) END AS existing_id
            FROM pg_temp._hindsight_new_chunks nc
        ), numbered AS (
            SELECT p.*, chunk_offset - 1 + row_number() OVER (PARTITION BY p.existing_id IS NULL ORDER BY p.ci) AS idx
            FROM planned p
        ), added AS (
            INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
            SELECT _update_document.bank_id, _update_document.document_id || '#' || n.idx,
                   _update_document.document_id, n.idx, n.chunk_text, n.hash
            FROM numbered n WHERE n.existing_id IS NULL
        )
        SELECT array_agg(coalesce(n.existing_id, _update_document.document_id || '#' || n.idx) ORDER BY n.ci)
        INTO result FROM numbered n;
        UPDATE hindsight.documents d
        SET original_text = concat_ws(E'\n\n', d.original_text, item->>'content'),
            content_hash = encode(sha256(convert_to(concat_ws(E'\n\n', d.original_text, item->>'content'), 'UTF8')),
                                  'hex'),
            tags = ARRAY(SELECT DISTINCT t FROM unnest(d.tags || ARRAY(
                             SELECT jsonb_array_elements_text(coalesce(item->'tags', '[]')))) t ORDER BY t),
            metadata = d.metadata || coalesce(item->'metadata', '{}'), updated_at = now()
        WHERE d.bank_id = _update_document.bank_id AND d.document_id = _update_document.document_id;
    END IF;
    RETURN coalesce(result, '{}');
END
$$;
COMMENT ON FUNCTION hindsight._update_document(text, text, jsonb) IS
    'Retain of an existing document (update_mode replace or append): keeps the memories of unchanged chunks '
    '(same SHA-256, no new units given), replaces or appends the rest, updates the document row. Returns the '
    'chunk id of each of the item''s chunks.';

CREATE OR REPLACE FUNCTION hindsight._delete_orphan_entities(bank_id text)
RETURNS int
LANGUAGE sql
AS $$
    WITH gone AS (
        DELETE FROM hindsight.entities e
        WHERE e.bank_id = _delete_orphan_entities.bank_id AND e.mention_count = 0
        RETURNING 1
    )
    SELECT count(*)::int FROM gone
$$;
COMMENT ON FUNCTION hindsight._delete_orphan_entities(text) IS
    'Deletes the entities of a bank that no memory unit mentions any more; returns how many.';

CREATE OR REPLACE FUNCTION hindsight.retain(
    bank_id text,
    items jsonb
)
RETURNS TABLE (item_index int, document_id text, unit_id uuid)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(retain.bank_id);
    ts_config regconfig := (cfg->>'text_search_config')::regconfig;
    doc_ids text[];
    existing text[];
    chunk_ids jsonb := '{}';
    labels text[];
    unit_texts text[];
    token_counts int[];
    new_ids uuid[];
    problem text;
    bad_hint text;
    item_no int;
BEGIN
    PERFORM hindsight._require_python();
    IF items IS NULL OR jsonb_typeof(items) <> 'array' THEN
        RAISE EXCEPTION 'items must be a JSON array of objects, got %', coalesce(jsonb_typeof(items), 'NULL')
            USING ERRCODE = '22023', HINT = 'See COMMENT ON FUNCTION hindsight.retain for the item shape.';
    END IF;

    -- Shape of each item, checked before anything is written.
    SELECT format('item %s: %s', t.o - 1, t.p)
    INTO problem
    FROM (
        SELECT o, CASE
                   WHEN jsonb_typeof(x) <> 'object' THEN 'must be a JSON object'
                   WHEN x ? 'units' AND jsonb_typeof(x->'units') <> 'array' THEN '"units" must be an array'
                   WHEN jsonb_array_length(coalesce(x->'units', '[]')) = 0
                        AND jsonb_array_length(CASE WHEN jsonb_typeof(x->'chunks') = 'array'
                                                    THEN x->'chunks' ELSE '[]' END) = 0
                       THEN 'needs a non-empty "units" array (or "chunks" whose memories the document has)'
                   WHEN x ? 'chunks' AND jsonb_typeof(x->'chunks') <> 'array' THEN '"chunks" must be an array of strings'
                   WHEN x ? 'chunks' AND EXISTS (SELECT FROM jsonb_array_elements(x->'chunks') c
                                                 WHERE jsonb_typeof(c) <> 'string')
                       THEN '"chunks" must be an array of strings'
                   WHEN x ? 'tags' AND (jsonb_typeof(x->'tags') <> 'array' OR EXISTS (
                            SELECT FROM jsonb_array_elements(x->'tags') t WHERE jsonb_typeof(t) <> 'string'))
                       THEN '"tags" must be an array of strings'
                   WHEN x ? 'metadata' AND jsonb_typeof(x->'metadata') <> 'object' THEN '"metadata" must be an object'
                   WHEN x ? 'document_id' AND jsonb_typeof(x->'document_id') NOT IN ('string', 'null')
                       THEN '"document_id" must be a string'
                   WHEN coalesce(x->>'update_mode', 'replace') NOT IN ('replace', 'append')
                       THEN format('update_mode "%s" is not one of replace, append', x->>'update_mode')
               END AS p
        FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    ) t
    WHERE t.p IS NOT NULL
    ORDER BY t.o LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = '22023';
    END IF;

    -- Shape of each unit.
    SELECT format('item %s, unit %s: %s', o - 1, uo - 1, p)
    INTO problem
    FROM (
        SELECT o, uo, CASE
                   WHEN jsonb_typeof(v) <> 'object' THEN 'must be a JSON object'
                   WHEN jsonb_typeof(v->'text') IS DISTINCT FROM 'string' THEN 'needs a "text" string'
                   WHEN jsonb_typeof(v->'embedding') IS DISTINCT FROM 'array'
                       THEN 'needs an "embedding" array of 384 numbers'
                   WHEN jsonb_array_length(v->'embedding') <> 384
                       THEN format('embedding has %s dimensions, expected 384', jsonb_array_length(v->'embedding'))
                   WHEN coalesce(v->>'fact_type', 'world') NOT IN ('world', 'experience', 'observation')
                       THEN format('fact_type "%s" is not one of world, experience, observation', v->>'fact_type')
                   WHEN v ? 'chunk_index' AND (jsonb_typeof(v->'chunk_index') <> 'number'
                        OR (v->>'chunk_index')::numeric NOT IN (
                            SELECT n - 1 FROM generate_series(1, jsonb_array_length(coalesce(x->'chunks', '[]'))) n))
                       THEN format('chunk_index %s does not name one of the item''s %s chunks',
                                   v->'chunk_index', jsonb_array_length(coalesce(x->'chunks', '[]')))
                   WHEN v ? 'entities' AND (jsonb_typeof(v->'entities') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(v->'entities') e WHERE jsonb_typeof(e) <> 'string'))
                       THEN '"entities" must be an array of strings'
                   WHEN v ? 'caused_by' AND (jsonb_typeof(v->'caused_by') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(v->'caused_by') c
                        WHERE jsonb_typeof(c) <> 'number'
                           OR (c #>> '{}')::numeric NOT IN (
                               SELECT n - 1 FROM generate_series(1, jsonb_array_length(x->'units')) n WHERE n <> uo)))
                       THEN format('caused_by %s must list indexes of the item''s other units (0 to %s)',
                                   v->'caused_by', jsonb_array_length(x->'units') - 1)
                   WHEN vector_norm((v->>'embedding')::vector) = 0
                       THEN 'embedding is all zeros; cosine similarity is undefined for it'
               END AS p
        FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
             jsonb_array_elements(coalesce(x->'units', '[]')) WITH ORDINALITY AS w(v, uo)
    ) checked
    WHERE p IS NOT NULL
    ORDER BY o, uo LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = '22023';
    END IF;

    SELECT array_agg(coalesce(nullif(x->>'document_id', ''), gen_random_uuid()::text) ORDER BY o)
    INTO doc_ids
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o);
    SELECT d INTO problem FROM unnest(doc_ids) AS d GROUP BY d HAVING count(*) > 1 LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION 'document_id "%" appears more than once in one retain call', problem
            USING ERRCODE = '22023', HINT = 'Merge the items, or retain them in separate calls.';
    END IF;

    -- Texts: validated and token-counted in one PL/Python call.
    SELECT array_agg(v->>'text' ORDER BY o, uo), array_agg(format('item %s, unit %s', o - 1, uo - 1) ORDER BY o, uo)
    INTO unit_texts, labels
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
         jsonb_array_elements(coalesce(x->'units', '[]')) WITH ORDINALITY AS w(v, uo);
    IF unit_texts IS NOT NULL THEN
        SELECT c.token_counts, c.problem, c.hint INTO token_counts, problem, bad_hint
        FROM hindsight._unit_token_counts(unit_texts, labels) AS c;
        IF problem IS NOT NULL THEN
            RAISE EXCEPTION '%', problem USING ERRCODE = '22023', HINT = bad_hint;
        END IF;
    END IF;

    -- Documents: new ones are inserted with their chunks; an existing one is
    -- updated (locked first, so two retains of one document take turns).
    SELECT array_agg(d.document_id) INTO existing
    FROM (SELECT d.document_id FROM hindsight.documents d
          WHERE d.bank_id = retain.bank_id AND d.document_id = ANY (doc_ids)
          ORDER BY d.document_id FOR UPDATE) d;
    FOR item_no IN SELECT i FROM generate_subscripts(doc_ids, 1) i WHERE doc_ids[i] = ANY (coalesce(existing, '{}'))
    LOOP
        chunk_ids := chunk_ids || jsonb_build_object((item_no - 1)::text, to_jsonb(
            hindsight._update_document(retain.bank_id, doc_ids[item_no], items->(item_no - 1))));
    END LOOP;

    INSERT INTO hindsight.documents (bank_id, document_id, original_text, content_hash, tags, metadata)
    SELECT retain.bank_id, doc_ids[o], x->>'content',
           encode(sha256(convert_to(coalesce(x->>'content', ''), 'UTF8')), 'hex'),
           ARRAY(SELECT jsonb_array_elements_text(coalesce(x->'tags', '[]'))),
           coalesce(x->'metadata', '{}')
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    WHERE NOT doc_ids[o] = ANY (coalesce(existing, '{}'));

    INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
    SELECT retain.bank_id, doc_ids[o] || '#' || (co - 1), doc_ids[o], co - 1, c,
           encode(sha256(convert_to(c, 'UTF8')), 'hex')
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
         jsonb_array_elements_text(coalesce(x->'chunks', '[]')) WITH ORDINALITY AS ch(c, co)
    WHERE NOT doc_ids[o] = ANY (coalesce(existing, '{}'));

    -- Memory units.
    SELECT array_agg(gen_random_uuid()) INTO new_ids FROM unnest(unit_texts);
    INSERT INTO hindsight.memory_units (
        bank_id, id, document_id, chunk_id, text, context, fact_type, embedding,
        occurred_start, occurred_end, mentioned_at, tags, metadata, token_count, search_vector)
    SELECT retain.bank_id, new_ids[u.n], u.document_id,
           CASE WHEN u.unit ? 'chunk_index'
                THEN coalesce(chunk_ids->(u.o - 1)::text->>(u.unit->>'chunk_index')::int,
                              u.document_id || '#' || (u.unit->>'chunk_index')) END,
           u.unit->>'text', u.item->>'context', coalesce(u.unit->>'fact_type', 'world'),
           (u.unit->>'embedding')::vector,
           (u.unit->>'occurred_start')::timestamptz, (u.unit->>'occurred_end')::timestamptz, u.mentioned_at,
           ARRAY(SELECT jsonb_array_elements_text(coalesce(u.item->'tags', '[]'))),
           coalesce(u.item->'metadata', '{}') || coalesce(u.unit->'metadata', '{}'),
           token_counts[u.n], hindsight._search_vector(u.unit->>'text', ts_config)
    FROM (SELECT t.o, doc_ids[t.o] AS document_id, t.x AS item, w.v AS unit,
                 row_number() OVER (ORDER BY t.o, w.uo) AS n,
                 coalesce((w.v->>'mentioned_at')::timestamptz, (t.x->>'timestamp')::timestamptz, now()) AS mentioned_at
          FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
               jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) u;

    -- Entities: resolved against the bank, then linked to their units.
    INSERT INTO hindsight.unit_entities (bank_id, unit_id, entity_id)
    SELECT retain.bank_id, r.unit_id, r.entity_id
    FROM hindsight._resolve_entities(
        retain.bank_id,
        ARRAY(SELECT new_ids[m.n] FROM (
                  SELECT row_number() OVER (ORDER BY t.o, w.uo) AS n, w.v
                  FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
                       jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) m,
                  jsonb_array_elements_text(coalesce(m.v->'entities', '[]')) e ORDER BY m.n),
        ARRAY(SELECT e FROM (
                  SELECT row_number() OVER (ORDER BY t.o, w.uo) AS n, w.v
                  FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
                       jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) m,
                  jsonb_array_elements_text(coalesce(m.v->'entities', '[]')) e ORDER BY m.n),
        ARRAY(SELECT u.mentioned_at FROM (
                  SELECT row_number() OVER (ORDER BY t.o, w.uo) AS n, w.v,
                         coalesce((w.v->>'mentioned_at')::timestamptz, (t.x->>'timestamp')::timestamptz, now())
                             AS mentioned_at
                  FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
                       jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) u,
                  jsonb_array_elements_text(coalesce(u.v->'entities', '[]')) e ORDER BY u.n)
    ) AS r;

    -- Links: temporal and semantic neighbours, and the causal relations the
    -- extractor found (unit -caused_by-> cause and cause -causes-> unit, weight 1).
    IF new_ids IS NOT NULL THEN
        PERFORM hindsight._link_units(retain.bank_id, new_ids);
        INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
        SELECT DISTINCT retain.bank_id, l.a, l.b, l.kind, 1.0
        FROM (SELECT t.o, w.uo, w.v, row_number() OVER (ORDER BY t.o, w.uo) AS n, t.first_n
              -- first_n: the units of the items before this one (a running sum, not a subquery per unit)
              FROM (SELECT i.x, i.o, coalesce(sum(jsonb_array_length(coalesce(i.x->'units', '[]'))) OVER (
                        ORDER BY i.o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS first_n
                    FROM jsonb_array_elements(items) WITH ORDINALITY AS i(x, o)) t,
                   jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) u,
             jsonb_array_elements_text(coalesce(u.v->'caused_by', '[]')) AS c(target),
             LATERAL (VALUES (new_ids[u.n], new_ids[u.first_n + c.target::int + 1], 'caused_by'),
                             (new_ids[u.first_n + c.target::int + 1], new_ids[u.n], 'causes')) AS l(a, b, kind)
        ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO NOTHING;
    END IF;

    IF existing IS NOT NULL THEN
        PERFORM hindsight._delete_orphan_entities(retain.bank_id);
    END IF;

    -- A bank that has grown past hnsw_min_units gets its HNSW index now. When the
    -- calling statement itself reads memory_units (INSERT ... SELECT from another
    -- bank), PostgreSQL cannot build an index under it: the next retain (or
    -- hindsight.index_bank) does it, and search stays exact meanwhile.
    BEGIN
        PERFORM hindsight.index_bank(retain.bank_id);
    EXCEPTION WHEN object_in_use THEN
        RAISE NOTICE 'bank "%": HNSW index deferred (memory_units is in use by this statement)', retain.bank_id
            USING HINT = 'Run SELECT hindsight.index_bank(bank_id) afterwards.';
    END;

    RETURN QUERY
    SELECT (t.o - 1)::int, doc_ids[t.o], new_ids[u.n]
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    LEFT JOIN (SELECT t2.o, row_number() OVER (ORDER BY t2.o, w.uo) AS n
               FROM jsonb_array_elements(items) WITH ORDINALITY AS t2(x, o),
                    jsonb_array_elements(coalesce(t2.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) u ON u.o = t.o
    ORDER BY t.o, u.n;
END
$$;
COMMENT ON FUNCTION hindsight.retain(text, jsonb) IS
$$Stores extracted items in one transaction and returns (item_index 0-based, document_id, unit_id) per new memory
unit (unit_id NULL for an item that added none). items: JSON array of {"document_id"?: text (default: a new uuid),
"update_mode"?: replace (default) | append, "content"?: original text, "context"?: text, "timestamp"?: ISO 8601
(default now()), "tags"?: [text], "metadata"?: object, "chunks"?: [text], "units": [{"text": text,
"embedding": [384 numbers, not all zero], "chunk_index"?: int into chunks, "fact_type"?: world|experience|observation
(default world), "occurred_start"?, "occurred_end"?, "mentioned_at"? (default the item timestamp), "entities"?: [names],
"caused_by"?: [indexes of the item's other units], "metadata"?: object}]}. An existing document_id is updated: a chunk
given without units whose SHA-256 the document already has keeps its memories; replace drops the rest, append adds.
Entities are resolved against the bank, and units linked (temporal, semantic, causal); see docs/retain.md. The
hindsight_pg driver builds the items (chunking, fact extraction, embeddings). Raises HS404 for an unknown bank and
22023 naming the item and unit of any bad input; nothing is written then.$$;

CREATE OR REPLACE FUNCTION hindsight.delete_document(
    bank_id text,
    document_id text
)
RETURNS bool
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    deleted bool;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    DELETE FROM hindsight.documents d
    WHERE d.bank_id = delete_document.bank_id AND d.document_id = delete_document.document_id;
    deleted := FOUND;
    IF deleted THEN
        PERFORM hindsight._delete_orphan_entities(bank_id);
    END IF;
    RETURN deleted;
END
$$;
COMMENT ON FUNCTION hindsight.delete_document(text, text) IS
    'Deletes a document with its chunks, memory units, their links and entity references, and the entities no '
    'memory mentions any more. Returns false when the bank has no such document; HS404 for an unknown bank.';

-- sql/functions/views.sql
-- Analytics views (security_invoker: row-level security applies to whoever queries them).

CREATE OR REPLACE VIEW hindsight.bank_stats WITH (security_invoker = true) AS
SELECT b.bank_id,
       b.name,
       coalesce(u.units, 0) AS units,
       coalesce(u.world_units, 0) AS world_units,
       coalesce(u.experience_units, 0) AS experience_units,
       coalesce(u.observation_units, 0) AS observation_units,
       (SELECT count(*) FROM hindsight.entities e WHERE e.bank_id = b.bank_id) AS entities,
       coalesce(l.temporal_links, 0) AS temporal_links,
       coalesce(l.semantic_links, 0) AS semantic_links,
       coalesce(l.causal_links, 0) AS causal_links,
       u.first_date,
       u.last_date,
       (SELECT count(*) FROM hindsight.documents d WHERE d.bank_id = b.bank_id) AS documents,
       (SELECT count(*) FROM hindsight.chunks c WHERE c.bank_id = b.bank_id) AS chunks
FROM hindsight.banks b
LEFT JOIN LATERAL (
    SELECT count(*) AS units,
           count(*) FILTER (WHERE m.fact_type = 'world') AS world_units,
           count(*) FILTER (WHERE m.fact_type = 'experience') AS experience_units,
           count(*) FILTER (WHERE m.fact_type = 'observation') AS observation_units,
           min(hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at)) AS first_date,
           max(hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at)) AS last_date
    FROM hindsight.memory_units m WHERE m.bank_id = b.bank_id
) u ON true
LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE k.link_type = 'temporal') AS temporal_links,
           count(*) FILTER (WHERE k.link_type = 'semantic') AS semantic_links,
           count(*) FILTER (WHERE k.link_type IN ('causes', 'caused_by', 'enables', 'prevents')) AS causal_links
    FROM hindsight.memory_links k WHERE k.bank_id = b.bank_id
) l ON true;
COMMENT ON VIEW hindsight.bank_stats IS
    'One row per bank the caller may read: memory units in all and per fact type, entities, links per kind '
    '(temporal, semantic, causal), the first and last date of its units (occurred_start, else mentioned_at, else '
    'occurred_end), documents and chunks.';

CREATE OR REPLACE VIEW hindsight.entity_graph WITH (security_invoker = true) AS
SELECT a.bank_id,
       a.entity_id AS entity_a_id,
       ea.canonical_name AS entity_a,
       b.entity_id AS entity_b_id,
       eb.canonical_name AS entity_b,
       count(*) AS co_occurrences,
       max(hindsight._effective_date(u.occurred_start, u.occurred_end, u.mentioned_at)) AS last_co_occurrence
FROM hindsight.unit_entities a
JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.unit_id = a.unit_id AND a.entity_id < b.entity_id
JOIN hindsight.memory_units u ON u.bank_id = a.bank_id AND u.id = a.unit_id
JOIN hindsight.entities ea ON ea.bank_id = a.bank_id AND ea.id = a.entity_id
JOIN hindsight.entities eb ON eb.bank_id = b.bank_id AND eb.id = b.entity_id
GROUP BY a.bank_id, a.entity_id, ea.canonical_name, b.entity_id, eb.canonical_name;
COMMENT ON VIEW hindsight.entity_graph IS
    'Pairs of entities mentioned by the same memory units, per bank (each pair once, entity_a_id < entity_b_id): '
    'how many units mention both and the latest date of such a unit.';

CREATE OR REPLACE VIEW hindsight.memory_timeline WITH (security_invoker = true) AS
SELECT m.bank_id,
       date_trunc('month', hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at)) AS month,
       m.fact_type,
       count(*) AS units
FROM hindsight.memory_units m
GROUP BY 1, 2, 3;
COMMENT ON VIEW hindsight.memory_timeline IS
    'Memory units per bank, calendar month (of occurred_start, else mentioned_at, else occurred_end; NULL when '
    'undated) and fact type.';

CREATE OR REPLACE VIEW hindsight.entity_stats WITH (security_invoker = true) AS
SELECT e.bank_id,
       e.id AS entity_id,
       e.canonical_name,
       e.mention_count,
       e.first_seen,
       e.last_seen,
       (SELECT count(*) FROM hindsight._entity_cooccurrences c
        WHERE c.bank_id = e.bank_id AND c.entity_id = e.id) AS co_occurring_entities,
       coalesce((SELECT json_object_agg(t.canonical_name, t.unit_count ORDER BY t.unit_count DESC, t.canonical_name)
                 FROM (SELECT o.canonical_name, c.unit_count
                       FROM hindsight._entity_cooccurrences c
                       JOIN hindsight.entities o ON o.bank_id = c.bank_id AND o.id = c.other_entity_id
                       WHERE c.bank_id = e.bank_id AND c.entity_id = e.id
                       ORDER BY c.unit_count DESC, o.canonical_name
                       LIMIT 10) t), '{}'::json) AS co_occurring
FROM hindsight.entities e;
COMMENT ON VIEW hindsight.entity_stats IS
    'One row per entity of the banks the caller may read: canonical name, memory units that mention it '
    '(mention_count), first and last mention, how many other entities it occurs with, and the ten it occurs '
    'with most as a JSON object {name: units}, most first.';

GRANT SELECT ON hindsight.bank_stats, hindsight.entity_graph, hindsight.memory_timeline, hindsight.entity_stats
    TO PUBLIC;
