-- Recall, first half: the four arms, fusion, strategy boosts and the rerank pre-filter.

CREATE OR REPLACE FUNCTION hindsight._check_budget(config jsonb, budget text, max_tokens int)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF budget IS NULL OR NOT (config->'recall_budgets') ? budget THEN
        RAISE EXCEPTION 'unknown budget "%"', budget USING ERRCODE = '22023', HINT = 'Use one of low, mid, high.';
    END IF;
    IF max_tokens IS NULL OR max_tokens < 0 THEN
        RAISE EXCEPTION 'max_tokens must be an integer >= 0, got %', coalesce(max_tokens::text, 'NULL')
            USING ERRCODE = '22023';
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._check_budget(jsonb, text, int) IS
    'Recall''s budget checks (hindsight._check_recall_args, for recall_candidates; recall_finish takes the budget '
    'from the state): raises 22023 unless budget is a key of the bank config''s recall_budgets (low, mid, high) '
    'and max_tokens an integer >= 0.';

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
    -- before any model, tokenizer or text search reads it (docs/reliability.md, Bounded work)
    PERFORM hindsight._check_limit('query_chars', 'query', length(query));
    PERFORM hindsight._check_budget(config, budget, max_tokens);
    IF tags_match IS NULL OR tags_match NOT IN ('any', 'all', 'any_strict', 'all_strict', 'exact') THEN
        RAISE EXCEPTION 'unknown tags_match "%"', tags_match
            USING ERRCODE = '22023', HINT = 'Use one of any, all, any_strict, all_strict, exact.';
    END IF;
    SELECT t INTO bad FROM unnest(types) AS t WHERE t IS NULL OR t NOT IN ('world', 'experience', 'observation') LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'unknown fact type "%"', coalesce(bad, 'NULL')
            USING ERRCODE = '22023', HINT = 'Use world, experience or observation.';
    END IF;
    SELECT a INTO bad FROM unnest(arms) AS a WHERE a IS NULL OR a NOT IN ('semantic', 'keyword', 'graph', 'temporal') LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'unknown arm "%"', coalesce(bad, 'NULL')
            USING ERRCODE = '22023', HINT = CASE WHEN bad = 'bm25'
                THEN 'The bm25 arm is called keyword since 0.3.0 (BM25 is its default keyword_backend): arms => ''{keyword}''.'
                ELSE 'Arms: semantic, keyword, graph, temporal.' END;
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
    'arms, fusion, cap_per_source, temporal_window, query_embedding), and 54000 for a query longer than '
    'query_chars (hindsight.limits()).';

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
    arms text[] DEFAULT NULL,
    config_seen jsonb DEFAULT NULL
)
RETURNS hindsight.recall_state
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    -- the one read of the bank's configuration in a recall: every later stage takes it from the state
    cfg jsonb := hindsight.bank_config(recall_candidates.bank_id);
    state hindsight.recall_state;
    run_arms text[] := coalesce(arms, ARRAY['semantic', 'keyword', 'graph', 'temporal']);
    recall_budget int;
    strategy record;
    semantic_path text;
    keyword_query tsquery;
    query_terms text[];
    window_used tstzrange := temporal_window;
    window_asked tstzrange;
    window_idle text;
    semantic_hits hindsight._arm_hit[] := '{}';
    keyword_hits hindsight._arm_hit[] := '{}';
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
    PERFORM hindsight._check_config_seen(recall_candidates.bank_id, cfg, config_seen);
    PERFORM hindsight._check_recall_args(cfg, query, query_embedding, budget, max_tokens, types, tags_match,
                                         temporal_window, fusion, cap_per_source, arms);
    PERFORM hindsight._check_limit('tags', 'tags', cardinality(tags));
    PERFORM hindsight._check_limit('name_chars', 'a tag', (SELECT max(length(t)) FROM unnest(tags) t));
    recall_budget := hindsight._recall_budget(cfg, budget, max_tokens);
    SELECT * INTO strategy FROM hindsight._strategy(cfg);

    -- Without a query embedding, the bank's embedding provider makes one in the database
    -- (not for a query without a letter or digit: there is nothing to mean).
    IF query_embedding IS NULL AND (run_arms && ARRAY['semantic', 'graph']) AND query ~ '[[:alnum:]]' THEN
        step := clock_timestamp();
        query_embedding := (hindsight._embed_with(hindsight._provider(cfg, 'embedding', bank_id), ARRAY[query],
                                                     'query'))[1];
        ms := ms || jsonb_build_object('embed', extract(epoch FROM clock_timestamp() - step) * 1000);
    END IF;

    -- Semantic arm (also the graph arm's seeds).
    IF query_embedding IS NOT NULL AND (run_arms && ARRAY['semantic', 'graph']) THEN
        step := clock_timestamp();
        semantic_path := hindsight._semantic_path(bank_id, cfg);
        semantic_hits := hindsight._semantic_arm(bank_id, query_embedding, types, tags, tags_match, recall_budget,
                                                 semantic_path);
        ms := ms || jsonb_build_object('semantic', extract(epoch FROM clock_timestamp() - step) * 1000);
    END IF;

    -- Keyword arm: Okapi BM25 from the bank's term statistics (keyword_backend = bm25,
    -- the default), native full text search ranked with ts_rank_cd (native), or
    -- ParadeDB's pg_search (pg_search, pg_search.sql).
    IF 'keyword' = ANY (run_arms) THEN
        step := clock_timestamp();
        query_terms := hindsight._query_terms(query, (cfg->>'text_search_config')::regconfig);
        IF cardinality(query_terms) > 0 THEN
            IF cfg->>'keyword_backend' = 'native' THEN
                keyword_query := hindsight._keyword_query(query, (cfg->>'text_search_config')::regconfig);
                keyword_hits := hindsight._native_keyword_arm(bank_id, keyword_query, types, tags, tags_match, recall_budget);
            ELSIF cfg->>'keyword_backend' = 'pg_search' THEN
                keyword_hits := hindsight._pg_search_arm(bank_id, query, types, tags, tags_match, recall_budget);
            ELSE
                keyword_hits := hindsight._bm25_arm(bank_id, query_terms, types, tags, tags_match, recall_budget, cfg);
            END IF;
        END IF;
        ms := ms || jsonb_build_object('keyword', extract(epoch FROM clock_timestamp() - step) * 1000);
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
    -- A window that holds the whole bank ("since 2010" in a bank that starts in 2023), or no unit of
    -- it, cannot narrow anything: no temporal arm, and the ranking of a question without a window.
    window_asked := window_used;
    IF window_used IS NOT NULL THEN
        window_idle := hindsight._window_reach(bank_id, window_used);
        IF window_idle IS NOT NULL THEN
            window_used := NULL;
        END IF;
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
                             || keyword_hits || graph_hits || temporal_hits) h
        WHERE cap_per_source IS NULL OR h.rank <= cap_per_source);
    -- Every fused unit is counted; only the kept ones (the best reranker_max_candidates) are read.
    WITH fused AS MATERIALIZED (
        SELECT f.*, row_number() OVER (ORDER BY f.rrf_score DESC, f.semantic_rank NULLS LAST, f.keyword_rank NULLS LAST,
                                       f.graph_rank NULLS LAST, f.temporal_rank NULLS LAST, f.unit_id)::int AS pos
        FROM hindsight._fuse(fused_hits, fusion, (cfg->>'rrf_k')::float8, cfg->'arm_weights', strategy.divisors) f
    ), kept AS (
        SELECT c.pos AS candidate_rank, c.unit_id,
               hindsight._rerank_text(u.text, u.context, u.occurred_start) AS rerank_text,
               c.rrf_score, c.semantic_rank, c.semantic_score, c.keyword_rank, c.keyword_score,
               c.graph_rank, c.graph_score, c.temporal_rank, c.temporal_score,
               hindsight._proximity(hindsight._best_date(u.occurred_start, u.occurred_end, u.mentioned_at),
                                    window_used) AS temporal_proximity,
               coalesce((strategy.additive->>'semantic')::float8, 0) * (c.semantic_rank IS NOT NULL)::int
               + coalesce((strategy.additive->>'keyword')::float8, 0) * (c.keyword_rank IS NOT NULL)::int
               + coalesce((strategy.additive->>'graph')::float8, 0) * (c.graph_rank IS NOT NULL)::int
               + coalesce((strategy.additive->>'temporal')::float8, 0) * (c.temporal_rank IS NOT NULL)::int
                   AS boost_additive
        FROM fused c
        JOIN hindsight.memory_units u ON u.bank_id = recall_candidates.bank_id AND u.id = c.unit_id
        WHERE c.pos <= (cfg->>'reranker_max_candidates')::int
    )
    -- kept's columns are hindsight.recall_candidate's fields, named and in its order (jsonb_populate_record
    -- would match them by name, at 20 times the cost)
    SELECT (SELECT count(*) FROM fused)::int,
           coalesce((SELECT array_agg(k::hindsight.recall_candidate ORDER BY k.candidate_rank) FROM kept k), '{}')
    INTO fused_count, candidates;
    ms := ms || jsonb_build_object('fusion', extract(epoch FROM clock_timestamp() - step) * 1000);

    state.bank_id := bank_id;
    state.config := cfg;
    state.query := query;
    state.budget := budget;
    state.recall_budget := recall_budget;
    state.max_tokens := max_tokens;
    state.query_timestamp := coalesce(query_timestamp, now());
    state.temporal_window := window_used;
    state.candidates := candidates;
    IF trace THEN
        -- the phase is the recall's work: what building the trace costs is counted apart (phases_ms.trace)
        ms := ms || jsonb_build_object('candidates', extract(epoch FROM clock_timestamp() - started) * 1000);
        step := clock_timestamp();
        state.trace := jsonb_build_object(
            'bank_id', bank_id,
            'query', query,
            'budget', budget,
            'recall_budget', recall_budget,
            'max_tokens', max_tokens,
            'query_timestamp', state.query_timestamp,
            'temporal_window', CASE WHEN window_asked IS NULL THEN NULL
                                    ELSE jsonb_build_object('start', lower(window_asked), 'end', upper(window_asked),
                                                            'source', CASE WHEN temporal_window IS NULL THEN 'query'
                                                                           ELSE 'argument' END,
                                                            'narrows', window_idle IS NULL) END,
            'query_analysis_ms', ms->'query_analysis',
            'filters', jsonb_build_object('types', types, 'tags', tags, 'tags_match', tags_match),
            'arms', jsonb_build_object(
                'semantic', jsonb_build_object(
                    'ran', query_embedding IS NOT NULL AND 'semantic' = ANY (run_arms),
                    'index', CASE WHEN semantic_path IS NULL THEN NULL
                                  WHEN semantic_path = 'hnsw' THEN 'hindsight.memory_units_embedding_idx'
                                  ELSE 'exact scan' END,
                    -- the first scan's: the plain scan's where the bank has one, else the iterative scan's
                    'ef_search', CASE WHEN semantic_path = 'hnsw'
                                      THEN coalesce(hindsight._plain_ef_search(bank_id, recall_budget),
                                                    least(recall_budget, 1000)) END,
                    'ms', ms->'semantic',
                    'hits', hindsight._trace_hits(semantic_hits)),
                'keyword', jsonb_build_object(
                    'ran', coalesce(cardinality(query_terms), 0) > 0, 'backend', cfg->>'keyword_backend',
                    'terms', to_jsonb(query_terms), 'tsquery', keyword_query::text, 'ms', ms->'keyword',
                    'hits', hindsight._trace_hits(keyword_hits)),
                'graph', jsonb_build_object(
                    'ran', 'graph' = ANY (run_arms) AND cardinality(semantic_hits) > 0, 'ms', ms->'graph',
                    'hits', hindsight._trace_hits(graph_hits)),
                'temporal', jsonb_build_object(
                    'ran', 'temporal' = ANY (run_arms) AND window_used IS NOT NULL,
                    'skipped', window_idle, 'ms', ms->'temporal',
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
                    'semantic', count(c.semantic_rank), 'keyword', count(c.keyword_rank),
                    'graph', count(c.graph_rank), 'temporal', count(c.temporal_rank))
                    FROM unnest(candidates) c),
                'candidates', (SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                    'id', c.unit_id, 'rank', c.candidate_rank, 'rrf', c.rrf_score,
                    'source_ranks', jsonb_strip_nulls(jsonb_build_object(
                        'semantic', c.semantic_rank, 'keyword', c.keyword_rank,
                        'graph', c.graph_rank, 'temporal', c.temporal_rank)))) ORDER BY c.candidate_rank), '[]')
                    FROM unnest(candidates) c)));
        state.trace := state.trace || jsonb_build_object('phases_ms', jsonb_build_object(
            'candidates', ms->'candidates', 'trace', extract(epoch FROM clock_timestamp() - step) * 1000));
    END IF;
    RETURN state;
END
$$;
COMMENT ON FUNCTION hindsight.recall_candidates(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], jsonb) IS
$$First half of hindsight.recall: reads the bank's configuration (once for the whole recall), runs the arms
(semantic, keyword, graph, temporal; arms => a subset; without query_embedding the bank's embedding provider
embeds the query in the database, hindsight.embed), fuses them (fusion => 'rrf' with per-bank arm_weights and
strategy_boosts rank divisors, or 'interleave'; cap_per_source keeps each arm's top N first) and keeps the best
reranker_max_candidates (300) by fused score. Returns one hindsight.recall_state: the config, query, budget,
window and query time, the candidates in fused order (hindsight.recall_candidate, each with the text a
cross-encoder should score: (state).candidates) and, with trace => true, the trace so far. Pass it to
hindsight.texts_to_rerank and hindsight.recall_finish. config_seen: the effective config the caller chose its
query embedder with (NULL: not said); HS412 when it is no longer the bank's. Otherwise the same errors as recall.$$;

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
