-- Knowledge updates, retain's half: a newer memory unit that revises an older one about the same subject
-- supersedes it. Retain records it (hindsight._link_updates: a `supersedes` link from the newer unit to the older,
-- and the older unit's superseded_at); recall's half is recall/_updates_win.sql. docs/recall.md, "Updates win".

CREATE OR REPLACE FUNCTION hindsight._revisions(pairs jsonb)
RETURNS float8[]
LANGUAGE plpython3u STABLE PARALLEL SAFE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
import json
from hindsight_pl.updates import Pair, link_confidence
return link_confidence([Pair(**p) for p in json.loads(pairs or "[]")])
$$;
COMMENT ON FUNCTION hindsight._revisions(jsonb) IS
    'For each pair of pairs (a JSON array of objects with the fields of hindsight_pl.updates.Pair: newer, older, '
    'cosine, days, newer_agent, older_agent, shared_entities), the confidence that the newer unit revises the '
    'older: 0 where the rule finds no change of one subject, else the update judge''s probability '
    '(hindsight_pl.updates.link_confidence).';

CREATE OR REPLACE FUNCTION hindsight._link_updates(
    bank_id text,
    unit_ids uuid[],
    config jsonb,
    semantic_path text
)
RETURNS int
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    how_many int := (config->>'update_candidates')::int;
    min_similarity float8 := (config->>'update_min_similarity')::float8;
    new_ids uuid[];
    old_ids uuid[];
    confidence float8[];
    min_confidence float8 := (config->>'update_min_confidence')::float8;
    linked int;
BEGIN
    IF how_many = 0 OR coalesce(cardinality(unit_ids), 0) = 0 THEN
        RETURN 0;
    END IF;
    -- The pairs to judge: each new unit and its how_many nearest units said before it (by embedding), from
    -- another document (the facts of one message do not revise each other). Arrays, not a temporary table:
    -- Citus plans no write that joins a local table with a distributed one.
    IF semantic_path = 'hnsw' THEN
        SELECT array_agg(p.unit_id ORDER BY p.unit_id, p.neighbour_id),
               array_agg(p.neighbour_id ORDER BY p.unit_id, p.neighbour_id)
        INTO new_ids, old_ids
        FROM hindsight._nearest_hnsw(_link_updates.bank_id, unit_ids, how_many, min_similarity, earlier_facts => true) p;
    ELSE
        SELECT array_agg(r.a ORDER BY r.a, r.b), array_agg(r.b ORDER BY r.a, r.b) INTO new_ids, old_ids
        FROM (SELECT n.id AS a, m.id AS b,
                     row_number() OVER (PARTITION BY n.id ORDER BY m.embedding <=> n.embedding, m.id) AS rn
              FROM hindsight.memory_units n
              JOIN hindsight.memory_units m
                ON m.bank_id = n.bank_id AND m.id <> n.id AND m.fact_type <> 'observation'
               AND m.mentioned_at < n.mentioned_at AND 1 - (m.embedding <=> n.embedding) >= min_similarity
              WHERE n.bank_id = _link_updates.bank_id AND n.id = ANY (unit_ids) AND n.fact_type <> 'observation') r
        WHERE r.rn <= how_many;
    END IF;
    IF new_ids IS NULL THEN
        RETURN 0;
    END IF;

    -- One PL/Python call judges them all (hindsight_pl.updates.link_confidence), pairs of one document excluded.
    SELECT array_agg(p.new_id ORDER BY p.o), array_agg(p.old_id ORDER BY p.o),
           hindsight._revisions(jsonb_agg(jsonb_build_object(
               'newer', n.text, 'older', o.text, 'cosine', 1 - (n.embedding <=> o.embedding),
               'days', extract(epoch FROM n.mentioned_at - o.mentioned_at) / 86400,
               'newer_agent', n.fact_type = 'experience', 'older_agent', o.fact_type = 'experience',
               'shared_entities', ARRAY(
                   SELECT e.canonical_name FROM hindsight.unit_entities a
                   JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.entity_id = a.entity_id
                                                 AND b.unit_id = p.old_id
                   JOIN hindsight.entities e ON e.bank_id = a.bank_id AND e.id = a.entity_id
                   WHERE a.bank_id = _link_updates.bank_id AND a.unit_id = p.new_id)) ORDER BY p.o))
    INTO new_ids, old_ids, confidence
    FROM unnest(new_ids, old_ids) WITH ORDINALITY AS p(new_id, old_id, o)
    JOIN hindsight.memory_units n ON n.bank_id = _link_updates.bank_id AND n.id = p.new_id
    JOIN hindsight.memory_units o ON o.bank_id = _link_updates.bank_id AND o.id = p.old_id
    WHERE n.document_id IS DISTINCT FROM o.document_id OR n.document_id IS NULL;
    IF new_ids IS NULL THEN
        RETURN 0;
    END IF;

    INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
    SELECT bk.bank_id, p.new_id, p.old_id, 'supersedes', p.confidence  -- from the bank's row: hindsight._insert_links
    FROM hindsight.banks bk, unnest(new_ids, old_ids, confidence) AS p(new_id, old_id, confidence)
    WHERE bk.bank_id = _link_updates.bank_id AND p.confidence > 0 AND p.confidence >= min_confidence
    ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO NOTHING;
    GET DIAGNOSTICS linked = ROW_COUNT;

    -- the older unit records when it was first superseded
    UPDATE hindsight.memory_units o
    SET superseded_at = s.at
    FROM (SELECT p.old_id, min(n.mentioned_at) AS at
          FROM unnest(new_ids, old_ids, confidence) AS p(new_id, old_id, confidence)
          JOIN hindsight.memory_units n ON n.bank_id = _link_updates.bank_id AND n.id = p.new_id
          WHERE p.confidence > 0 AND p.confidence >= min_confidence GROUP BY p.old_id) s
    WHERE o.bank_id = _link_updates.bank_id AND o.id = s.old_id
      AND (o.superseded_at IS NULL OR o.superseded_at > s.at);
    RETURN linked;
END
$$;
COMMENT ON FUNCTION hindsight._link_updates(text, uuid[], jsonb, text) IS
    'Knowledge updates of new units of a bank (unit_ids): each is compared with its update_candidates nearest '
    'units (cosine >= update_min_similarity; both keys of config, the bank''s effective config read once by the '
    'caller; searched as semantic_path, hindsight._semantic_path, says) said before it in other documents; where '
    'the update judge is at least update_min_confidence sure that it revises one (hindsight._revisions), a '
    'supersedes link of that weight goes from it to the older unit, whose superseded_at becomes the earliest '
    'mentioned_at of the units superseding it. Observations take no part. Returns the links made.';
