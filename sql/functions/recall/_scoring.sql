-- Per-unit signals and the combined score (Hindsight TEMPR, "combined scoring").
-- Each boost is 1 + alpha * (signal - 0.5), so a neutral signal (0.5) leaves the
-- score as it is; the defaults alpha = 0.1 (recency), 0.2 (temporal), 0.1 (proof)
-- bound the product to [0.8146, 1.2074].

CREATE OR REPLACE FUNCTION hindsight._best_date(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE  -- as timestamptz + interval is; IMMUTABLE would stop the planner inlining it
AS $$
    SELECT CASE WHEN occurred_start IS NOT NULL AND occurred_end IS NOT NULL
                THEN occurred_start + (occurred_end - occurred_start) / 2
                ELSE hindsight._effective_date(occurred_start, occurred_end, mentioned_at) END
$$;
COMMENT ON FUNCTION hindsight._best_date(timestamptz, timestamptz, timestamptz) IS
    'The date temporal proximity measures from: the midpoint of occurred_start and occurred_end when both '
    'exist, else the unit''s date (hindsight._effective_date).';

CREATE OR REPLACE FUNCTION hindsight._proximity(
    best_date timestamptz,
    temporal_window tstzrange
)
RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE  -- as timestamptz + interval is; IMMUTABLE would stop the planner inlining it
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
        ELSE hindsight._recency_of(hindsight._effective_date(occurred_start, occurred_end, mentioned_at),
                                   query_timestamp, method, horizon_days, half_life_days)
    END
$$;
COMMENT ON FUNCTION hindsight._recency(timestamptz, timestamptz, timestamptz, timestamptz, text, float8, float8) IS
    'Recency signal in [0, 1] of a unit at query_timestamp. Date: the one it is filed under '
    '(hindsight._effective_date); a coarse period (>= 27 days) counts from its end and is capped at 0.5. linear: '
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

CREATE OR REPLACE FUNCTION hindsight._calibrated(
    rrf_score float8,
    best_rrf float8,
    cosine float8,
    min_cosine float8,
    max_cosine float8,
    keyword_score float8,
    best_keyword float8,
    temporal_score float8,
    windowed bool,
    weights jsonb
)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- (w_rrf * rrf / best + w_semantic * (cos - min) / (max - min) + w_keyword * keyword / best
    --  [+ w_temporal * temporal arm score, under a time window]) / the sum of the weights in force:
    -- a term is 0 when its arm did not score the unit (or every candidate scored alike), and the
    -- result is in [0, 1]. A convex combination of normalised scores (Bruch, Gai & Ingber, TOIS
    -- 2023), with the fused score as a signal of its own so that the graph arm still counts.
    -- one expression, so that the planner inlines it (a call per candidate costs more than the arithmetic)
    SELECT (coalesce((weights->>'rrf')::float8, 0) * coalesce(rrf_score / nullif(best_rrf, 0), 0)
            + coalesce((weights->>'semantic')::float8, 0)
              * coalesce((cosine - min_cosine) / nullif(max_cosine - min_cosine, 0), 0)
            + coalesce((weights->>'keyword')::float8, 0) * coalesce(keyword_score / nullif(best_keyword, 0), 0)
            + CASE WHEN windowed THEN coalesce((weights->>'temporal')::float8, 0) ELSE 0 END
              * coalesce(least(greatest(temporal_score, 0), 1), 0))
           / nullif(coalesce((weights->>'rrf')::float8, 0) + coalesce((weights->>'semantic')::float8, 0)
                    + coalesce((weights->>'keyword')::float8, 0)
                    + CASE WHEN windowed THEN coalesce((weights->>'temporal')::float8, 0) ELSE 0 END, 0)
$$;
COMMENT ON FUNCTION hindsight._calibrated(float8, float8, float8, float8, float8, float8, float8, float8, bool, jsonb) IS
    'The calibrated passthrough score of one candidate, in [0, 1]: (weights.rrf * rrf / best rrf + weights.semantic '
    '* (cosine - min cosine) / (max - min) + weights.keyword * keyword / best keyword + weights.temporal * temporal arm score '
    '(only when windowed)) / the sum of the weights in force; min and best over the candidates, a missing score '
    'counts 0. Convex combination of normalised scores (Bruch, Gai & Ingber, "An Analysis of Fusion Functions for '
    'Hybrid Retrieval", ACM TOIS 2023).';

CREATE OR REPLACE FUNCTION hindsight._relevance(logit float8, cosine float8, embedding_model text)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Platt scaling (a logistic fit of "answers the question" on one score) on the development splits' recall
    -- candidates (LongMemEval's training questions and the agent-memory suite's dev split; bench/calibrate_relevance.py,
    -- docs/recall.md "Relevance"): the packaged reader's logit where it read the unit, else the cosine of a
    -- multilingual-e5-small bank; NULL when neither applies (another model's cosines are on another scale)
    SELECT CASE WHEN logit IS NOT NULL AND logit <> 'NaN'
                THEN 1 / (1 + exp(-greatest(-50, least(50, 0.3597 * logit - 1.7333))))
                WHEN cosine IS NOT NULL AND embedding_model = 'multilingual-e5-small'
                THEN 1 / (1 + exp(-greatest(-50, least(50, 60.847 * cosine - 55.0159))))
           END
$$;
COMMENT ON FUNCTION hindsight._relevance(float8, float8, text) IS
    'A recalled unit''s relevance in [0, 1], the same across recalls: sigmoid(0.3597 logit - 1.7333) for the packaged '
    'reader''s logit, else sigmoid(60.847 cosine - 55.0159) for the query''s cosine in a multilingual-e5-small bank, '
    'else NULL (bench/calibrate_relevance.py fitted both).';

CREATE OR REPLACE FUNCTION hindsight._packaged_reader(provider jsonb)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(provider->>'kind' = 'local' AND provider->>'model' = 'hindsight-reader', false)
$$;
COMMENT ON FUNCTION hindsight._packaged_reader(jsonb) IS
    'Whether a reranker provider config is the packaged reader (local, hindsight-reader): the one whose logits '
    'hindsight._relevance is calibrated for.';
