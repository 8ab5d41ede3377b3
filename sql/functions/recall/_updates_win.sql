-- Knowledge updates, recall's half: recall ranks a superseded unit right below the unit that supersedes it when
-- both are candidates (hindsight._updates_win), unless the question asks about the past (hindsight._asks_history).
-- Retain records the links (retain/_link_updates.sql). docs/recall.md, "Updates win".

CREATE OR REPLACE FUNCTION hindsight._asks_history(query text)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(query, '') ~* ('\m(before|previous|previously|original|originally|initial|initially|at first|'
        'first|used to|formerly|former|earlier|prior|history|in the past|back then|at the (start|beginning)|'
        'vorher|früher|ursprünglich|zuerst|anfangs|avant|auparavant|initialement|d''abord|au début|antes|'
        'originalmente|al principio|prima|inizialmente|all''inizio|'
        -- "when did it happen": the date of an event, not today's value
        'when (did|was|were|had)|wann (hat|haben|war|waren|wurde)|quand (a|est|était)|cuándo (fue|se)|quando (è|ha|fu))\M')
        OR coalesce(query, '') ~ '(之前|以前|原来|原先|最初|起初|一开始|当初)'
$$;
COMMENT ON FUNCTION hindsight._asks_history(text) IS
    'Whether a question asks about the past of something ("what did we plan before", "initially", "used to", '
    '"when did ...": the date of an event; in English, German, French, Spanish, Italian and Chinese): recall then '
    'leaves superseded units where they rank.';

CREATE OR REPLACE FUNCTION hindsight._update_order(ids text[], pairs jsonb)
RETURNS text[]
LANGUAGE plpython3u IMMUTABLE PARALLEL SAFE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
import json
from hindsight_pl.updates import order
return order(list(ids or []), [tuple(p) for p in json.loads(pairs or "[]")])
$$;
COMMENT ON FUNCTION hindsight._update_order(text[], jsonb) IS
    'ids reordered so that each superseded id (pairs: [[newer, older], ...]) comes right after the id that '
    'supersedes it where it ranked above it (hindsight_pl.updates.order).';

CREATE OR REPLACE FUNCTION hindsight._updates_win(bank_id text, scored hindsight._scored_candidate[], config jsonb)
RETURNS hindsight._scored_candidate[]
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    ids uuid[] := ARRAY(SELECT s.unit_id FROM unnest(scored) s);
    confident float8 := (config->>'update_move_confidence')::float8;
    pairs jsonb;
BEGIN
    -- the confident supersedes links between candidates; and an observation every fact of which is superseded
    -- follows the latest value: it ranks below the candidates (facts, or observations citing them) that
    -- supersede them
    WITH links AS (
        SELECT l.from_unit_id, l.to_unit_id
        FROM hindsight.memory_links l
        WHERE l.bank_id = _updates_win.bank_id AND l.link_type = 'supersedes' AND l.from_unit_id = ANY (ids)
          AND l.weight >= confident
        UNION ALL
        SELECT os.observation_id, l.to_unit_id
        FROM hindsight.observation_sources os
        JOIN hindsight.memory_links l ON l.bank_id = os.bank_id AND l.from_unit_id = os.unit_id
                                     AND l.link_type = 'supersedes' AND l.weight >= confident
        WHERE os.bank_id = _updates_win.bank_id AND os.observation_id = ANY (ids)
    ), stale AS (  -- candidate observations whose facts are all superseded
        SELECT o.id
        FROM hindsight.memory_units o
        WHERE o.bank_id = _updates_win.bank_id AND o.id = ANY (ids) AND o.fact_type = 'observation'
          AND NOT EXISTS (SELECT FROM hindsight.observation_sources os
                          JOIN hindsight.memory_units f ON f.bank_id = os.bank_id AND f.id = os.unit_id
                          WHERE os.bank_id = o.bank_id AND os.observation_id = o.id AND f.superseded_at IS NULL)
    ), pair AS (
        SELECT k.from_unit_id AS newer, k.to_unit_id AS older FROM links k WHERE k.to_unit_id = ANY (ids)
        UNION
        SELECT k.from_unit_id, st.id
        FROM stale st
        JOIN hindsight.observation_sources os ON os.bank_id = _updates_win.bank_id AND os.observation_id = st.id
        JOIN links k ON k.to_unit_id = os.unit_id
        WHERE k.from_unit_id <> st.id
    )
    -- only an update that recall itself ranks among the first update_reach moves what it supersedes: a link does
    -- not lift a unit recall found unrelated to the question (with 30, never one of the first 3 below one past
    -- the 30th)
    SELECT jsonb_agg(jsonb_build_array(p.newer, p.older) ORDER BY p.newer, p.older) INTO pairs
    FROM pair p
    WHERE array_position(ids, p.newer) <= (config->>'update_reach')::int;
    IF pairs IS NULL THEN
        RETURN scored;
    END IF;
    RETURN hindsight._reordered(scored, hindsight._update_order(ids::text[], pairs)::uuid[]);
END
$$;
COMMENT ON FUNCTION hindsight._updates_win(text, hindsight._scored_candidate[], jsonb) IS
    'Recall''s scored candidates (best first) with every superseded unit moved right below the unit that '
    'supersedes it (a supersedes link of weight at least config''s update_move_confidence, from a unit ranked among '
    'the first update_reach) where it ranked above it; an observation whose facts are all superseded moves below the '
    'candidates that supersede them (facts, or observations citing those); each position keeps its final score.';

CREATE OR REPLACE FUNCTION hindsight._reordered(scored hindsight._scored_candidate[], ids uuid[])
RETURNS hindsight._scored_candidate[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- each position keeps its score: a unit moved up takes the score of the place it took, so scores
    -- still fall with the rank
    SELECT coalesce(array_agg(ROW(s.unit_id, p.final_score, s.rerank_raw, s.rerank_score, s.recency, s.proof,
                                  s.token_count)::hindsight._scored_candidate ORDER BY r.o), '{}')
    FROM unnest(ids) WITH ORDINALITY AS r(id, o)
    JOIN unnest(scored) AS s ON s.unit_id = r.id
    JOIN unnest(scored) WITH ORDINALITY AS p(unit_id, final_score, rerank_raw, rerank_score, recency, proof,
                                             token_count, o) ON p.o = r.o
$$;
COMMENT ON FUNCTION hindsight._reordered(hindsight._scored_candidate[], uuid[]) IS
    'Scored candidates in the order of ids (the same units, reordered), each position keeping its final score.';
