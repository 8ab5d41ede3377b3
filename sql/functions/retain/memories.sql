-- One memory at a time: update a memory unit's text, dates, tags or metadata, or delete it; everything derived
-- from it (BM25 statistics, entities and their mention counts, links in both directions, supersedes chains,
-- observations, bank counts) stays as retain and delete_document would leave it. docs/retain.md, "One memory".

CREATE OR REPLACE FUNCTION hindsight._reread_memory(
    config jsonb,
    content text,
    mentioned_at timestamptz,
    known text[],
    OUT entities text[],
    OUT occurred_start timestamptz,
    OUT occurred_end timestamptz
)
LANGUAGE plpython3u STABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
import json
from datetime import UTC, datetime
from hindsight_pl.retain.units import reread
fact = reread(json.loads(config or "{}"), content, datetime.fromisoformat(mentioned_at).astimezone(UTC), known or [])
return fact.entities, fact.occurred_start, fact.occurred_end
$$;
COMMENT ON FUNCTION hindsight._reread_memory(jsonb, text, timestamptz, text[]) IS
    'A memory''s new text as retain reads it (hindsight_pl.retain.units.reread): its entities (those of known it still '
    'holds and the names it gives) and its dates as of mentioned_at (NULL when it gives none), by the offline '
    'rules with config''s time_zone and hemisphere.';

CREATE OR REPLACE FUNCTION hindsight._memory(bank_id text, memory_id uuid)
RETURNS hindsight.memory
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    memory hindsight.memory;
BEGIN
    -- PL/pgSQL, not SQL: Citus plans no SQL function's parameters into a distributed query
    SELECT u.id, u.text, u.fact_type, u.context, u.occurred_start, u.occurred_end, u.mentioned_at, u.document_id,
           u.chunk_id, u.tags, u.metadata, NULL, u.superseded_at
    INTO memory
    FROM hindsight.memory_units u
    WHERE u.bank_id = _memory.bank_id AND u.id = _memory.memory_id;
    IF memory.id IS NULL THEN
        RETURN NULL;
    END IF;
    memory.entities := ARRAY(SELECT e.canonical_name FROM hindsight.unit_entities ue
                            JOIN hindsight.entities e ON e.bank_id = ue.bank_id AND e.id = ue.entity_id
                            WHERE ue.bank_id = _memory.bank_id AND ue.unit_id = _memory.memory_id
                            ORDER BY e.canonical_name);
    RETURN memory;
END
$$;
COMMENT ON FUNCTION hindsight._memory(text, uuid) IS
    'A memory unit of a bank as hindsight.update_memory returns it (hindsight.memory), NULL when there is none.';

CREATE OR REPLACE FUNCTION hindsight._unwritable_memory(bank_id text, memory_id uuid)
RETURNS void
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
BEGIN
    -- row-level security hides a memory from a write of a role that may only read it: say so, not "no memory"
    IF EXISTS (SELECT FROM hindsight.memory_units u
               WHERE u.bank_id = _unwritable_memory.bank_id AND u.id = _unwritable_memory.memory_id) THEN
        RAISE EXCEPTION 'only a writer of bank "%" may change its memories', bank_id
            USING ERRCODE = '42501', HINT = 'An admin grants it with hindsight.grant_bank(bank_id, role, ''write'').';
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._unwritable_memory(text, uuid) IS
    'Raises 42501 when the caller can read the memory but a write found none (row-level security: read access '
    'only); returns otherwise.';

CREATE OR REPLACE FUNCTION hindsight.update_memory(
    bank_id text,
    memory_id uuid,
    text text DEFAULT NULL,
    occurred_start timestamptz DEFAULT NULL,
    occurred_end timestamptz DEFAULT NULL,
    mentioned_at timestamptz DEFAULT NULL,
    tags text[] DEFAULT NULL,
    metadata jsonb DEFAULT NULL,
    context text DEFAULT NULL,
    entities text[] DEFAULT NULL,
    embedding vector DEFAULT NULL
)
RETURNS hindsight.memory
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
SET jit = off
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(update_memory.bank_id);  -- HS404 for an unknown bank
    old hindsight.memory_units;
    new_text text;
    new_vector vector;
    counted record;
    tokens int;
    words tsvector;
    resolved uuid[];
    reading record;
    names text[];
    start_at timestamptz;
    end_at timestamptz;
    said_at timestamptz;
    relink bool;
    semantic_path text;
    revised uuid[];
    newer uuid[];
    o uuid;
BEGIN
    PERFORM hindsight._require_python();
    -- sizes first (hindsight.limits(), 54000), as retain checks an item's
    PERFORM hindsight._check_limit('unit_chars', 'text', length(update_memory.text));
    PERFORM hindsight._check_limit('context_chars', 'context', length(update_memory.context));
    PERFORM hindsight._check_limit('tags', 'tags', cardinality(update_memory.tags));
    PERFORM hindsight._check_limit('name_chars', 'a tag', (SELECT max(length(t)) FROM unnest(update_memory.tags) t));
    PERFORM hindsight._check_limit('entities', 'entities', cardinality(update_memory.entities));
    PERFORM hindsight._check_limit('name_chars', 'an entity',
                                   (SELECT max(length(e)) FROM unnest(update_memory.entities) e));
    PERFORM hindsight._check_limit('json_bytes', 'metadata', octet_length(update_memory.metadata::text));
    PERFORM hindsight._check_limit('json_depth', 'metadata (nesting)', hindsight._json_too_deep(update_memory.metadata));
    IF update_memory.metadata IS NOT NULL AND jsonb_typeof(update_memory.metadata) <> 'object' THEN
        RAISE EXCEPTION 'metadata must be a JSON object, got %', jsonb_typeof(update_memory.metadata)
            USING ERRCODE = '22023';
    END IF;
    IF EXISTS (SELECT FROM unnest(update_memory.tags) t WHERE t IS NULL OR btrim(t) = '')
       OR EXISTS (SELECT FROM unnest(update_memory.entities) e WHERE e IS NULL OR btrim(e) = '') THEN
        RAISE EXCEPTION 'tags and entities must be non-blank names' USING ERRCODE = '22023';
    END IF;
    IF update_memory.text IS NOT NULL THEN
        SELECT * INTO counted FROM hindsight._unit_token_counts(ARRAY[update_memory.text], ARRAY['text']);
        IF counted.problem IS NOT NULL THEN
            RAISE EXCEPTION '%', counted.problem USING ERRCODE = '22023', HINT = counted.hint;
        END IF;
        tokens := counted.token_counts[1];
    END IF;
    IF update_memory.embedding IS NOT NULL AND (vector_dims(update_memory.embedding) <> 384
                                                OR vector_norm(update_memory.embedding) = 0) THEN
        RAISE EXCEPTION 'embedding must be 384 numbers, not all zero (it has %)', vector_dims(update_memory.embedding)
            USING ERRCODE = '22023', HINT = 'Leave it NULL: the bank''s embedding provider embeds the new text.';
    END IF;

    PERFORM hindsight._lock_bank(update_memory.bank_id);
    SELECT * INTO old FROM hindsight.memory_units u
    WHERE u.bank_id = update_memory.bank_id AND u.id = update_memory.memory_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM hindsight._unwritable_memory(update_memory.bank_id, update_memory.memory_id);
        RAISE EXCEPTION 'bank "%" has no memory %', update_memory.bank_id, update_memory.memory_id
            USING ERRCODE = 'P0002', HINT = 'hindsight.recall returns each memory''s id; a deleted one is gone.';
    END IF;
    IF old.fact_type = 'observation' THEN
        RAISE EXCEPTION 'memory % is an observation: it follows the facts it cites', update_memory.memory_id
            USING ERRCODE = '22023',
                  HINT = 'Update or delete those facts (hindsight.observation_sources); the observation is refreshed.';
    END IF;

    -- the new values: a NULL argument keeps the unit's own
    new_text := coalesce(update_memory.text, old.text);
    said_at := coalesce(update_memory.mentioned_at, old.mentioned_at);
    start_at := coalesce(update_memory.occurred_start, old.occurred_start);
    end_at := coalesce(update_memory.occurred_end, old.occurred_end);
    names := update_memory.entities;
    IF new_text <> old.text THEN
        new_vector := coalesce(update_memory.embedding,
                               (hindsight.embed(update_memory.bank_id, ARRAY[new_text], 'passage'))[1]);
        -- the names and dates of the new text, read as retain reads a fact; dates it does not give stay
        SELECT * INTO reading FROM hindsight._reread_memory(
            cfg, new_text, coalesce(said_at, now()),
            (hindsight._memory(update_memory.bank_id, old.id)).entities || coalesce(update_memory.entities, '{}'));
        names := coalesce(update_memory.entities, reading.entities);
        IF reading.occurred_start IS NOT NULL AND update_memory.occurred_start IS NULL AND update_memory.occurred_end IS NULL THEN
            start_at := reading.occurred_start;
            end_at := reading.occurred_end;
        END IF;
    ELSE
        new_vector := coalesce(update_memory.embedding, old.embedding);
    END IF;
    IF end_at < start_at THEN
        RAISE EXCEPTION 'occurred_end % is before occurred_start %', end_at, start_at
            USING ERRCODE = '22023', HINT = 'Give both, or an occurred_end at or after the memory''s occurred_start.';
    END IF;

    -- every new value computed here, the UPDATE given constants: Citus refuses a function that is not IMMUTABLE
    -- inside a CASE or coalesce of a distributed UPDATE
    IF new_text <> old.text THEN
        words := hindsight._search_vector(new_text, (cfg->>'text_search_config')::regconfig);
    ELSE
        tokens := old.token_count;
        words := old.search_vector;
    END IF;
    UPDATE hindsight.memory_units u
    SET text = new_text,
        embedding = new_vector,
        token_count = tokens,
        search_vector = words,
        occurred_start = start_at,
        occurred_end = end_at,
        mentioned_at = said_at,
        tags = coalesce(update_memory.tags, old.tags),
        metadata = coalesce(update_memory.metadata, old.metadata),
        context = coalesce(update_memory.context, old.context)
    WHERE u.bank_id = update_memory.bank_id AND u.id = old.id;

    -- entities: resolved again as retain resolves them, mention counts recounted by their triggers
    IF names IS NOT NULL THEN
        DELETE FROM hindsight.unit_entities ue WHERE ue.bank_id = update_memory.bank_id AND ue.unit_id = old.id;
        -- resolved into an array first, then inserted from the bank's row (as in hindsight.retain: on Citus one
        -- INSERT ... SELECT on the bank's shards, not a COPY, which row-level security refuses)
        resolved := ARRAY(SELECT DISTINCT r.entity_id
                          FROM hindsight._resolve_entities(update_memory.bank_id,
                                                           array_fill(old.id, ARRAY[cardinality(names)]), names,
                                                           array_fill(said_at, ARRAY[cardinality(names)]),
                                                           (cfg->>'entity_merge_threshold')::float8) AS r);
        INSERT INTO hindsight.unit_entities (bank_id, unit_id, entity_id)
        SELECT bk.bank_id, old.id, r.entity_id
        FROM hindsight.banks bk, unnest(resolved) AS r(entity_id)
        WHERE bk.bank_id = update_memory.bank_id;
        PERFORM hindsight._delete_orphan_entities(update_memory.bank_id);
    END IF;

    -- links: a new text or date links the unit again as retain would link a new one (temporal, semantic,
    -- supersedes in both directions: what it revises, and the units said after it that revise it); the causal
    -- links the extractor found stay
    relink := new_text <> old.text OR new_vector IS DISTINCT FROM old.embedding
              OR start_at IS DISTINCT FROM old.occurred_start OR end_at IS DISTINCT FROM old.occurred_end
              OR said_at IS DISTINCT FROM old.mentioned_at;
    IF relink THEN
        WITH d AS (
            DELETE FROM hindsight.memory_links l
            WHERE l.bank_id = update_memory.bank_id AND l.from_unit_id = old.id
              AND l.link_type IN ('temporal', 'semantic', 'supersedes')
            RETURNING l.to_unit_id, l.link_type)
        SELECT array_agg(d.to_unit_id) FILTER (WHERE d.link_type = 'supersedes') INTO revised FROM d;
        DELETE FROM hindsight.memory_links l
        WHERE l.bank_id = update_memory.bank_id AND l.to_unit_id = old.id
          AND l.link_type IN ('temporal', 'semantic', 'supersedes');
        UPDATE hindsight.memory_units u SET superseded_at = NULL
        WHERE u.bank_id = update_memory.bank_id AND u.id = old.id AND u.superseded_at IS NOT NULL;
        semantic_path := hindsight._semantic_path(update_memory.bank_id, cfg);
        PERFORM hindsight._link_units(update_memory.bank_id, ARRAY[old.id], cfg, semantic_path);
        PERFORM hindsight._link_updates(update_memory.bank_id, ARRAY[old.id], cfg, semantic_path);
        -- the units said after it that are nearest to it are judged again against what they were said after
        newer := ARRAY(
            SELECT m.id FROM hindsight.memory_units m
            WHERE m.bank_id = update_memory.bank_id AND m.id <> old.id AND m.fact_type <> 'observation'
              AND m.mentioned_at > said_at
              AND 1 - (m.embedding <=> new_vector) >= (cfg->>'update_min_similarity')::float8
            ORDER BY m.embedding <=> new_vector, m.id
            LIMIT (cfg->>'update_candidates')::int);
        PERFORM hindsight._link_updates(update_memory.bank_id, newer, cfg, semantic_path);
        -- what it no longer supersedes: superseded_at from the links left (NULL when none is)
        UPDATE hindsight.memory_units u
        SET superseded_at = (SELECT min(n.mentioned_at) FROM hindsight.memory_links l
                             JOIN hindsight.memory_units n ON n.bank_id = l.bank_id AND n.id = l.from_unit_id
                             WHERE l.bank_id = update_memory.bank_id AND l.to_unit_id = u.id
                               AND l.link_type = 'supersedes')
        WHERE u.bank_id = update_memory.bank_id AND u.id = ANY (coalesce(revised, '{}'));
    END IF;

    -- observations citing it take its new text, dates and tags
    FOR o IN SELECT os.observation_id FROM hindsight.observation_sources os
             WHERE os.bank_id = update_memory.bank_id AND os.unit_id = old.id ORDER BY os.observation_id LOOP
        PERFORM hindsight._refresh_observation(update_memory.bank_id, o);
    END LOOP;
    RETURN hindsight._memory(update_memory.bank_id, old.id);
END
$$;
COMMENT ON FUNCTION hindsight.update_memory(text, uuid, text, timestamptz, timestamptz, timestamptz, text[], jsonb, text,
                                            text[], vector) IS
$$Changes one memory unit (a fact: world or experience) and returns it as it is now (hindsight.memory). A NULL
argument keeps the unit's own value; metadata and tags replace the unit's. A new text is re-embedded (embedding,
384 numbers, when the caller has it; else the bank's embedding provider, hindsight.embed), token-counted and indexed
for the keyword arm, and read again as retain reads a fact: its entities (entities when given, else the names the unit
had that the text still holds and the names it gives) and its dates as of mentioned_at (when occurred_start and
occurred_end are not given and the text gives a date). A new text, vector or date links the unit again: temporal
and semantic links, the supersedes links of what it revises, and those of the units said after it that revise it
(superseded_at follows); causal links stay. Observations citing it are refreshed. Errors: HS404 unknown bank, P0002
no such memory, 42501 read access only, 22023 an observation (it follows its facts), a blank text, occurred_end before occurred_start, metadata
not an object, blank tags or entities, a bad embedding; 54000 past a limit of hindsight.limits(); nothing is changed
then. docs/retain.md, "One memory at a time".$$;

CREATE OR REPLACE FUNCTION hindsight.delete_memory(bank_id text, memory_id uuid)
RETURNS bool
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    doc_id text;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    PERFORM hindsight._lock_bank(bank_id);
    -- the triggers on memory_units delete its links and restore the superseded_at of what it superseded, and
    -- refresh the observations that cited it (or delete those it was the last fact of)
    DELETE FROM hindsight.memory_units u
    WHERE u.bank_id = delete_memory.bank_id AND u.id = delete_memory.memory_id
    RETURNING u.document_id INTO doc_id;
    IF NOT FOUND THEN
        PERFORM hindsight._unwritable_memory(delete_memory.bank_id, delete_memory.memory_id);
        RETURN false;
    END IF;
    -- a document left without memories goes with its last one (its text would otherwise keep what was forgotten)
    IF doc_id IS NOT NULL AND NOT EXISTS (SELECT FROM hindsight.memory_units u
                                            WHERE u.bank_id = delete_memory.bank_id AND u.document_id = doc_id) THEN
        DELETE FROM hindsight.documents d WHERE d.bank_id = delete_memory.bank_id AND d.document_id = doc_id;
    END IF;
    PERFORM hindsight._delete_orphan_entities(bank_id);
    RETURN true;
END
$$;
COMMENT ON FUNCTION hindsight.delete_memory(text, uuid) IS
    'Deletes one memory unit (a fact or an observation) with its links in both directions and its entity '
    'references; what it superseded is current again (superseded_at from the supersedes links left), observations '
    'citing it are refreshed from their other facts (deleted when it was the last), entities no memory mentions any '
    'more are deleted, and a document left without memories is deleted with its chunks. Returns false when the bank '
    'has no such memory; HS404 for an unknown bank, 42501 for read access only.';
