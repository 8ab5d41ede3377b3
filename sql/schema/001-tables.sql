-- Tables of hindsight_pg. Every key includes bank_id, so each table can be
-- distributed by bank (Citus) without changing a constraint.

CREATE TABLE hindsight.banks (
    bank_id    text PRIMARY KEY
               CHECK (btrim(bank_id) <> '' AND length(bank_id) <= 200),
    name       text,
    config     jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(config) = 'object'),
    created_by name NOT NULL DEFAULT current_user,
    created_at timestamptz NOT NULL DEFAULT now(),
    reembed_model text  -- the model a re-embedding in progress moves to (hindsight.reembed_begin), else NULL
);
CREATE INDEX banks_created_by_idx ON hindsight.banks (created_by);
COMMENT ON TABLE hindsight.banks IS
    'Memory banks: one isolated memory per agent or user. config overrides hindsight._default_config() and records '
    'the embedding_model of its vectors; created_by (the creating role) is the bank''s first admin (see '
    'bank_members); reembed_model: the model a re-embedding in progress moves to.';

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
    embedding_next vector(384),   -- a re-embedding in progress: the vector of the bank's next model
    superseded_at  timestamptz,   -- when a newer unit first revised this one (a supersedes link to it)
    PRIMARY KEY (bank_id, id),
    FOREIGN KEY (bank_id, document_id) REFERENCES hindsight.documents ON DELETE CASCADE,
    FOREIGN KEY (bank_id, chunk_id) REFERENCES hindsight.chunks ON DELETE CASCADE,
    CHECK (occurred_start IS NULL OR occurred_end IS NULL OR occurred_end >= occurred_start)
);
COMMENT ON TABLE hindsight.memory_units IS
    'Memory units (facts). embedding: unit-length 384-dim vector of the bank''s embedding_model; embedding_next: '
    'its vector of the model a re-embedding moves to (hindsight.reembed_begin), NULL otherwise; token_count: '
    'cl100k_base tokens of text; superseded_at: the mentioned_at of the first newer unit that revises this one '
    '(its supersedes link, docs/recall.md "Updates win"), NULL while none does.';

CREATE TABLE hindsight.entities (
    bank_id        text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    id             uuid NOT NULL DEFAULT gen_random_uuid(),
    canonical_name text NOT NULL CHECK (btrim(canonical_name) <> ''),
    first_seen     timestamptz,
    last_seen      timestamptz,
    mention_count  int NOT NULL DEFAULT 0 CHECK (mention_count >= 0),  -- units linked, recounted by a trigger
    parent_id      uuid,  -- the entity this one is a version of ("PostgreSQL 11" -> "PostgreSQL"), same bank
    PRIMARY KEY (bank_id, id)
);
COMMENT ON TABLE hindsight.entities IS
    'People, places, projects named in memories; one row per case-insensitive name per bank. parent_id: the '
    'entity this one is a version of ("PostgreSQL 11" of "PostgreSQL"; docs/retain.md).';

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
                 ('temporal', 'semantic', 'causes', 'caused_by', 'enables', 'prevents', 'supersedes')),
    weight       float8 NOT NULL DEFAULT 1.0 CHECK (weight >= 0 AND weight <= 1),
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bank_id, from_unit_id, to_unit_id, link_type)
    -- No foreign keys: retain writes about a hundred links per fact, and a per-row
    -- check of both ends cost 80 % of retain's time. Links are made by retain
    -- between units it has just seen; a trigger on memory_units (sql/functions/common/_derived.sql)
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
    keyword_rank   int,
    keyword_score  float8,
    graph_rank     int,
    graph_score    float8,
    temporal_rank  int,
    temporal_score float8
);

-- A candidate's passthrough and boosted scores before any reader (hindsight._boosted), in candidate order.
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

-- A candidate after fusion and the rerank pre-filter: what hindsight.recall_candidates
-- hands to a cross-encoder (rerank_text) and hindsight.recall_finish scores.
CREATE TYPE hindsight.recall_candidate AS (
    candidate_rank     int,
    unit_id            uuid,
    rerank_text        text,
    rrf_score          float8,
    semantic_rank      int,
    semantic_score     float8,
    keyword_rank       int,
    keyword_score      float8,
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

-- A row of hindsight.retain_text: a PL/pgSQL function cannot return a column named like one
-- of its arguments (document_id), so its rows have this type.
CREATE TYPE hindsight.retained_unit AS (document_id text, unit_id uuid, merged jsonb);
COMMENT ON TYPE hindsight.retained_unit IS
    'A row of hindsight.retain_text: the document and one memory unit it stored (NULL when it stored none), and '
    'the repeated facts stored as that unit (merged: [{item_index, text, reason, similarity}], [] when none).';

-- A memory unit as hindsight.update_memory returns it: its own columns and its entities' names.
CREATE TYPE hindsight.memory AS (
    id uuid, text text, fact_type text, context text, occurred_start timestamptz, occurred_end timestamptz,
    mentioned_at timestamptz, document_id text, chunk_id text, tags text[], metadata jsonb, entities text[],
    superseded_at timestamptz);
COMMENT ON TYPE hindsight.memory IS
    'One memory unit as hindsight.update_memory returns it: the columns of hindsight.memory_units a caller reads, '
    'and entities: the canonical names of the entities it mentions, in alphabetical order.';

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
