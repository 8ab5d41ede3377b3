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

CREATE OR REPLACE FUNCTION hindsight._reader_candidates(config jsonb, budget text)
RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT least((config->'reranker_candidates'->>budget)::int, (config->>'reranker_max_candidates')::int)
$$;
COMMENT ON FUNCTION hindsight._reader_candidates(jsonb, text) IS
    'How many candidates a cross-encoder reads for a budget: reranker_candidates[budget] (low 5, mid 10, high 30 by '
    'default: the quality-latency curve of docs/benchmarks.md), at most '
    'reranker_max_candidates. NULL for an unknown budget.';

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
    -- interleave: round-robin over semantic, keyword, graph, temporal (each arm's #1,
    -- then each arm's #2, ...), a unit placed where it first appears; fused =
    -- 1 / (k + position). Every unit keeps its rank and score in each arm.
    WITH per_unit AS (
        SELECT h.unit_id,
               sum(coalesce((weights->>h.arm)::float8, 1.0)
                   / (k + h.rank / coalesce((divisors->>h.arm)::float8, 1.0))) AS rrf,
               min(h.rank * 4 + array_position(ARRAY['semantic', 'keyword', 'graph', 'temporal'], h.arm)) AS first_slot,
               min(h.rank) FILTER (WHERE h.arm = 'semantic') AS semantic_rank,
               max(h.score) FILTER (WHERE h.arm = 'semantic') AS semantic_score,
               min(h.rank) FILTER (WHERE h.arm = 'keyword') AS keyword_rank,
               max(h.score) FILTER (WHERE h.arm = 'keyword') AS keyword_score,
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
           p.semantic_rank, p.semantic_score, p.keyword_rank, p.keyword_score,
           p.graph_rank, p.graph_score, p.temporal_rank, p.temporal_score
    FROM per_unit p
$$;
COMMENT ON FUNCTION hindsight._fuse(hindsight._arm_hit[], text, float8, jsonb, jsonb) IS
    'Fuses ranked arm hits (arms semantic, keyword, graph, temporal; ranks 1-based) into one row per unit. '
    'rrf: sum of weight/(k + rank/divisor) (Cormack et al. 2009); interleave: 1/(k + round-robin position). '
    'Each row keeps every arm''s rank and score. Unordered.';
