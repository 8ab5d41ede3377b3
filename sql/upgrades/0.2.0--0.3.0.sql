-- hindsight_pg 0.2.0 -> 0.3.0: the schema changes since 0.2.0, run once, in order.
-- The build appends every file of sql/functions/ (all CREATE OR REPLACE), so functions,
-- views and comments need no entry here; new or changed tables, columns, indexes, types,
-- policies and triggers do, and so do dropping a function whose signature changed and
-- filling in what existing rows need (new derived tables, new columns' values).
-- 0.2.0 and the upgrade script 0.1.0--0.2.0 are frozen in sql/releases/: this is the only
-- upgrade script still open. tests/db/test_upgrade.py checks that 0.1.0 and 0.2.0 databases,
-- empty and holding a LoCoMo conversation, updated through here equal a fresh 0.3.0 install.

-- No silent loss: retain reports the repeated facts it stored as one unit (a merged column).
ALTER TYPE hindsight.retained_unit ADD ATTRIBUTE merged jsonb;
COMMENT ON TYPE hindsight.retained_unit IS
    'A row of hindsight.retain_text: the document and one memory unit it stored (NULL when it stored none), and '
    'the repeated facts stored as that unit (merged: [{item_index, text, reason, similarity}], [] when none).';
DROP FUNCTION hindsight.retain(text, jsonb);
DROP FUNCTION hindsight._retain_text(text, text, text, timestamptz, text, text[], jsonb, text[], text, text);
-- Retain reads the bank's config once and passes it to its helpers (issue 32).
DROP FUNCTION hindsight._resolve_entities(text, uuid[], text[], timestamptz[]);
DROP FUNCTION hindsight._link_units(text, uuid[]);

-- Thousands of banks: one HNSW index over every bank instead of a partial index per bank
-- (hindsight._semantic_path decides per bank between it and an exact scan). The per-bank
-- indexes were created at run time by hindsight.index_bank, so they are not members of the
-- extension: dropped by name. Building the shared index reads every memory unit once, inside
-- this update's transaction (writes to memory_units wait for it; docs/integrations.md).
DO $$
DECLARE
    index_name name;
BEGIN
    FOR index_name IN SELECT c.relname FROM pg_catalog.pg_index i
                      JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid
                      WHERE i.indrelid = 'hindsight.memory_units'::regclass AND c.relname LIKE 'memory_units\_hnsw\_%'
    LOOP
        EXECUTE format('DROP INDEX hindsight.%I', index_name);
    END LOOP;
END
$$;
DROP FUNCTION hindsight.index_bank(text, bool);
DROP FUNCTION hindsight._drop_bank_index(text);
DROP FUNCTION hindsight._bank_index_name(text);
CREATE INDEX memory_units_embedding_idx
    ON hindsight.memory_units USING hnsw (embedding vector_cosine_ops);

-- The models' PL/Python bodies take the provider config in hand, not the bank (recall reads the bank's config once:
-- sql/functions/models/providers.sql, hindsight._embed_with and hindsight._rerank_with).
DROP FUNCTION hindsight._embed(text, text[], text);
DROP FUNCTION hindsight._rerank(text, text, text[]);

-- The driver calls only public functions: the five its consolidation and reflect call are public
-- under names without the underscore (sql/functions/reflect/consolidate.sql, reflect.sql).
DROP FUNCTION hindsight._observation_facts(text, uuid);
DROP FUNCTION hindsight._write_observation(text, uuid, text, uuid[], text);
DROP FUNCTION hindsight._memory_source(text, text);
DROP FUNCTION hindsight._nearest_mental_models(text, vector, int);
DROP FUNCTION hindsight._store_mental_model(text, text, text, vector, uuid[]);
-- The keyword arm's ts_rank_cd helper says which backend it is (sql/functions/recall/_arms.sql).
DROP FUNCTION hindsight._keyword_arm(text, tsquery, text[], text[], text, int);

-- Citus: the policies call the C function hindsight._bank_access (no subquery; Citus rejects
-- them on distributed tables), created with the new policies by sql/functions/banks/access.sql; the
-- old ones and the function their subqueries called go first. The triggers are replaced by
-- sql/functions/common/_derived.sql and banks.sql (CREATE OR REPLACE TRIGGER).
DO $$
DECLARE
    p record;
BEGIN
    FOR p IN SELECT pol.polname, c.relname FROM pg_catalog.pg_policy pol
             JOIN pg_catalog.pg_class c ON c.oid = pol.polrelid
             JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'hindsight' LOOP
        EXECUTE format('DROP POLICY %I ON hindsight.%I', p.polname, p.relname);
    END LOOP;
END
$$;
DROP FUNCTION hindsight._banks_for(name, text);

-- Citus rejects ON UPDATE CASCADE on a foreign key holding the distribution column: retain moves
-- a kept chunk's memories itself (hindsight._update_document).
ALTER TABLE hindsight.memory_units DROP CONSTRAINT memory_units_bank_id_chunk_id_fkey,
    ADD CONSTRAINT memory_units_bank_id_chunk_id_fkey FOREIGN KEY (bank_id, chunk_id)
        REFERENCES hindsight.chunks ON DELETE CASCADE;

-- hindsight._time_span as one expression the planner inlines (the same value for every row, so the
-- GiST index on it stays as it is).
CREATE OR REPLACE FUNCTION hindsight._time_span(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS tstzmultirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- One expression (no subquery), so the planner inlines it: the temporal arm's bitmap scan
    -- rechecks it on every row it reads (at 100,000 units, a month's pool: 11 -> 6 ms).
    SELECT CASE
        WHEN occurred_start IS NULL AND occurred_end IS NULL THEN
            CASE WHEN mentioned_at IS NULL THEN '{}'::tstzmultirange
                 ELSE tstzmultirange(tstzrange(mentioned_at, mentioned_at, '[]')) END
        WHEN mentioned_at IS NULL THEN
            tstzmultirange(tstzrange(coalesce(occurred_start, occurred_end), coalesce(occurred_end, occurred_start), '[]'))
        ELSE tstzmultirange(tstzrange(coalesce(occurred_start, occurred_end), coalesce(occurred_end, occurred_start), '[]'),
                            tstzrange(mentioned_at, mentioned_at, '[]'))
    END
$$;

-- One rule for a unit's date (hindsight._effective_date, defined with the indexes): retain's temporal
-- links use it, so their index is on it. 0.2.0 filed a unit with occurred_end alone under mentioned_at;
-- one end of the occurred span now stands for both, as everywhere else (the index is rebuilt for it).
DROP INDEX hindsight.memory_units_type_effective_idx;
CREATE OR REPLACE FUNCTION hindsight._effective_date(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(occurred_start, occurred_end, mentioned_at)
$$;
COMMENT ON FUNCTION hindsight._effective_date(timestamptz, timestamptz, timestamptz) IS
    'A unit''s date, the one rule: the time it is about (occurred_start; occurred_end alone stands for both, as '
    'in _time_span and describe_when), else when it was said (mentioned_at); NULL when none. Recency, temporal '
    'links, the temporal arm''s slices, consolidation and the timeline use it; temporal proximity '
    '(hindsight._best_date) takes the middle of the occurred span instead when both ends exist.';
CREATE INDEX memory_units_type_effective_idx
    ON hindsight.memory_units (bank_id, fact_type, hindsight._effective_date(occurred_start, occurred_end, mentioned_at));

-- The "bm25" arm is called keyword: BM25 is only its default backend (ts_rank_cd under keyword_backend
-- native, ParadeDB under pg_search). Its rank and score columns follow, here and in recall_result below.
ALTER TYPE hindsight._fused_hit RENAME ATTRIBUTE bm25_rank TO keyword_rank;
ALTER TYPE hindsight._fused_hit RENAME ATTRIBUTE bm25_score TO keyword_score;
ALTER TYPE hindsight.recall_candidate RENAME ATTRIBUTE bm25_rank TO keyword_rank;
ALTER TYPE hindsight.recall_candidate RENAME ATTRIBUTE bm25_score TO keyword_score;

-- One definition of recall's result columns: hindsight.recall and hindsight.recall_finish return
-- hindsight.recall_result rows (the same columns as before), so the functions are made again.
-- A row of hindsight.recall and hindsight.recall_finish (and, as JSON, of recall_json's results):
-- the one definition of recall's result columns.
CREATE TYPE hindsight.recall_result AS (
    rank               int,
    id                 uuid,
    text               text,
    fact_type          text,
    context            text,
    occurred_start     timestamptz,
    occurred_end       timestamptz,
    mentioned_at       timestamptz,
    document_id        text,
    chunk_id           text,
    tags               text[],
    metadata           jsonb,
    tokens             int,
    score              float8,
    rrf_score          float8,
    rerank_score       float8,
    recency            float8,
    temporal_proximity float8,
    proof              float8,
    semantic_rank      int,
    semantic_score     float8,
    keyword_rank       int,
    keyword_score      float8,
    graph_rank         int,
    graph_score        float8,
    temporal_rank      int,
    temporal_score     float8,
    trace              jsonb,
    relevance          float8
);
COMMENT ON TYPE hindsight.recall_result IS
    'A recall result: rank (1-based), the memory unit''s columns, tokens (cl100k_base), score (final), rrf_score, '
    'rerank_score, recency, temporal_proximity, proof, each arm''s rank and score (NULL when the arm did not '
    'return the unit), trace: the recall''s trace on the rank-1 row of a recall asked with trace => true, '
    'else NULL, and relevance: the probability in [0, 1] that the unit answers the query, the same across recalls '
    '(hindsight._relevance; NULL when it cannot be told). Rows of hindsight.recall and hindsight.recall_finish.';
-- One recall as a value: hindsight.recall_candidates makes it (the bank's configuration read once,
-- the window, the candidates, the trace so far), hindsight.texts_to_rerank and hindsight.recall_finish
-- take it; nothing of a recall passes through the session.
CREATE TYPE hindsight.recall_state AS (
    bank_id         text,
    config          jsonb,
    query           text,
    budget          text,
    recall_budget   int,
    max_tokens      int,
    query_timestamp timestamptz,
    temporal_window tstzrange,
    candidates      hindsight.recall_candidate[],
    results         hindsight.recall_result[],
    trace           jsonb
);
COMMENT ON TYPE hindsight.recall_state IS
    'One recall in flight: the bank, its effective config (hindsight.bank_config, read once), the query, budget, '
    'candidates per arm (recall_budget), max_tokens, the query time (query_timestamp, now() when not given), the '
    'window in force (NULL: none, or one that narrows nothing), the candidates in fused order, the packed results '
    '(after hindsight.recall_finish; NULL before) and the trace (NULL unless trace => true). Made by '
    'hindsight.recall_candidates, read by hindsight.texts_to_rerank and hindsight.recall_finish.';
-- recall_candidates returns that state (0.2.0: hindsight.recall_candidate rows); the semantic arm takes the
-- bank's search path from its caller instead of reading the config again
DROP FUNCTION hindsight.recall_candidates(text, text, vector, text, int, text[], text[], text, timestamptz, bool,
                                          tstzrange, text, int, text[]);
DROP FUNCTION hindsight._semantic_arm(text, vector, text[], text[], text, int);
DROP FUNCTION hindsight.recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text,
                               int, text[], text, bool);
-- recall and recall_json take max_results (the best 10 packed results by default): a new signature each
DROP FUNCTION hindsight.recall_json(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange,
                                    text, int, text[], text, bool, int, bool);
DROP FUNCTION hindsight.recall_finish(text, hindsight.recall_candidate[], float8[], text, int, timestamptz, text, bool,
                                      bool);

-- Each bank records the model its vectors are made with (config.embedding_model), and a
-- re-embedding keeps the next model's vectors beside the ones in use until it swaps them in.
-- A bank from 0.2.0 was embedded by the provider in force: its own, the database-wide setting,
-- else local all-MiniLM-L6-v2 (the rule of hindsight.embedding_model_name, spelled out: this
-- runs before the new functions exist). The config trigger of 0.2.0 does not know the new key.
ALTER TABLE hindsight.memory_units ADD COLUMN embedding_next vector(384);
ALTER TABLE hindsight.banks ADD COLUMN reembed_model text;
ALTER TABLE hindsight.banks DISABLE TRIGGER banks_config_checked;
UPDATE hindsight.banks b
SET config = jsonb_build_object('embedding_model', CASE p.provider->>'kind'
        WHEN 'http' THEN coalesce(nullif(p.provider->>'model', ''), rtrim(p.provider->>'url', '/'))
        ELSE coalesce(nullif(p.provider->>'model', ''), 'all-MiniLM-L6-v2') END) || b.config
FROM (SELECT x.bank_id, coalesce(x.config->'embedding_provider',
                                 (SELECT s.value FROM hindsight.settings s WHERE s.name = 'embedding_provider'),
                                 '{"kind": "local"}'::jsonb) AS provider
      FROM hindsight.banks x) p
WHERE p.bank_id = b.bank_id AND NOT b.config ? 'embedding_model';
-- 0.2.0 recalled and retained every bank with all-MiniLM-L6-v2's cosine thresholds; 0.3.0's defaults are
-- multilingual-e5-small's, and only all-MiniLM-L6-v2 gets its own back (hindsight._model_defaults). A bank of
-- another model (an HTTP provider's) keeps the thresholds it had, so its graph and temporal arms, links and
-- observations do not change with the update (without this, a LoCoMo bank recorded as an HTTP model's kept its
-- first result in 21 of 26 questions and its top 10 in 2, 0.2.0's ranking otherwise restored:
-- tests/db/test_upgrade_recall.py). Its own keys win; a pinned key set to null (configure_bank) takes the
-- model's 0.3.0 default (docs/integrations.md, "Upgrades").
UPDATE hindsight.banks
SET config = '{"dedupe_similarity": 0.95, "observation_merge_similarity": 0.97, "observation_similarity": 0.85,
               "semantic_link_min_similarity": 0.7, "graph_seed_min_similarity": 0.3, "graph_semantic_floor": 0.3,
               "temporal_min_similarity": 0.1}'::jsonb || config
WHERE config->>'embedding_model' IS DISTINCT FROM 'all-MiniLM-L6-v2';
-- The arm "bm25" is called keyword (above): a bank's per-arm weights and boosts follow; the new
-- hindsight._check_config refuses the old name.
UPDATE hindsight.banks
SET config = config || (SELECT jsonb_object_agg(k, ((config->k) - 'bm25') || jsonb_build_object('keyword', config->k->'bm25'))
                        FROM unnest(ARRAY['arm_weights', 'passthrough_weights', 'strategy_boosts']) k
                        WHERE config->k ? 'bm25')
WHERE config->'arm_weights' ? 'bm25' OR config->'passthrough_weights' ? 'bm25' OR config->'strategy_boosts' ? 'bm25';
ALTER TABLE hindsight.banks ENABLE TRIGGER banks_config_checked;
COMMENT ON TABLE hindsight.banks IS
    'Memory banks: one isolated memory per agent or user. config overrides hindsight._default_config() and records '
    'the embedding_model of its vectors; created_by (the creating role) is the bank''s first admin (see '
    'bank_members); reembed_model: the model a re-embedding in progress moves to.';
COMMENT ON TABLE hindsight.memory_units IS
    'Memory units (facts). embedding: unit-length 384-dim vector of the bank''s embedding_model; embedding_next: '
    'its vector of the model a re-embedding moves to (hindsight.reembed_begin), NULL otherwise; token_count: '
    'cl100k_base tokens of text.';

-- The reader reads the passthrough's own best (hindsight._boosted, computed once a recall).
CREATE TYPE hindsight._boosted_candidate AS (
    candidate_order   int,
    unit_id           uuid,
    candidate_rank    int,
    rerank_text       text,
    token_count       int,
    passthrough_score float8,
    recency           float8,
    proof             float8,
    boosted           float8,
    boosted_rank      int
);

-- Versions of an entity ("PostgreSQL 11") link to it ("PostgreSQL"): hindsight._resolve_entities sets parent_id,
-- the graph arm follows it.
ALTER TABLE hindsight.entities ADD COLUMN parent_id uuid;
COMMENT ON TABLE hindsight.entities IS
    'People, places, projects named in memories; one row per case-insensitive name per bank. parent_id: the '
    'entity this one is a version of ("PostgreSQL 11" of "PostgreSQL"; docs/retain.md).';

-- Knowledge updates: a newer unit that revises an older one supersedes it (sql/functions/retain/_link_updates.sql, recall/_updates_win.sql).
ALTER TABLE hindsight.memory_units ADD COLUMN superseded_at timestamptz;
COMMENT ON TABLE hindsight.memory_units IS
    'Memory units (facts). embedding: unit-length 384-dim vector of the bank''s embedding_model; embedding_next: '
    'its vector of the model a re-embedding moves to (hindsight.reembed_begin), NULL otherwise; token_count: '
    'cl100k_base tokens of text; superseded_at: the mentioned_at of the first newer unit that revises this one '
    '(its supersedes link, docs/recall.md "Updates win"), NULL while none does.';
ALTER TABLE hindsight.memory_links DROP CONSTRAINT memory_links_link_type_check,
    ADD CONSTRAINT memory_links_link_type_check CHECK (link_type IN
        ('temporal', 'semantic', 'causes', 'caused_by', 'enables', 'prevents', 'supersedes'));

-- One memory at a time: hindsight.update_memory returns this type.
CREATE TYPE hindsight.memory AS (
    id uuid, text text, fact_type text, context text, occurred_start timestamptz, occurred_end timestamptz,
    mentioned_at timestamptz, document_id text, chunk_id text, tags text[], metadata jsonb, entities text[],
    superseded_at timestamptz);
COMMENT ON TYPE hindsight.memory IS
    'One memory unit as hindsight.update_memory returns it: the columns of hindsight.memory_units a caller reads, '
    'and entities: the canonical names of the entities it mentions, in alphabetical order.';

-- A graph hop reads at most graph_hop_entity_rows unit-entity rows, the rarest entities first: one more argument
DROP FUNCTION hindsight._graph_expand(text, uuid[], uuid[], text[], text[], text, int, int, float8);

-- The temporal arm reads a window that holds many units in date order, a slice at a time
CREATE INDEX memory_units_effective_idx
    ON hindsight.memory_units (bank_id, hindsight._effective_date(occurred_start, occurred_end, mentioned_at), id);
