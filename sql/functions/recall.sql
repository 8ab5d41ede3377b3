-- Recall: the retrieval pipeline as one set-returning function.
--
-- Arms (each LIMIT recall_budget, each filtered by bank, types and tags):
--   semantic  cosine similarity to query_embedding (per-bank HNSW or exact scan)
--   bm25      full-text match on search_vector, ranked with ts_rank_cd
-- then reciprocal rank fusion (k = rrf_k), the passthrough score rrf / best rrf,
-- and token-budget packing of the best recall_budget * 2 fused results.

CREATE OR REPLACE FUNCTION hindsight._recall(
    bank_id text,
    query text,
    query_embedding vector DEFAULT NULL,
    budget text DEFAULT 'mid',
    max_tokens int DEFAULT 4096,
    types text[] DEFAULT NULL,
    tags text[] DEFAULT NULL,
    tags_match text DEFAULT 'any',
    query_timestamp timestamptz DEFAULT NULL,
    trace bool DEFAULT false
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
    unit_tags text[],
    metadata jsonb,
    tokens int,
    score float8,
    rrf_score float8,
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
    cfg jsonb := hindsight.bank_config(_recall.bank_id);
    recall_budget int;
    rrf_k float8 := (cfg->>'rrf_k')::float8;
    keyword_query tsquery;
    semantic_hits hindsight._arm_hit[] := '{}';
    bm25_hits hindsight._arm_hit[] := '{}';
    fused hindsight._fused_hit[] := '{}';
    candidate_tokens int[];
    kept int[] := '{}';
    index_name text;
    started timestamptz := clock_timestamp();
    step timestamptz;
    semantic_ms float8;
    bm25_ms float8;
    fusion_ms float8;
    packing_ms float8;
    bad text;
BEGIN
    -- The body of hindsight.recall (a PL/pgSQL function cannot name an output
    -- column like an argument, so recall renames unit_tags to tags).
    PERFORM hindsight._require_python();
    IF query IS NULL THEN
        RAISE EXCEPTION 'query must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF budget IS NULL OR NOT (cfg->'recall_budgets') ? budget THEN
        RAISE EXCEPTION 'unknown budget "%"', budget
            USING ERRCODE = '22023', HINT = 'Use one of low, mid, high.';
    END IF;
    recall_budget := (cfg->'recall_budgets'->>budget)::int;
    IF max_tokens IS NULL OR max_tokens < 0 THEN
        RAISE EXCEPTION 'max_tokens must be an integer >= 0, got %', coalesce(max_tokens::text, 'NULL')
            USING ERRCODE = '22023';
    END IF;
    IF tags_match IS NULL OR tags_match NOT IN ('any', 'all', 'any_strict', 'all_strict', 'exact') THEN
        RAISE EXCEPTION 'unknown tags_match "%"', tags_match
            USING ERRCODE = '22023', HINT = 'Use one of any, all, any_strict, all_strict, exact.';
    END IF;
    SELECT t INTO bad FROM unnest(types) AS t
    WHERE t IS NULL OR t NOT IN ('world', 'experience', 'observation') LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'unknown fact type "%"', coalesce(bad, 'NULL')
            USING ERRCODE = '22023', HINT = 'Use world, experience or observation.';
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

    -- Semantic arm. Planned with the bank id as a constant (EXECUTE ... USING
    -- plans once with the values), so a bank's partial HNSW index is provably
    -- usable; a small bank without one is scanned exactly. ef_search and the
    -- iterative scan are set for this function call only (its SET clause
    -- restores them on exit).
    IF query_embedding IS NOT NULL THEN
        step := clock_timestamp();
        index_name := to_regclass(format('hindsight.%I', hindsight._bank_index_name(bank_id)))::text;
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
        INTO semantic_hits
        USING bank_id, query_embedding, types, tags, tags_match, recall_budget;
        semantic_ms := extract(epoch FROM clock_timestamp() - step) * 1000;
    END IF;

    -- Keyword arm: OR of the query's lexemes, ranked with ts_rank_cd.
    step := clock_timestamp();
    keyword_query := hindsight._keyword_query(query, (cfg->>'text_search_config')::regconfig);
    IF keyword_query IS NOT NULL THEN
        SELECT coalesce(array_agg(ROW('bm25', s.id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
        INTO bm25_hits
        FROM (SELECT n.id, n.score, row_number() OVER (ORDER BY n.score DESC, n.id)::int AS rn
              FROM (SELECT u.id, ts_rank_cd(u.search_vector, keyword_query)::float8 AS score
                    FROM hindsight.memory_units u
                    WHERE u.bank_id = _recall.bank_id
                      AND u.search_vector @@ keyword_query
                      AND (_recall.types IS NULL OR u.fact_type = ANY (_recall.types))
                      AND hindsight._tags_match(u.tags, _recall.tags, _recall.tags_match)
                    ORDER BY 2 DESC, u.id
                    LIMIT recall_budget) n) s;
    END IF;
    bm25_ms := extract(epoch FROM clock_timestamp() - step) * 1000;

    -- Reciprocal rank fusion; ties broken by the semantic, then keyword rank.
    step := clock_timestamp();
    SELECT coalesce(array_agg(f ORDER BY f.rrf_score DESC, f.semantic_rank NULLS LAST,
                              f.bm25_rank NULLS LAST, f.unit_id), '{}')
    INTO fused
    FROM hindsight._rrf_fuse(semantic_hits || bm25_hits, rrf_k) AS f;
    fusion_ms := extract(epoch FROM clock_timestamp() - step) * 1000;

    -- Packing of the best recall_budget * 2 results into max_tokens.
    step := clock_timestamp();
    SELECT array_agg(u.token_count ORDER BY c.pos)
    INTO candidate_tokens
    FROM unnest(fused[1:recall_budget * 2]) WITH ORDINALITY AS c(unit_id, rrf_score, semantic_rank, semantic_score,
         bm25_rank, bm25_score, graph_rank, graph_score, temporal_rank, temporal_score, pos)
    JOIN hindsight.memory_units u ON u.bank_id = _recall.bank_id AND u.id = c.unit_id;
    kept := hindsight._pack_by_tokens(candidate_tokens, max_tokens);
    packing_ms := extract(epoch FROM clock_timestamp() - step) * 1000;

    RETURN QUERY
    SELECT k.rank::int, u.id, u.text, u.fact_type, u.context, u.occurred_start, u.occurred_end, u.mentioned_at,
           u.document_id, u.chunk_id, u.tags, u.metadata, u.token_count,
           c.rrf_score / (fused[1]).rrf_score, c.rrf_score,
           c.semantic_rank, c.semantic_score, c.bm25_rank, c.bm25_score,
           c.graph_rank, c.graph_score, c.temporal_rank, c.temporal_score
    FROM unnest(kept) WITH ORDINALITY AS k(pos, rank)
    CROSS JOIN LATERAL (SELECT (fused[k.pos]).*) AS c
    JOIN hindsight.memory_units u ON u.bank_id = _recall.bank_id AND u.id = c.unit_id
    ORDER BY k.rank;

    IF trace THEN
        PERFORM set_config('hindsight.last_trace', jsonb_build_object(
            'bank_id', bank_id,
            'query', query,
            'budget', budget,
            'recall_budget', recall_budget,
            'max_tokens', max_tokens,
            'query_timestamp', query_timestamp,
            'filters', jsonb_build_object('types', types, 'tags', tags, 'tags_match', tags_match),
            'arms', jsonb_build_object(
                'semantic', jsonb_build_object(
                    'ran', query_embedding IS NOT NULL,
                    'index', CASE WHEN query_embedding IS NULL THEN NULL ELSE coalesce(index_name, 'exact scan') END,
                    'ef_search', least(recall_budget, 1000),
                    'ms', semantic_ms,
                    'hits', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', h.unit_id, 'rank', h.rank, 'score', h.score)
                                                       ORDER BY h.rank), '[]') FROM unnest(semantic_hits) h)),
                'bm25', jsonb_build_object(
                    'ran', keyword_query IS NOT NULL,
                    'tsquery', keyword_query::text,
                    'ms', bm25_ms,
                    'hits', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', h.unit_id, 'rank', h.rank, 'score', h.score)
                                                       ORDER BY h.rank), '[]') FROM unnest(bm25_hits) h))),
            'fusion', jsonb_build_object('method', 'rrf', 'k', rrf_k, 'fused', cardinality(fused), 'ms', fusion_ms),
            'packing', jsonb_build_object(
                'candidates', coalesce(cardinality(candidate_tokens), 0),
                'kept', cardinality(kept),
                'tokens', (SELECT coalesce(sum(candidate_tokens[p]), 0) FROM unnest(kept) p),
                'ms', packing_ms),
            'total_ms', extract(epoch FROM clock_timestamp() - started) * 1000
        )::text, false);
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool) IS
    'The body of hindsight.recall, with its tags column named unit_tags.';

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
    trace bool DEFAULT false
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
    SELECT * FROM hindsight._recall(bank_id, query, query_embedding, budget, max_tokens, types, tags, tags_match,
                                    query_timestamp, trace)
$$;
COMMENT ON FUNCTION hindsight.recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool) IS
$$Recalls the memory units of a bank that best answer query, packed into max_tokens (cl100k_base).
Arms: semantic (cosine to query_embedding, vector(384), skipped when NULL) and bm25 (full-text OR of the
query's words, ts_rank_cd), each LIMIT recall_budget (budget low|mid|high = 100|300|1000, per-bank
recall_budgets). Fusion: RRF, rrf_score = sum 1/(60 + rank) (Cormack et al. 2009). score = rrf_score / best
rrf_score in (0, 1]. Packing: greedy over the best recall_budget*2 in score order, skipping what does not fit;
when nothing fits the top result is returned whole; max_tokens = 0 returns none. types filters fact types;
tags with tags_match any|all|any_strict|all_strict|exact filters tags. trace => true stores a JSON trace in the
setting hindsight.last_trace (see recall_json). Rows: rank (1-based), the unit's columns, tokens, score,
rrf_score and each arm's rank and score (NULL when the arm did not return the unit).
Errors: HS404 unknown bank; 22023 bad budget, max_tokens, tags_match, types or embedding; 22004 NULL query.$$;

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
    trace bool DEFAULT false
)
RETURNS jsonb
LANGUAGE sql
SET search_path FROM CURRENT
AS $$
    SELECT jsonb_build_object(
        'results', coalesce(jsonb_agg(to_jsonb(r) ORDER BY r.rank), '[]'::jsonb),
        'trace', CASE WHEN trace THEN current_setting('hindsight.last_trace', true)::jsonb END)
    FROM hindsight.recall(bank_id, query, query_embedding, budget, max_tokens, types, tags, tags_match,
                          query_timestamp, trace) AS r
$$;
COMMENT ON FUNCTION hindsight.recall_json(text, text, vector, text, int, text[], text[], text, timestamptz, bool) IS
    'hindsight.recall as one jsonb document {"results": [rows of recall in rank order], "trace": {...} or null}. '
    'The trace (trace => true) holds the recall budget, each arm''s hits with ranks, scores and milliseconds, '
    'the tsquery, the fusion and packing figures and the total milliseconds. Same arguments and errors as recall.';
