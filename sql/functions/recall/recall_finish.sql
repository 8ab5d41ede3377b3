-- Recall, second half: rerank scores (or the passthrough), combined scoring, packing. Every function here
-- takes the recall's state (hindsight.recall_state, made by hindsight.recall_candidates): the bank's config,
-- query time, window and candidates come from it, never again from the bank.

CREATE OR REPLACE FUNCTION hindsight._boosted(state hindsight.recall_state, passthrough text)
RETURNS SETOF hindsight._boosted_candidate
LANGUAGE plpgsql STABLE  -- not sql: Citus plans no query on a distributed table with a SQL function's parameters
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := state.config;
    bank text := state.bank_id;
    candidates hindsight.recall_candidate[] := state.candidates;
BEGIN
    RETURN QUERY
    -- Passthrough score (every candidate; with a reader it is the reader's partner in recall_finish's fusion):
    -- calibrated = a relevance score in [0, 1] made of the arms' own scores, as a cross-encoder
    --   would give one: passthrough_weights (rrf 0.5, semantic 0.25, keyword 0.25, temporal 0.25 under
    --   a time window) times the fused score / best, the cosine min-max scaled over the candidates,
    --   the keyword score / best and the temporal arm's score, over the weights' sum (a convex
    --   combination of normalised scores, Bruch, Gai & Ingber, "An Analysis of Fusion Functions for
    --   Hybrid Retrieval", TOIS 2023); its top ten spread widely enough that the boosts reorder only
    --   near-ties;
    -- normalized = fused score / best fused score;
    -- rank_linear = the fused rank mapped linearly onto [1.0, 0.1] (the reference design).
    -- boosted = passthrough * recency boost * temporal boost * proof boost + strategy bonus,
    -- each boost 1 + alpha * (signal - 0.5) (Hindsight TEMPR's combined scoring).
    WITH c AS (
        SELECT c.*,
               CASE passthrough
                   WHEN 'rank_linear' THEN CASE WHEN cardinality(candidates) <= 1 THEN 1.0
                                                ELSE 1.0 - 0.9 * (c.ordinality - 1) / (cardinality(candidates) - 1.0) END
                   WHEN 'normalized' THEN c.rrf_score / nullif(max(c.rrf_score) OVER (), 0)
                   ELSE hindsight._calibrated(c.rrf_score, max(c.rrf_score) OVER (), c.semantic_score,
                                              min(c.semantic_score) OVER (), max(c.semantic_score) OVER (),
                                              c.keyword_score, max(c.keyword_score) OVER (), c.temporal_score,
                                              c.temporal_proximity IS NOT NULL, cfg->'passthrough_weights') END
                   AS passthrough_score
        FROM unnest(candidates) WITH ORDINALITY AS c
    ), b AS (
        SELECT c.ordinality::int AS candidate_order, c.unit_id, c.candidate_rank, c.rerank_text, u.token_count,
               c.passthrough_score,
               hindsight._recency(u.occurred_start, u.occurred_end, u.mentioned_at, state.query_timestamp,
                                  cfg->>'recency_function', (cfg->>'recency_horizon_days')::float8,
                                  (cfg->>'recency_half_life_days')::float8) AS recency,
               hindsight._proof(u.proof_count) AS proof,
               c.temporal_proximity, c.boost_additive
        FROM c
        JOIN hindsight.memory_units u ON u.bank_id = bank AND u.id = c.unit_id
    ), s AS (
        SELECT b.candidate_order, b.unit_id, b.candidate_rank, b.rerank_text, b.token_count, b.passthrough_score,
               b.recency, b.proof,
               b.passthrough_score
                   -- under a time window the question names its period: recency does not count
                   * CASE WHEN b.temporal_proximity IS NULL
                          THEN hindsight._boost(b.recency, (cfg->>'recency_alpha')::float8) ELSE 1.0 END
                   * hindsight._boost(b.temporal_proximity, (cfg->>'temporal_alpha')::float8)
                   * hindsight._boost(b.proof, (cfg->>'proof_alpha')::float8)
                   + coalesce(b.boost_additive, 0) AS boosted
        FROM b
    )
    -- the columns of hindsight._boosted_candidate, in its order
    SELECT s.candidate_order, s.unit_id, s.candidate_rank, s.rerank_text, s.token_count, s.passthrough_score,
           s.recency, s.proof, s.boosted,
           (row_number() OVER (ORDER BY s.boosted DESC, s.candidate_rank))::int AS boosted_rank
    FROM s
    ORDER BY s.candidate_order;
END
$$;
COMMENT ON FUNCTION hindsight._boosted(hindsight.recall_state, text) IS
    'Each candidate''s rerank_text, passthrough score (calibrated, normalized or rank_linear), recency, proof, boosted score '
    '(passthrough times the recency, temporal-proximity and proof boosts plus the strategy bonus) and its rank '
    'by boosted score (ties by fused rank), in candidate order: what hindsight.recall_finish scores and what '
    'hindsight.texts_to_rerank orders by. The config and query time come from the recall''s state.';

CREATE OR REPLACE FUNCTION hindsight._texts_to_read(boosted hindsight._boosted_candidate[], how_many int)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(array_agg(b.rerank_text ORDER BY b.boosted_rank), '{}')
    FROM unnest(boosted) b
    WHERE b.boosted_rank <= how_many
$$;
COMMENT ON FUNCTION hindsight._texts_to_read(hindsight._boosted_candidate[], int) IS
    'The rerank_text of the how_many best candidates by boosted rank, in that order (hindsight._boosted''s rows).';

CREATE OR REPLACE FUNCTION hindsight._check_state(state hindsight.recall_state, passthrough text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF state IS NULL OR state.config IS NULL OR state.bank_id IS NULL THEN
        RAISE EXCEPTION 'state must be a recall''s state, got %', coalesce(state::text, 'NULL')
            USING ERRCODE = '22023', HINT = 'Pass what hindsight.recall_candidates returned.';
    END IF;
    IF passthrough IS NULL OR passthrough NOT IN ('calibrated', 'normalized', 'rank_linear') THEN
        RAISE EXCEPTION 'unknown passthrough "%"', passthrough
            USING ERRCODE = '22023', HINT = 'Use calibrated, normalized or rank_linear.';
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._check_state(hindsight.recall_state, text) IS
    'Raises 22023 unless state is a recall''s state (bank and config set: what hindsight.recall_candidates '
    'returns) and passthrough one of calibrated, normalized, rank_linear.';

CREATE OR REPLACE FUNCTION hindsight.texts_to_rerank(
    state hindsight.recall_state,
    passthrough text DEFAULT 'calibrated'
)
RETURNS text[]
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
BEGIN
    PERFORM hindsight._check_state(state, passthrough);
    RETURN hindsight._texts_to_read(ARRAY(SELECT b FROM hindsight._boosted(state, passthrough) b),
                                    hindsight._reader_candidates(state.config, state.budget));
END
$$;
COMMENT ON FUNCTION hindsight.texts_to_rerank(hindsight.recall_state, text) IS
$$The texts a cross-encoder reads for hindsight.recall_finish, in the order it takes their scores: the
rerank_text of the best reranker_candidates[budget] candidates (low 5, mid 10, high 30 by default; at most
reranker_max_candidates) by boosted passthrough score (hindsight.recall_finish's score without a reader), so the
reader reads what recall would otherwise have shown first. state: what hindsight.recall_candidates returned (its
budget, config and query time); passthrough as given to recall_finish. Returns text[] ({} for no candidates).
Errors: 22023 not a recall's state, unknown passthrough.$$;

CREATE OR REPLACE FUNCTION hindsight._recall_finish(
    state hindsight.recall_state,
    rerank_scores float8[] DEFAULT NULL,
    passthrough text DEFAULT 'calibrated',
    prefer_observations bool DEFAULT false,
    read bool DEFAULT false,
    max_results int DEFAULT NULL,
    min_relevance float8 DEFAULT NULL
)
RETURNS hindsight.recall_state
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := state.config;
    bank text := state.bank_id;
    first_row hindsight.recall_result;
    shown int[];
    shown_ids uuid[];
    unit_rows hindsight.memory_units[];
    candidates hindsight.recall_candidate[] := state.candidates;
    ranked hindsight._boosted_candidate[];
    reader float8[];
    scored hindsight._scored_candidate[];
    kept int[] := '{}';
    first_skip int;
    started timestamptz := clock_timestamp();
    finish_ms float8;
    rrf_k float8 := (state.config->>'rrf_k')::float8;
    reader_weight float8 := (state.config->>'reranker_weight')::float8;
    by_score uuid[];
    after_updates uuid[];
    after_window uuid[];
    -- the bank's cross-encoder, from the config in hand (no second read of it)
    reader_provider jsonb := hindsight._provider(state.config, 'reranker', state.bank_id);
    -- the reader's logits are the packaged reader's, read here: hindsight._relevance's calibration holds for them
    calibrated bool := false;
    -- the semantic arm's last cosine: no more than what a candidate it did not return has (NULL when it ran not)
    lowest_cosine float8 := (SELECT min(c.semantic_score) FROM unnest(candidates) c);
    relevance jsonb;
BEGIN
    PERFORM hindsight._check_state(state, passthrough);
    IF min_relevance < 0 OR min_relevance > 1 OR min_relevance = 'NaN' THEN
        RAISE EXCEPTION 'min_relevance must be within [0, 1] or NULL (no floor), got %', min_relevance
            USING ERRCODE = '22023';
    END IF;
    IF rerank_scores IS NOT NULL AND cardinality(rerank_scores) > coalesce(cardinality(candidates), 0) THEN
        RAISE EXCEPTION 'rerank_scores has % scores for % candidates', cardinality(rerank_scores),
            coalesce(cardinality(candidates), 0)
            USING ERRCODE = '22023',
                  HINT = 'Give one raw score per text of hindsight.texts_to_rerank, in its order (the best by boosted score first).';
    END IF;
    ranked := ARRAY(SELECT b FROM hindsight._boosted(state, passthrough) b);
    -- hindsight.recall's rerank stage (read): the bank's cross-encoder reads the passthrough's best
    -- (it gives NULL when it does not read the query's script or the packaged reader is missing)
    IF read AND state.query IS NOT NULL AND rerank_scores IS NULL AND cardinality(ranked) > 0
       AND reader_provider->>'kind' <> 'none' THEN
        rerank_scores := hindsight._rerank_with(
            reader_provider, state.query,
            hindsight._texts_to_read(ranked, hindsight._reader_candidates(cfg, state.budget)));
        calibrated := rerank_scores IS NOT NULL AND hindsight._packaged_reader(reader_provider);
    END IF;
    reader := CASE WHEN rerank_scores IS NOT NULL THEN hindsight._normalize_rerank(rerank_scores) END;

    -- Without a reader, final = boosted (hindsight._boosted). With one (rerank_scores: raw scores of the
    -- first candidates by boosted rank, the ones it read, hindsight.texts_to_rerank), the final score fuses the
    -- reader's rank with the boosted passthrough's rank by weighted RRF (Cormack et al. 2009), scaled so that
    -- first in both is 1.0:
    --   final = (k + 1) * (w / (k + reader rank) + (1 - w) / (k + boosted rank)),  k = rrf_k, w = reranker_weight;
    -- a candidate the reader did not read has only the second term (and, for w >= 0.5, ranks below every one it
    -- read). Ranks rather than scores: the reader's logits and the passthrough are on different scales.
    WITH b AS (
        SELECT x.*, rerank_scores[x.boosted_rank] AS rerank_raw FROM unnest(ranked) x
    ), s AS (
        SELECT b.unit_id, b.candidate_rank, b.token_count, b.rerank_raw, b.recency, b.proof,
               coalesce(reader[b.boosted_rank], b.passthrough_score) AS rerank_score,
               CASE WHEN rerank_scores IS NULL THEN b.boosted
                    ELSE (rrf_k + 1) * (
                        CASE WHEN b.rerank_raw IS NULL THEN 0.0
                             ELSE reader_weight / (rrf_k + row_number() OVER (
                                 PARTITION BY b.rerank_raw IS NULL
                                 ORDER BY CASE WHEN b.rerank_raw = 'NaN' THEN '-Infinity' ELSE b.rerank_raw END DESC,
                                          b.candidate_rank)) END
                        + (1 - reader_weight) / (rrf_k + b.boosted_rank))
               END AS final_score
        FROM b
    )
    -- the columns of hindsight._scored_candidate, in its order
    SELECT coalesce(array_agg(ROW(s.unit_id, s.final_score, s.rerank_raw, s.rerank_score, s.recency, s.proof,
                                  s.token_count)::hindsight._scored_candidate
                              ORDER BY s.final_score DESC, s.candidate_rank), '{}')
    INTO scored
    FROM s;

    -- Relevance: a probability that the unit answers, the same across recalls (hindsight._relevance): from the
    -- packaged reader's logit where it read, else from the cosine (the semantic arm's score, or its last one for a
    -- unit it did not return: an upper bound)
    SELECT jsonb_object_agg(b.unit_id, hindsight._relevance(
               CASE WHEN calibrated THEN rerank_scores[b.boosted_rank] END,
               coalesce(c.semantic_score, lowest_cosine), cfg->>'embedding_model'))
    INTO relevance
    FROM unnest(ranked) b
    JOIN unnest(candidates) c ON c.unit_id = b.unit_id;

    -- Updates win: a superseded unit ranks right below the unit that supersedes it (_updates.sql), unless the
    -- question asks about the past ("what did we plan before ...").
    -- each rule's moves are kept for the trace: the order before it and after it
    by_score := ARRAY(SELECT s.unit_id FROM unnest(scored) s);
    IF cfg->>'updates_win' <> 'off' AND NOT hindsight._asks_history(state.query) THEN
        scored := hindsight._updates_win(bank, scored, cfg);
    END IF;
    after_updates := ARRAY(SELECT s.unit_id FROM unnest(scored) s);
    -- The window ranks: under a time window (parsed or given) every candidate dated inside it (proximity > 0)
    -- and among the first window_reach ranks above every one outside it, each part in its order, unless the
    -- bank's window_first is false; an in-window candidate past window_reach stays where it ranks (a date alone
    -- does not make a memory relevant).
    IF (cfg->>'window_first')::bool AND EXISTS (SELECT FROM unnest(candidates) c WHERE c.temporal_proximity > 0) THEN
        scored := hindsight._reordered(scored, ARRAY(
            SELECT s.unit_id
            FROM unnest(scored) WITH ORDINALITY AS s
            JOIN unnest(candidates) c ON c.unit_id = s.unit_id
            ORDER BY coalesce(c.temporal_proximity > 0 AND s.ordinality <= (cfg->>'window_reach')::int, false) DESC,
                     s.ordinality));
    END IF;

    after_window := ARRAY(SELECT s.unit_id FROM unnest(scored) s);

    -- With prefer_observations, a fact that an observation among the best recall_budget * 2 already
    -- cites (hindsight.observation_sources) gives way to it.
    IF prefer_observations THEN
        scored := ARRAY(
            SELECT scored[i]
            FROM generate_subscripts(scored, 1) AS i
            WHERE NOT EXISTS (
                SELECT FROM hindsight.observation_sources os
                JOIN unnest(scored[1:state.recall_budget * 2]) b ON b.unit_id = os.observation_id
                WHERE os.bank_id = bank AND os.unit_id = (scored[i]).unit_id)
            ORDER BY i);
    END IF;

    -- min_relevance: what is plainly unrelated does not fill a spare budget (a unit of unknown relevance stays)
    IF min_relevance IS NOT NULL THEN
        scored := ARRAY(SELECT scored[i] FROM generate_subscripts(scored, 1) AS i
                        WHERE coalesce((relevance->>((scored[i]).unit_id::text))::float8 >= min_relevance, true)
                        ORDER BY i);
    END IF;

    -- Packing of the best recall_budget * 2 into max_tokens.
    kept := hindsight._pack_by_tokens(ARRAY(SELECT s.token_count FROM unnest(scored[1:state.recall_budget * 2])
                                            WITH ORDINALITY AS s ORDER BY s.ordinality),
                                      state.max_tokens);
    -- What fills the budget past the first result that did not fit is not what is plainly unrelated: relevance
    -- below 0.001 (docs/recall.md, "Packing"; a unit of unknown relevance stays). Up to that skip nothing changes.
    first_skip := (SELECT min(i) FROM generate_series(1, coalesce(kept[cardinality(kept)], 0)) i
                   WHERE i <> ALL (kept));
    IF first_skip IS NOT NULL THEN
        kept := ARRAY(SELECT k FROM unnest(kept) k
                      WHERE k < first_skip
                         OR coalesce((relevance->>((scored[k]).unit_id::text))::float8 >= 0.001, true)
                      ORDER BY k);
    END IF;

    -- the best max_results of the packed results (NULL: all), the trace on the first; only these rows are made
    -- The units' own columns are read by one statement with the bank and the ids as constants: on Citus, a
    -- plpgsql variable in a statement on a distributed table reached the worker as a parameter of no type
    -- ("could not determine data type of parameter"). The rows are then put together from arrays in hand.
    shown := kept[1:coalesce(max_results, cardinality(kept))];
    shown_ids := ARRAY(SELECT (scored[k.position]).unit_id FROM unnest(shown) AS k(position));
    EXECUTE format('SELECT ARRAY(SELECT u FROM hindsight.memory_units u WHERE u.bank_id = %L AND u.id = ANY (%L::uuid[]))',
                   bank, shown_ids)
        INTO unit_rows;
    state.results := ARRAY(
        SELECT ROW(k.rank::int, u.id, u.text, u.fact_type, u.context, u.occurred_start, u.occurred_end,
                   u.mentioned_at, u.document_id, u.chunk_id, u.tags, u.metadata, u.token_count,
                   s.final_score, c.rrf_score, s.rerank_score, s.recency, c.temporal_proximity, s.proof,
                   c.semantic_rank, c.semantic_score, c.keyword_rank, c.keyword_score,
                   c.graph_rank, c.graph_score, c.temporal_rank, c.temporal_score,
                   NULL::jsonb, (relevance->>(s.unit_id::text))::float8)::hindsight.recall_result
                   -- recall_result's order; the trace, below
        FROM unnest(shown) WITH ORDINALITY AS k(position, rank)
        JOIN unnest(scored) WITH ORDINALITY AS s ON s.ordinality = k.position
        JOIN unnest(candidates) c ON c.unit_id = s.unit_id
        JOIN unnest(unit_rows) u ON u.id = s.unit_id
        ORDER BY k.rank);
    -- The trace, last: the phase is the recall's work, and what building the trace costs is counted apart
    -- (phases_ms.trace, not in total_ms).
    IF state.trace IS NOT NULL THEN
        finish_ms := extract(epoch FROM clock_timestamp() - started) * 1000;
        started := clock_timestamp();
        state.trace := state.trace || jsonb_build_object(
            'rerank', jsonb_build_object(
                'method', CASE WHEN rerank_scores IS NOT NULL THEN 'cross-encoder' ELSE 'passthrough:' || passthrough END,
                'passthrough', passthrough,
                'candidates', coalesce(cardinality(candidates), 0),
                'read', coalesce(cardinality(rerank_scores), 0),
                'weight', CASE WHEN rerank_scores IS NOT NULL THEN cfg->'reranker_weight' END,
                -- why the passthrough alone ranked, when recall asked its reader (NULL when it read)
                'why_passthrough', CASE WHEN read AND rerank_scores IS NULL AND state.query IS NOT NULL
                                             AND cardinality(ranked) > 0
                                        THEN hindsight._unread(reader_provider, state.query) END),
            'scoring', jsonb_build_object(
                'recency_function', cfg->'recency_function', 'query_timestamp', state.query_timestamp,
                'alphas', jsonb_build_object('recency', cfg->'recency_alpha', 'temporal', cfg->'temporal_alpha',
                                             'proof', cfg->'proof_alpha'),
                'results', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                        'id', x.unit_id, 'position', x.ordinality, 'final', x.final_score,
                        'rerank_raw', x.rerank_raw, 'rerank_rank', x.rerank_rank,
                        'rerank', x.rerank_score, 'rrf', x.rrf_score,
                        'recency', x.recency, 'temporal', x.temporal_proximity, 'proof', x.proof,
                        'strategy_bonus', x.boost_additive, 'relevance', relevance->(x.unit_id::text),
                        'superseded_by', x.superseded_by,
                        'moved', x.moved) ORDER BY x.ordinality), '[]')
                    FROM (SELECT s.unit_id, s.ordinality, s.final_score, s.rerank_raw, s.rerank_score, s.recency,
                                 s.proof, c.rrf_score, c.temporal_proximity, c.boost_additive,
                                 -- the candidates that supersede it (knowledge updates), NULL when none does
                                 (SELECT jsonb_agg(l.from_unit_id ORDER BY l.from_unit_id)
                                  FROM hindsight.memory_links l
                                  WHERE l.bank_id = bank AND l.to_unit_id = s.unit_id
                                    AND l.link_type = 'supersedes'
                                    AND l.from_unit_id IN (SELECT c2.unit_id FROM unnest(candidates) c2))
                                     AS superseded_by,
                                 -- what the rules after the scores did to it: updates-win moved it below the
                                 -- update that supersedes it (or moved the update above it), the window rule
                                 -- lifted it as dated in the window; NULL when neither did (a unit only
                                 -- pushed down a place by another's move is not listed)
                                 (SELECT jsonb_agg(m.move) FROM (
                                     SELECT jsonb_build_object('by', 'updates-win',
                                                'from', array_position(by_score, s.unit_id),
                                                'to', array_position(after_updates, s.unit_id), 'next_to', o.other) AS move
                                     FROM (SELECT CASE WHEN l.to_unit_id = s.unit_id THEN l.from_unit_id ELSE l.to_unit_id END
                                                      AS other, l.to_unit_id = s.unit_id AS superseded
                                           FROM hindsight.memory_links l
                                           WHERE l.bank_id = bank AND l.link_type = 'supersedes'
                                             AND l.weight >= (cfg->>'update_move_confidence')::float8
                                             AND s.unit_id IN (l.from_unit_id, l.to_unit_id)
                                             AND l.from_unit_id = ANY (after_updates) AND l.to_unit_id = ANY (after_updates)) o
                                     WHERE array_position(by_score, s.unit_id) <> array_position(after_updates, s.unit_id)
                                       AND (array_position(by_score, s.unit_id) < array_position(by_score, o.other))
                                           = o.superseded
                                       AND (array_position(after_updates, s.unit_id) > array_position(after_updates, o.other))
                                           = o.superseded
                                     UNION ALL
                                     SELECT jsonb_build_object('by', 'window', 'from', array_position(after_updates, s.unit_id),
                                                               'to', array_position(after_window, s.unit_id))
                                     WHERE c.temporal_proximity > 0
                                       AND array_position(after_window, s.unit_id) < array_position(after_updates, s.unit_id)
                                     ) m) AS moved,
                                 -- the reader's own order among the candidates it read
                                 CASE WHEN s.rerank_raw IS NOT NULL THEN row_number() OVER (
                                     PARTITION BY s.rerank_raw IS NULL
                                     ORDER BY CASE WHEN s.rerank_raw = 'NaN' THEN '-Infinity' ELSE s.rerank_raw END
                                              DESC, c.candidate_rank) END AS rerank_rank
                          FROM unnest(scored) WITH ORDINALITY AS s
                          JOIN unnest(candidates) c ON c.unit_id = s.unit_id) x)),
            'packing', jsonb_build_object(
                'candidates', least(coalesce(cardinality(scored), 0), state.recall_budget * 2),
                'kept', cardinality(kept),
                'tokens', (SELECT coalesce(sum(s.token_count), 0)
                           FROM unnest(scored) WITH ORDINALITY AS s
                           WHERE s.ordinality = ANY (kept)),
                'max_tokens', state.max_tokens),
            'phases_ms', coalesce(state.trace->'phases_ms', '{}') || jsonb_build_object(
                'finish', finish_ms,
                'trace', coalesce((state.trace->'phases_ms'->>'trace')::float8, 0)
                         + extract(epoch FROM clock_timestamp() - started) * 1000),
            'total_ms', coalesce((state.trace->'phases_ms'->>'candidates')::float8, 0) + finish_ms);
    END IF;

    -- the trace on the rank-1 row, set here rather than in the query that made the rows (a NULL variable again)
    IF state.trace IS NOT NULL AND cardinality(state.results) > 0 THEN
        first_row := state.results[1];
        first_row.trace := state.trace;
        state.results[1] := first_row;
    END IF;
    RETURN state;
END
$$;
COMMENT ON FUNCTION hindsight._recall_finish(hindsight.recall_state, float8[], text, bool, bool, int, float8) IS
    'The body of hindsight.recall_finish (which see), returning the state with its results, the best max_results '
    '(NULL: every packed one; only those rows are made), and the trace completed when it has one; with read and no rerank_scores, the bank''s cross-encoder (unless its '
    'reranker_provider is none) first scores for the state''s query the texts hindsight.texts_to_rerank would '
    'give, from the same boosted scores: hindsight.recall''s rerank stage, the boosts computed once.';

CREATE OR REPLACE FUNCTION hindsight.recall_finish(
    state hindsight.recall_state,
    rerank_scores float8[] DEFAULT NULL,
    passthrough text DEFAULT 'calibrated',
    prefer_observations bool DEFAULT false,
    min_relevance float8 DEFAULT NULL
)
RETURNS SETOF hindsight.recall_result
LANGUAGE sql
SET citus.allow_nested_distributed_execution = on
AS $$
    SELECT r.*
    FROM hindsight._recall_finish(state, rerank_scores, passthrough, prefer_observations,
                                  min_relevance => min_relevance) f,
         unnest(f.results) r
    ORDER BY r.rank
$$;
COMMENT ON FUNCTION hindsight.recall_finish(hindsight.recall_state, float8[], text, bool, float8) IS
$$Second half of hindsight.recall, over the state hindsight.recall_candidates returned (its config, budget,
max_tokens, query time, window, candidates and trace). Passthrough score of every candidate: calibrated (the
default) = hindsight._calibrated over the candidates (a convex combination of fused score / best, min-max
cosine, keyword score / best and, under a time window, the temporal arm's score; weights passthrough_weights),
normalized = fused score / best fused score, or rank_linear = fused rank mapped onto [1.0, 0.1]. boosted =
passthrough * (1 + 0.1 (recency - 0.5)) * (1 + 0.2 (temporal proximity - 0.5)) * (1 + 0.1 (proof - 0.5)) +
strategy bonus, with recency (linear: clamp(1 - days/365, 0.1, 1) at the query time; its boost is 1 when a
time window is in force, since the question then names its period), proximity to the query window (0.5
without one) and proof clamp(0.5 + ln(proof_count)/10, 0, 1) (0.5 when NULL). Without rerank_scores, final =
boosted. rerank_scores: a cross-encoder's raw scores of the texts hindsight.texts_to_rerank gives, in its order
(the best reranker_candidates[budget] by boosted score; at most one per candidate); then final = (rrf_k + 1) *
(reranker_weight / (rrf_k + reader rank) + (1 - reranker_weight) / (rrf_k + boosted rank)), weighted RRF of the
reader's and the boosted passthrough's orders (Cormack et al. 2009), 1.0 for first in both; a candidate not read
has only the second term; rerank_score is then the reader's score (the passthrough's where it did not read; kept
when all within [0, 1], else sigmoid; NaN -> 0, ranked last). Updates win (updates_win confident, the default): a
unit another candidate supersedes (a supersedes link of weight >= update_move_confidence, retain's knowledge
updates, from a candidate among the first update_reach) moves right below it, each position keeping its score,
unless the query asks about the past ("before", "initially", "used to"; hindsight._asks_history). Under a time
window, every candidate dated inside it (temporal_proximity > 0) and among the first window_reach then ranks above
every one outside it, each position again keeping its score (window_first, default true); the trace's
scoring.results[].moved says what each rule moved. The best recall_budget * 2 by final score are packed into
max_tokens; with prefer_observations, a world or experience unit that an observation among them cites
(observation_sources) is dropped first, and every candidate whose relevance is below min_relevance (NULL, the default:
none); past the first result that does not fit, one of relevance below 0.001 does not fill the budget.
relevance: the probability that the unit answers the query, the same across recalls (hindsight._relevance: the
packaged reader's logit where it read, else the cosine for a multilingual-e5-small bank; NULL when neither applies,
such a unit is never dropped). Returns every packed row of hindsight.recall, the trace (when the state has one) on
the rank-1 row. Errors: 22023 not a recall's state, unknown passthrough, more rerank_scores than candidates, or a
min_relevance outside [0, 1].$$;
