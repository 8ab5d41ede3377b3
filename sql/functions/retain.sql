-- Retain: store prepared documents, chunks, memory units and entities in one statement.

CREATE OR REPLACE FUNCTION hindsight.retain(
    bank_id text,
    items jsonb
)
RETURNS TABLE (item_index int, document_id text, unit_id uuid)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(retain.bank_id);
    ts_config regconfig := (cfg->>'text_search_config')::regconfig;
    doc_ids text[];
    labels text[];
    unit_texts text[];
    token_counts int[];
    problem text;
    bad_hint text;
BEGIN
    PERFORM hindsight._require_python();
    IF items IS NULL OR jsonb_typeof(items) <> 'array' THEN
        RAISE EXCEPTION 'items must be a JSON array of objects, got %', coalesce(jsonb_typeof(items), 'NULL')
            USING ERRCODE = '22023', HINT = 'See COMMENT ON FUNCTION hindsight.retain for the item shape.';
    END IF;

    -- Shape of each item, checked before anything is written.
    SELECT format('item %s: %s', o - 1, CASE
               WHEN jsonb_typeof(x) <> 'object' THEN 'must be a JSON object'
               WHEN jsonb_typeof(x->'units') IS DISTINCT FROM 'array' OR jsonb_array_length(x->'units') = 0
                   THEN 'needs a non-empty "units" array'
               WHEN x ? 'chunks' AND jsonb_typeof(x->'chunks') <> 'array' THEN '"chunks" must be an array of strings'
               WHEN x ? 'chunks' AND EXISTS (SELECT FROM jsonb_array_elements(x->'chunks') c
                                             WHERE jsonb_typeof(c) <> 'string')
                   THEN '"chunks" must be an array of strings'
               WHEN x ? 'tags' AND (jsonb_typeof(x->'tags') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(x->'tags') t WHERE jsonb_typeof(t) <> 'string'))
                   THEN '"tags" must be an array of strings'
               WHEN x ? 'metadata' AND jsonb_typeof(x->'metadata') <> 'object' THEN '"metadata" must be an object'
               WHEN x ? 'document_id' AND jsonb_typeof(x->'document_id') NOT IN ('string', 'null')
                   THEN '"document_id" must be a string'
           END)
    INTO problem
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    WHERE jsonb_typeof(x) <> 'object'
       OR jsonb_typeof(x->'units') IS DISTINCT FROM 'array' OR jsonb_array_length(x->'units') = 0
       OR (x ? 'chunks' AND (jsonb_typeof(x->'chunks') <> 'array' OR EXISTS (
               SELECT FROM jsonb_array_elements(x->'chunks') c WHERE jsonb_typeof(c) <> 'string')))
       OR (x ? 'tags' AND (jsonb_typeof(x->'tags') <> 'array' OR EXISTS (
               SELECT FROM jsonb_array_elements(x->'tags') t WHERE jsonb_typeof(t) <> 'string')))
       OR (x ? 'metadata' AND jsonb_typeof(x->'metadata') <> 'object')
       OR (x ? 'document_id' AND jsonb_typeof(x->'document_id') NOT IN ('string', 'null'))
    ORDER BY o LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = '22023';
    END IF;

    -- Shape of each unit.
    SELECT format('item %s, unit %s: %s', o - 1, uo - 1, p)
    INTO problem
    FROM (
        SELECT o, uo, CASE
                   WHEN jsonb_typeof(v) <> 'object' THEN 'must be a JSON object'
                   WHEN jsonb_typeof(v->'text') IS DISTINCT FROM 'string' THEN 'needs a "text" string'
                   WHEN jsonb_typeof(v->'embedding') IS DISTINCT FROM 'array'
                       THEN 'needs an "embedding" array of 384 numbers'
                   WHEN jsonb_array_length(v->'embedding') <> 384
                       THEN format('embedding has %s dimensions, expected 384', jsonb_array_length(v->'embedding'))
                   WHEN coalesce(v->>'fact_type', 'world') NOT IN ('world', 'experience', 'observation')
                       THEN format('fact_type "%s" is not one of world, experience, observation', v->>'fact_type')
                   WHEN v ? 'chunk_index' AND (jsonb_typeof(v->'chunk_index') <> 'number'
                        OR (v->>'chunk_index')::numeric NOT IN (
                            SELECT n - 1 FROM generate_series(1, jsonb_array_length(coalesce(x->'chunks', '[]'))) n))
                       THEN format('chunk_index %s does not name one of the item''s %s chunks',
                                   v->'chunk_index', jsonb_array_length(coalesce(x->'chunks', '[]')))
                   WHEN v ? 'entities' AND (jsonb_typeof(v->'entities') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(v->'entities') e WHERE jsonb_typeof(e) <> 'string'))
                       THEN '"entities" must be an array of strings'
                   WHEN vector_norm((v->>'embedding')::vector) = 0
                       THEN 'embedding is all zeros; cosine similarity is undefined for it'
               END AS p
        FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
             jsonb_array_elements(x->'units') WITH ORDINALITY AS w(v, uo)
    ) checked
    WHERE p IS NOT NULL
    ORDER BY o, uo LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = '22023';
    END IF;

    SELECT array_agg(coalesce(nullif(x->>'document_id', ''), gen_random_uuid()::text) ORDER BY o)
    INTO doc_ids
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o);
    SELECT d INTO problem FROM unnest(doc_ids) AS d GROUP BY d HAVING count(*) > 1 LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION 'document_id "%" appears more than once in one retain call', problem
            USING ERRCODE = '22023', HINT = 'Merge the items, or retain them in separate calls.';
    END IF;

    -- Texts: validated and token-counted in one PL/Python call.
    SELECT array_agg(v->>'text' ORDER BY o, uo), array_agg(format('item %s, unit %s', o - 1, uo - 1) ORDER BY o, uo)
    INTO unit_texts, labels
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
         jsonb_array_elements(x->'units') WITH ORDINALITY AS w(v, uo);
    SELECT c.token_counts, c.problem, c.hint INTO token_counts, problem, bad_hint
    FROM hindsight._unit_token_counts(unit_texts, labels) AS c;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = '22023', HINT = bad_hint;
    END IF;

    -- Retaining a document id again replaces the document (its chunks and units cascade).
    DELETE FROM hindsight.documents d
    WHERE d.bank_id = retain.bank_id AND d.document_id = ANY (doc_ids);

    INSERT INTO hindsight.documents (bank_id, document_id, original_text, content_hash, tags, metadata)
    SELECT retain.bank_id, doc_ids[o], x->>'content',
           encode(sha256(convert_to(coalesce(x->>'content', ''), 'UTF8')), 'hex'),
           ARRAY(SELECT jsonb_array_elements_text(coalesce(x->'tags', '[]'))),
           coalesce(x->'metadata', '{}')
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o);

    INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
    SELECT retain.bank_id, doc_ids[o] || '#' || (co - 1), doc_ids[o], co - 1, c,
           encode(sha256(convert_to(c, 'UTF8')), 'hex')
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
         jsonb_array_elements_text(coalesce(x->'chunks', '[]')) WITH ORDINALITY AS ch(c, co);

    RETURN QUERY
    WITH u AS MATERIALIZED (
        SELECT (o - 1)::int AS item_index, doc_ids[o] AS document_id, gen_random_uuid() AS id,
               x AS item, v AS unit, row_number() OVER (ORDER BY o, uo) AS n,
               coalesce((v->>'mentioned_at')::timestamptz, (x->>'timestamp')::timestamptz, now()) AS mentioned_at
        FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
             jsonb_array_elements(x->'units') WITH ORDINALITY AS w(v, uo)
    ),
    ins AS (
        INSERT INTO hindsight.memory_units (
            bank_id, id, document_id, chunk_id, text, context, fact_type, embedding,
            occurred_start, occurred_end, mentioned_at, tags, metadata, token_count, search_vector)
        SELECT retain.bank_id, u.id, u.document_id,
               CASE WHEN u.unit ? 'chunk_index' THEN u.document_id || '#' || (u.unit->>'chunk_index') END,
               u.unit->>'text', u.item->>'context', coalesce(u.unit->>'fact_type', 'world'),
               (u.unit->>'embedding')::vector,
               (u.unit->>'occurred_start')::timestamptz, (u.unit->>'occurred_end')::timestamptz, u.mentioned_at,
               ARRAY(SELECT jsonb_array_elements_text(coalesce(u.item->'tags', '[]'))),
               coalesce(u.item->'metadata', '{}') || coalesce(u.unit->'metadata', '{}'),
               token_counts[u.n], hindsight._search_vector(u.unit->>'text', ts_config)
        FROM u
    ),
    mentions AS (
        SELECT u.id AS unit_id, u.n, btrim(e) AS name, u.mentioned_at
        FROM u, jsonb_array_elements_text(coalesce(u.unit->'entities', '[]')) AS e
        WHERE btrim(e) <> ''
    ),
    ent AS (
        -- mention_count follows unit_entities (a trigger); here only names and dates
        INSERT INTO hindsight.entities AS en (bank_id, canonical_name, first_seen, last_seen)
        SELECT retain.bank_id, (array_agg(m.name ORDER BY m.n))[1], min(m.mentioned_at), max(m.mentioned_at)
        FROM mentions m
        GROUP BY lower(m.name)
        ON CONFLICT (bank_id, lower(canonical_name)) DO UPDATE
        SET first_seen = least(en.first_seen, excluded.first_seen),
            last_seen = greatest(en.last_seen, excluded.last_seen)
        RETURNING en.id, lower(en.canonical_name) AS lname
    ),
    linked AS (
        INSERT INTO hindsight.unit_entities (bank_id, unit_id, entity_id)
        SELECT DISTINCT retain.bank_id, m.unit_id, ent.id
        FROM mentions m JOIN ent ON ent.lname = lower(m.name)
    )
    SELECT u.item_index, u.document_id, u.id FROM u ORDER BY u.n;

    -- A bank that has grown past hnsw_min_units gets its HNSW index now. When the
    -- calling statement itself reads memory_units (INSERT ... SELECT from another
    -- bank), PostgreSQL cannot build an index under it: the next retain (or
    -- hindsight.index_bank) does it, and search stays exact meanwhile.
    BEGIN
        PERFORM hindsight.index_bank(retain.bank_id);
    EXCEPTION WHEN object_in_use THEN
        RAISE NOTICE 'bank "%": HNSW index deferred (memory_units is in use by this statement)', retain.bank_id
            USING HINT = 'Run SELECT hindsight.index_bank(bank_id) afterwards.';
    END;
END
$$;
COMMENT ON FUNCTION hindsight.retain(text, jsonb) IS
$$Stores prepared items in one transaction and returns (item_index 0-based, document_id, unit_id) per memory unit.
items: JSON array of {"document_id"?: text (default: a new uuid; an existing id is replaced),
"content"?: original text, "context"?: text, "timestamp"?: ISO 8601 (default now()), "tags"?: [text],
"metadata"?: object, "chunks"?: [text], "units": [{"text": text, "embedding": [384 numbers, not all zero],
"chunk_index"?: int into chunks, "fact_type"?: world|experience|observation (default world),
"occurred_start"?, "occurred_end"?, "mentioned_at"? (default the item timestamp), "entities"?: [names],
"metadata"?: object}]}. The hindsight_pg driver builds these (chunking, embeddings). Raises HS404 for an
unknown bank and 22023 naming the item and unit of any bad input; nothing is written then.$$;
