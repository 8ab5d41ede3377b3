-- Observations: facts consolidated into what they say together (docs/observations.md).

CREATE OR REPLACE FUNCTION hindsight._refresh_observation(bank_id text, observation_id uuid)
RETURNS void
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    cfg jsonb := hindsight.bank_config(_refresh_observation.bank_id);
    medoid text;
BEGIN
    IF NOT EXISTS (SELECT FROM hindsight.observation_sources s
                   WHERE s.bank_id = _refresh_observation.bank_id
                     AND s.observation_id = _refresh_observation.observation_id) THEN
        DELETE FROM hindsight.memory_units u
        WHERE u.bank_id = _refresh_observation.bank_id AND u.id = _refresh_observation.observation_id
          AND u.fact_type = 'observation';
        RETURN;
    END IF;
    -- the text: the most central supporting fact (least summed cosine distance to the others) of those no newer
    -- fact supersedes (knowledge updates: the observation follows the latest value), else of all
    SELECT f.text INTO medoid
    FROM hindsight.observation_sources s
    JOIN hindsight.memory_units f ON f.bank_id = s.bank_id AND f.id = s.unit_id
    WHERE s.bank_id = _refresh_observation.bank_id AND s.observation_id = _refresh_observation.observation_id
    ORDER BY f.superseded_at IS NOT NULL,
             (SELECT sum(f.embedding <=> g.embedding)
              FROM hindsight.observation_sources t
              JOIN hindsight.memory_units g ON g.bank_id = t.bank_id AND g.id = t.unit_id
              WHERE t.bank_id = _refresh_observation.bank_id AND t.observation_id = s.observation_id),
             f.mentioned_at, f.id
    LIMIT 1;
    UPDATE hindsight.memory_units o
    SET text = medoid,
        embedding = agg.embedding,
        occurred_start = agg.first_at,
        occurred_end = agg.last_at,
        mentioned_at = agg.mentioned_at,
        tags = ARRAY(SELECT DISTINCT t
                     FROM hindsight.observation_sources s
                     JOIN hindsight.memory_units f ON f.bank_id = s.bank_id AND f.id = s.unit_id,
                          unnest(f.tags) AS t
                     WHERE s.bank_id = _refresh_observation.bank_id
                       AND s.observation_id = _refresh_observation.observation_id
                     ORDER BY t),
        proof_count = agg.proof,
        token_count = hindsight.count_tokens(medoid),
        search_vector = hindsight._search_vector(medoid, (cfg->>'text_search_config')::regconfig)
    FROM (SELECT l2_normalize(avg(f.embedding)) AS embedding,
                 min(hindsight._effective_date(f.occurred_start, f.occurred_end, f.mentioned_at)) AS first_at,
                 max(coalesce(f.occurred_end, f.occurred_start, f.mentioned_at)) AS last_at,
                 max(f.mentioned_at) AS mentioned_at,
                 count(*)::int AS proof
          FROM hindsight.observation_sources s
          JOIN hindsight.memory_units f ON f.bank_id = s.bank_id AND f.id = s.unit_id
          WHERE s.bank_id = _refresh_observation.bank_id
            AND s.observation_id = _refresh_observation.observation_id) agg
    WHERE o.bank_id = _refresh_observation.bank_id AND o.id = _refresh_observation.observation_id;
    -- its entities: those of its facts
    DELETE FROM hindsight.unit_entities ue
    WHERE ue.bank_id = _refresh_observation.bank_id AND ue.unit_id = _refresh_observation.observation_id
      AND ue.entity_id NOT IN (
          SELECT fe.entity_id FROM hindsight.observation_sources s
          JOIN hindsight.unit_entities fe ON fe.bank_id = s.bank_id AND fe.unit_id = s.unit_id
          WHERE s.bank_id = _refresh_observation.bank_id AND s.observation_id = _refresh_observation.observation_id);
    INSERT INTO hindsight.unit_entities (bank_id, unit_id, entity_id)
    SELECT DISTINCT s.bank_id, s.observation_id, fe.entity_id
    FROM hindsight.observation_sources s
    JOIN hindsight.unit_entities fe ON fe.bank_id = s.bank_id AND fe.unit_id = s.unit_id
    WHERE s.bank_id = _refresh_observation.bank_id AND s.observation_id = _refresh_observation.observation_id
    ON CONFLICT DO NOTHING;
END
$$;
COMMENT ON FUNCTION hindsight._refresh_observation(text, uuid) IS
    'Recomputes an observation from its supporting facts (observation_sources): text = the medoid fact by cosine '
    '(of the facts not superseded, when there are some), '
    'embedding = l2_normalize(mean), dates = the span of the facts'' dates, mentioned_at = the latest, tags and '
    'entities = the union, proof_count = the number of facts; deletes it when no fact is left.';

CREATE OR REPLACE FUNCTION hindsight._facts_compatible(
    a text,
    a_entities text[],
    b text,
    b_entities text[]
)
RETURNS bool
LANGUAGE plpython3u STABLE PARALLEL SAFE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.signature import compatible
return compatible(a or "", a_entities or [], b or "", b_entities or [])
$$;
COMMENT ON FUNCTION hindsight._facts_compatible(text, text[], text, text[]) IS
    'Whether two memories (text and entity names) may be merged at all: their numbers (digits, number words, '
    'amounts, versions, ids), date words, negations and entities are equal (hindsight_pl.signature, the guard '
    'of retain''s deduplication, without the occurred dates). Case and punctuation are ignored.';

CREATE OR REPLACE FUNCTION hindsight._unit_entity_names(bank_id text, unit_id uuid)
RETURNS text[]
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
AS $$
#variable_conflict use_column
BEGIN
    RETURN (
        SELECT ARRAY(SELECT e.canonical_name FROM hindsight.unit_entities ue
                     JOIN hindsight.entities e ON e.bank_id = ue.bank_id AND e.id = ue.entity_id
                     WHERE ue.bank_id = _unit_entity_names.bank_id AND ue.unit_id = _unit_entity_names.unit_id
                     ORDER BY e.canonical_name)
    );
END
$$;
COMMENT ON FUNCTION hindsight._unit_entity_names(text, uuid) IS
    'The canonical names of the entities a memory unit mentions, sorted.';

CREATE OR REPLACE FUNCTION hindsight._group_observations(bank_id text)
RETURNS TABLE (observation_id uuid, action text, proof_count int)
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(_group_observations.bank_id);
    min_similarity float8 := (cfg->>'observation_similarity')::float8;
    merge_at float8 := (cfg->>'observation_merge_similarity')::float8;
    ts_config regconfig := (cfg->>'text_search_config')::regconfig;
    fact record;
    candidate record;
    joined uuid;
    members uuid[];
    placed uuid[] := '{}';
    fresh uuid[];
    created uuid[] := '{}';
    updated uuid[] := '{}';
    merged uuid[] := '{}';
    obs record;
    twin uuid;
    keep uuid;
    drop_id uuid;
    new_id uuid;
BEGIN
    -- one writer of a bank at a time (retain, delete_document and consolidate alike)
    PERFORM hindsight._lock_bank(_group_observations.bank_id);
    SELECT coalesce(array_agg(u.id ORDER BY hindsight._effective_date(u.occurred_start, u.occurred_end,
                                                                      u.mentioned_at), u.created_at, u.id), '{}')
    INTO fresh
    FROM hindsight.memory_units u
    WHERE u.bank_id = _group_observations.bank_id AND u.fact_type IN ('world', 'experience') AND u.consolidated_at IS NULL;

    FOR fact IN SELECT u.id, u.embedding FROM unnest(fresh) WITH ORDINALITY AS f(id, n)
                JOIN hindsight.memory_units u ON u.bank_id = _group_observations.bank_id AND u.id = f.id ORDER BY f.n LOOP
        CONTINUE WHEN fact.id = ANY (placed);
        -- 1. the most similar observation that shares an entity with the fact takes it
        SELECT o.id INTO joined
        FROM hindsight.memory_units o
        WHERE o.bank_id = _group_observations.bank_id AND o.fact_type = 'observation'
          AND (o.embedding <=> fact.embedding) <= 1 - min_similarity
          AND EXISTS (SELECT FROM hindsight.unit_entities a
                      JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.entity_id = a.entity_id
                      WHERE a.bank_id = _group_observations.bank_id AND a.unit_id = fact.id AND b.unit_id = o.id)
        ORDER BY o.embedding <=> fact.embedding, o.id
        LIMIT 1;
        IF joined IS NOT NULL THEN
            INSERT INTO hindsight.observation_sources (bank_id, observation_id, unit_id)
            VALUES (_group_observations.bank_id, joined, fact.id) ON CONFLICT DO NOTHING;
            PERFORM hindsight._refresh_observation(_group_observations.bank_id, joined);
            placed := placed || fact.id;
            IF NOT joined = ANY (created) THEN
                updated := updated || joined;
            END IF;
            CONTINUE;
        END IF;
        -- 2. a new observation from the fact and its semantic neighbours (retain's links) that share an
        --    entity with it, are in no observation yet, and are all pairwise similar enough
        members := ARRAY[fact.id];
        FOR candidate IN
            SELECT g.id, g.embedding
            FROM hindsight.memory_links l
            JOIN hindsight.memory_units g ON g.bank_id = l.bank_id AND g.id = l.to_unit_id
            WHERE l.bank_id = _group_observations.bank_id AND l.from_unit_id = fact.id AND l.link_type = 'semantic'
              AND l.weight >= min_similarity AND g.fact_type IN ('world', 'experience')
              AND NOT g.id = ANY (placed)
              AND NOT EXISTS (SELECT FROM hindsight.observation_sources s
                              WHERE s.bank_id = g.bank_id AND s.unit_id = g.id)
              AND EXISTS (SELECT FROM hindsight.unit_entities a
                          JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.entity_id = a.entity_id
                          WHERE a.bank_id = _group_observations.bank_id AND a.unit_id = fact.id AND b.unit_id = g.id)
            ORDER BY l.weight DESC, g.id
        LOOP
            IF NOT EXISTS (SELECT FROM hindsight.memory_units m
                           WHERE m.bank_id = _group_observations.bank_id AND m.id = ANY (members)
                             AND (m.embedding <=> candidate.embedding) > 1 - min_similarity) THEN
                members := members || candidate.id;
            END IF;
        END LOOP;
        CONTINUE WHEN cardinality(members) < 2;
        -- the id made here, not by the column's (volatile) default: on Citus a volatile default pulls the
        -- rows to the coordinator, and the write back to the worker takes two-phase commit
        new_id := gen_random_uuid();
        INSERT INTO hindsight.memory_units (bank_id, id, text, fact_type, embedding, token_count, search_vector,
                                            proof_count, consolidated_at)
        SELECT u.bank_id, new_id, u.text, 'observation', u.embedding, u.token_count, u.search_vector,
               cardinality(members), now()
        FROM hindsight.memory_units u WHERE u.bank_id = _group_observations.bank_id AND u.id = fact.id;
        -- the bank id from its row (bk), as in hindsight.retain: on Citus one INSERT ... SELECT on the bank's
        -- shards, not a COPY (which row-level security refuses to a role that is not a superuser)
        INSERT INTO hindsight.observation_sources (bank_id, observation_id, unit_id)
        SELECT bk.bank_id, new_id, m FROM hindsight.banks bk, unnest(members) m
        WHERE bk.bank_id = _group_observations.bank_id;
        PERFORM hindsight._refresh_observation(_group_observations.bank_id, new_id);
        placed := placed || members;
        created := created || new_id;
    END LOOP;

    UPDATE hindsight.memory_units u SET consolidated_at = now()
    WHERE u.bank_id = _group_observations.bank_id AND u.id = ANY (fresh || placed) AND u.consolidated_at IS NULL;

    -- 3. observations that came out nearly the same merge into the older one, unless what tells
    --    facts apart differs (numbers, date words, negation, entities: "Mara planted 2 tulips" and
    --    "Mara planted 3 tulips" are within 0.97 and stay two)
    FOR obs IN SELECT o.id, o.embedding FROM hindsight.memory_units o
               WHERE o.bank_id = _group_observations.bank_id AND o.id = ANY (created || updated) ORDER BY o.created_at, o.id LOOP
        CONTINUE WHEN obs.id = ANY (merged);
        -- (obs's text and entities as they are now: an earlier merge may have kept it and changed both)
        SELECT o.id INTO twin FROM hindsight.memory_units o, hindsight.memory_units me
        WHERE o.bank_id = _group_observations.bank_id AND o.fact_type = 'observation' AND o.id <> obs.id
          AND NOT o.id = ANY (merged) AND (o.embedding <=> obs.embedding) <= 1 - merge_at
          AND me.bank_id = o.bank_id AND me.id = obs.id
          AND hindsight._facts_compatible(o.text, hindsight._unit_entity_names(o.bank_id, o.id),
                                          me.text, hindsight._unit_entity_names(me.bank_id, me.id))
        ORDER BY o.embedding <=> obs.embedding, o.id LIMIT 1;
        CONTINUE WHEN twin IS NULL;
        SELECT CASE WHEN a.created_at <= b.created_at THEN a.id ELSE b.id END,
               CASE WHEN a.created_at <= b.created_at THEN b.id ELSE a.id END
        INTO keep, drop_id
        FROM hindsight.memory_units a, hindsight.memory_units b
        WHERE a.bank_id = _group_observations.bank_id AND a.id = obs.id AND b.bank_id = _group_observations.bank_id AND b.id = twin;
        INSERT INTO hindsight.observation_sources (bank_id, observation_id, unit_id)
        SELECT s.bank_id, keep, s.unit_id FROM hindsight.observation_sources s
        WHERE s.bank_id = _group_observations.bank_id AND s.observation_id = drop_id
        ON CONFLICT DO NOTHING;
        DELETE FROM hindsight.memory_units u WHERE u.bank_id = _group_observations.bank_id AND u.id = drop_id;
        PERFORM hindsight._refresh_observation(_group_observations.bank_id, keep);
        merged := merged || drop_id;
        IF NOT keep = ANY (created) THEN
            updated := updated || keep;
        END IF;
    END LOOP;

    RETURN QUERY
    SELECT o.id, CASE WHEN o.id = ANY (created) THEN 'created' ELSE 'updated' END, o.proof_count
    FROM hindsight.memory_units o
    WHERE o.bank_id = _group_observations.bank_id AND o.id = ANY (created || updated)
    UNION ALL
    SELECT m, 'merged', NULL::int FROM unnest(merged) m
    ORDER BY 2, 1;
END
$$;
COMMENT ON FUNCTION hindsight._group_observations(text) IS
$$The offline pass of hindsight.consolidate: consolidates the bank's facts (world and experience memory units) that no consolidation has seen yet
(consolidated_at NULL), in time order, offline and deterministically: a fact joins the most similar observation
that shares an entity with it when their cosine similarity is >= observation_similarity (0.94; all-MiniLM-L6-v2 0.85); otherwise it and
its semantic neighbours (retain's links) that share an entity with it, are in no observation, and are pairwise
>= observation_similarity form a new observation when they are at least two. An observation's text is its medoid
fact, its embedding the normalised mean, its dates the facts' span, proof_count the number of facts
(hindsight.observation_sources lists them). Observations within observation_merge_similarity (0.985; MiniLM 0.97) of each other
merge into the older, unless their numbers, date words, negations or entities differ (hindsight._facts_compatible).
Running it again without new facts changes nothing. Returns (observation_id, action created | updated | merged,
proof_count). HS404 unknown bank. docs/observations.md.$$;

CREATE OR REPLACE FUNCTION hindsight.observation_facts(bank_id text, observation_id uuid)
RETURNS TABLE (unit_id uuid, text text)
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
        SELECT u.id, u.text
        FROM hindsight.observation_sources s
        JOIN hindsight.memory_units u ON u.bank_id = s.bank_id AND u.id = s.unit_id
        WHERE s.bank_id = observation_facts.bank_id AND s.observation_id = observation_facts.observation_id
        ORDER BY hindsight._effective_date(u.occurred_start, u.occurred_end, u.mentioned_at), u.id;
END
$$;
COMMENT ON FUNCTION hindsight.observation_facts(text, uuid) IS
    'The facts an observation rests on (hindsight.observation_sources) as rows (unit_id uuid, text text), oldest '
    'first (hindsight.unit_date: occurred_start, else occurred_end, else mentioned_at), ties by id: what a '
    'language model reads to write the '
    'observation (docs/observations.md). None for an unknown bank or observation.';

CREATE OR REPLACE FUNCTION hindsight.write_observation(
    bank_id text,
    observation_id uuid,
    text text,
    contradicting uuid[],
    written_by text
)
RETURNS int
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(write_observation.bank_id);
    dropped jsonb;
    proof int;
BEGIN
    IF cardinality(contradicting) > 0 THEN
        SELECT jsonb_agg(jsonb_build_object('id', u.id, 'text', u.text) ORDER BY u.id) INTO dropped
        FROM hindsight.memory_units u
        WHERE u.bank_id = write_observation.bank_id AND u.id = ANY (contradicting);
        UPDATE hindsight.memory_units o
        SET metadata = jsonb_set(o.metadata, '{history}', coalesce(o.metadata->'history', '[]') || jsonb_build_array(
                jsonb_build_object('at', now(), 'event', 'contradicted', 'by', written_by, 'facts', dropped)))
        WHERE o.bank_id = write_observation.bank_id AND o.id = write_observation.observation_id;
        -- the contradicting facts no longer count as proof (the trigger recomputes the observation)
        DELETE FROM hindsight.observation_sources s
        WHERE s.bank_id = write_observation.bank_id AND s.observation_id = write_observation.observation_id
          AND s.unit_id = ANY (contradicting);
    END IF;
    UPDATE hindsight.memory_units o
    SET text = write_observation.text,
        token_count = hindsight.count_tokens(write_observation.text),
        search_vector = hindsight._search_vector(write_observation.text, (cfg->>'text_search_config')::regconfig),
        metadata = jsonb_set(o.metadata || jsonb_build_object('written_by', written_by), '{history}',
            coalesce(o.metadata->'history', '[]') || jsonb_build_array(
                jsonb_build_object('at', now(), 'event', 'written', 'by', written_by, 'text', write_observation.text)))
    WHERE o.bank_id = write_observation.bank_id AND o.id = write_observation.observation_id
      AND o.fact_type = 'observation'
    RETURNING o.proof_count INTO proof;
    RETURN proof;
END
$$;
COMMENT ON FUNCTION hindsight.write_observation(text, uuid, text, uuid[], text) IS
    'Consolidation with a language model: records the facts (contradicting, memory unit ids; NULL or empty for '
    'none) that contradict the observation in its metadata history and removes them from its proof '
    '(observation_sources), then sets the text the model written_by (its name) wrote, with its token count and '
    'search vector (metadata written_by, history). Returns the observation''s proof_count (int), NULL when it is '
    'gone (every fact contradicted it) or is not one of the bank''s observations. HS404 unknown bank. '
    'docs/observations.md.';

CREATE OR REPLACE FUNCTION hindsight._consolidate_with_llm(bank_id text)
RETURNS TABLE (observation_id uuid, action text, proof_count int)
LANGUAGE plpython3u
SET citus.allow_nested_distributed_execution = on
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.pipeline import in_database
return in_database.consolidate(plpy, GD, bank_id)
$$;
COMMENT ON FUNCTION hindsight._consolidate_with_llm(text) IS
    'The LLM pass of hindsight.consolidate: the offline pass (hindsight._group_observations), then the bank''s '
    'language model writes each created or updated observation''s text (hindsight_pl.llm.rewrite_observations, '
    'the driver''s code). 22023 without a language model, 42501 an endpoint the role may not call '
    '(hindsight._check_llm_endpoint), HS503 when the model fails.';

CREATE OR REPLACE FUNCTION hindsight.consolidate(bank_id text, use_llm bool DEFAULT true)
RETURNS TABLE (observation_id uuid, action text, proof_count int)
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    cfg jsonb := hindsight.bank_config(bank_id);
    state text;
    message text;
    hint text;
BEGIN
    IF NOT coalesce(use_llm, true) OR coalesce(cfg->>'llm_base_url', '') = '' OR coalesce(cfg->>'llm_model', '') = '' THEN
        RETURN QUERY SELECT * FROM hindsight._group_observations(bank_id);
        RETURN;
    END IF;
    RETURN QUERY SELECT * FROM hindsight._consolidate_with_llm(bank_id);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.consolidate(text, bool) IS
$$Consolidates the bank's facts (world and experience memory units) that no consolidation has seen yet
(consolidated_at NULL) into observations, in time order and in one transaction. The offline pass is
deterministic: a fact joins the most similar observation that shares an entity with it when their cosine
similarity is >= observation_similarity (0.94; all-MiniLM-L6-v2 0.85); otherwise it and its semantic neighbours (retain's links) that
share an entity with it, are in no observation, and are pairwise >= observation_similarity form a new observation
when they are at least two. An observation's text is its medoid fact, its embedding the normalised mean, its dates
the facts' span, proof_count the number of facts (hindsight.observation_sources lists them). Observations within
observation_merge_similarity (0.985; MiniLM 0.97) of each other merge into the older, unless their numbers, date words, negations
or entities differ. Then, when the bank has a language model
(llm_base_url, llm_model) and use_llm, the model writes each created or updated observation's text from its facts
and may find facts that contradict it: those leave its proof (metadata history records them; an observation left
with no fact is removed). Running it again without new facts changes nothing. Returns
(observation_id, action created | updated | merged | removed, proof_count; NULL for merged and removed ones).
Errors: HS404 unknown bank, 42501 a language model endpoint the role may not call (setting llm_endpoints), HS503
the model failed (nothing is kept). docs/observations.md.$$;
