-- The pg_search keyword backend (ParadeDB's BM25 index). Everything that knows
-- about pg_search is in this file; the pipeline only sees another keyword arm.
-- pg_search cannot be installed on this machine: the statements below that use
-- its operators run through EXECUTE, so the extension installs without it.

CREATE OR REPLACE FUNCTION hindsight.enable_pg_search(tokenizer text DEFAULT 'default')
RETURNS text
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
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
SET citus.allow_nested_distributed_execution = on
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
        SELECT coalesce(array_agg(ROW('keyword', s.id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
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
