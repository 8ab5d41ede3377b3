-- Reciprocal rank fusion.

CREATE OR REPLACE FUNCTION hindsight._rrf_fuse(
    hits hindsight._arm_hit[],
    k float8 DEFAULT 60
)
RETURNS SETOF hindsight._fused_hit
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- score(d) = sum over arms of 1 / (k + rank_arm(d)), ranks 1-based
    -- (Cormack, Clarke & Buettcher, "Reciprocal Rank Fusion outperforms Condorcet
    -- and individual Rank Learning Methods", SIGIR 2009; k = 60 as there and in
    -- Hindsight's TEMPR). Each unit keeps its rank and score in every arm.
    SELECT h.unit_id,
           sum(1.0 / (k + h.rank))::float8,
           min(h.rank) FILTER (WHERE h.arm = 'semantic'),
           max(h.score) FILTER (WHERE h.arm = 'semantic'),
           min(h.rank) FILTER (WHERE h.arm = 'bm25'),
           max(h.score) FILTER (WHERE h.arm = 'bm25'),
           min(h.rank) FILTER (WHERE h.arm = 'graph'),
           max(h.score) FILTER (WHERE h.arm = 'graph'),
           min(h.rank) FILTER (WHERE h.arm = 'temporal'),
           max(h.score) FILTER (WHERE h.arm = 'temporal')
    FROM pg_catalog.unnest(hits) AS h
    GROUP BY h.unit_id
$$;
COMMENT ON FUNCTION hindsight._rrf_fuse(hindsight._arm_hit[], float8) IS
    'Reciprocal rank fusion of ranked arm hits (arms semantic, bm25, graph, temporal; ranks 1-based): '
    'one row per unit with rrf_score = sum of 1/(k + rank) and its rank and score in each arm. '
    'Unordered; callers order by rrf_score.';
