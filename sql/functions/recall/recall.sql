-- Recall: the whole TEMPR pipeline in one call, as rows or as one JSON document.

CREATE OR REPLACE FUNCTION hindsight._max_results(max_results int)
RETURNS int
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF max_results < 0 THEN
        RAISE EXCEPTION 'max_results must be an integer >= 0 or NULL (every packed result), got %', max_results
            USING ERRCODE = '22023';
    END IF;
    RETURN max_results;
END
$$;
COMMENT ON FUNCTION hindsight._max_results(int) IS
    'recall''s max_results checked before any work: itself (NULL: no limit), or 22023 when below 0.';

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
    passthrough text DEFAULT 'calibrated',
    prefer_observations bool DEFAULT false,
    min_relevance float8 DEFAULT NULL,
    max_results int DEFAULT 10
)
RETURNS SETOF hindsight.recall_result
LANGUAGE sql
SET citus.allow_nested_distributed_execution = on
AS $$
    -- one value through the pipeline: the state recall_candidates makes (the config read once) is what
    -- _recall_finish takes, with the rerank stage (the bank's cross-encoder, when it has one, reads the
    -- passthrough's best)
    SELECT r.*
    FROM (SELECT hindsight._max_results(max_results) AS n) m,  -- checked before any work; NULL: every result
         LATERAL hindsight._recall_finish(
             hindsight.recall_candidates(bank_id, query, query_embedding, budget, max_tokens, types, tags, tags_match,
                                         query_timestamp, trace, temporal_window, fusion, cap_per_source, arms),
             NULL, passthrough, prefer_observations, read => true, max_results => m.n,
             min_relevance => min_relevance) f,
         unnest(f.results) r
    ORDER BY r.rank
$$;
COMMENT ON FUNCTION hindsight.recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool, float8, int) IS
$$Recalls the memory units of a bank that best answer query, packed into max_tokens (cl100k_base tokens):
hindsight.recall_finish over hindsight.recall_candidates, with the bank's cross-encoder (hindsight.rerank) when
it has one (docs/recall.md gives every formula, docs/providers.md the providers). Arms (each LIMIT
recall_budget; budget low|mid|high = 100|300|1000, or adaptive): semantic (cosine to query_embedding,
vector(384); when NULL, the bank's embedding provider embeds the query, hindsight.embed), keyword (Okapi BM25 over the query's words, b = 0 by default; ts_rank_cd with keyword_backend native), graph (entity,
semantic and causal links from the semantic hits, tanh activation), temporal (units in temporal_window, then
spreading along temporal and causal links). Fusion: RRF, sum 1/(60 + rank) (Cormack et al. 2009), or
interleave. Score: passthrough (calibrated: 0.5 fused / best + 0.25 min-max cosine + 0.25 keyword score / best, and
0.25 temporal arm score under a window, over the weights' sum) times
recency, temporal-proximity and proof boosts; with a cross-encoder, which reads the best reranker_candidates[budget]
by that score (5 / 10 / 30, hindsight.texts_to_rerank), its rank and that order are fused by weighted RRF (reranker_weight 0.7; hindsight.recall_finish).
Packing: greedy over the best recall_budget*2; when nothing fits the top result is returned whole;
max_tokens = 0 returns none; of the packed results, the best max_results are returned (default 10, as the CLI
and MCP print; NULL: all; a name, not "limit", which SQL reserves and named notation would have to quote). Filters: types (world|experience|observation), tags with tags_match
any|all|any_strict|all_strict|exact; prefer_observations drops a fact an observation among the results cites;
min_relevance (within [0, 1]; NULL, the default: no floor) drops every candidate less relevant before packing, so a
spare budget is not filled with what is unrelated. trace => true puts
the recall's JSON trace in the trace column of the rank-1 row (NULL on the others; a recall without rows has no
row to carry it: recall_json returns it always).
Rows: rank (1-based), the unit's columns, tokens, score, rrf_score, rerank_score, recency,
temporal_proximity, proof, each arm's rank and score (NULL when the arm did not return the unit), trace, and
relevance: the probability that the unit answers the query, the same across recalls (calibrated on the development
splits: the packaged reader's logit where it read, else the cosine in a multilingual-e5-small bank; NULL when
neither; docs/recall.md, "Relevance").
Errors: HS404 unknown bank; 22023 bad budget, max_tokens, max_results, min_relevance, tags_match, types, arms, fusion, window or
embedding; 22004 NULL query; 54000 a query over 2,000 characters or more than 100 tags (hindsight.limits(): refused
before any model reads the query); HS502 a model provider failed. Long work checks for a cancel between model
calls, so statement_timeout and pg_cancel_backend take effect within about a second.$$;

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
    passthrough text DEFAULT 'calibrated',
    include_chunks bool DEFAULT false,
    max_chunk_tokens int DEFAULT 8192,
    prefer_observations bool DEFAULT false,
    min_relevance float8 DEFAULT NULL,
    max_results int DEFAULT 10,
    config_seen jsonb DEFAULT NULL
)
RETURNS jsonb
LANGUAGE sql
SET citus.allow_nested_distributed_execution = on
AS $$
    WITH f AS MATERIALIZED (
        SELECT f.results, f.trace
        FROM (SELECT hindsight._max_results(max_results) AS n) m,  -- checked before any work
             LATERAL hindsight._recall_finish(
                 hindsight.recall_candidates(bank_id, query, query_embedding, budget, max_tokens, types, tags,
                                             tags_match, query_timestamp, trace, temporal_window, fusion,
                                             cap_per_source, arms, config_seen),
                 NULL, passthrough, prefer_observations, read => true, max_results => m.n,
                 min_relevance => min_relevance) f
    ), r AS MATERIALIZED (
        SELECT x.* FROM f, unnest(f.results) x
    )
    SELECT jsonb_build_object(
        'results', coalesce((SELECT jsonb_agg(to_jsonb(r) - 'trace' ORDER BY r.rank) FROM r), '[]'::jsonb),
        'chunks', CASE WHEN include_chunks THEN hindsight.recall_chunks(
                           bank_id, ARRAY(SELECT r.chunk_id FROM r WHERE r.chunk_id IS NOT NULL ORDER BY r.rank),
                           max_chunk_tokens) END,
        'trace', (SELECT f.trace FROM f))
$$;
COMMENT ON FUNCTION hindsight.recall_json(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool, int, bool, float8, int, jsonb) IS
    'hindsight.recall as one jsonb document {"results": [rows in rank order, without the trace column], '
    '"chunks": [...] or null, "trace": {...} or null (there with trace => true, results or none)}. '
    'include_chunks adds the source chunks of the results (hindsight.recall_chunks, '
    'packed into max_chunk_tokens). The trace (trace => true) holds the window, every arm''s hits and '
    'milliseconds, the fused candidates with source ranks, the pre-filter, every score component per '
    'result, packing and milliseconds per phase. Same arguments and errors as recall (max_results: the best 10 '
    'results by default, NULL for all), and config_seen as hindsight.recall_candidates takes it (HS412).';

CREATE OR REPLACE FUNCTION hindsight.recall_chunks(
    bank_id text,
    chunk_ids text[],
    max_chunk_tokens int DEFAULT 8192
)
RETURNS jsonb
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
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
return hpl.recall.packing.pack_chunks(texts or [], max_tokens)
$$;
COMMENT ON FUNCTION hindsight._pack_chunks(text[], int) IS
    'Packs texts in order into max_tokens (cl100k_base): whole while they fit, the first that does not is cut '
    'to the tokens left (truncated = true), then stop. Rows: 1-based position, text, tokens, truncated.';
