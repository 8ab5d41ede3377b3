-- Retain: store extracted facts (memory units) with their documents and chunks, resolve their entities
-- against the bank (_entities.sql), and link them (_links.sql), all in the caller's transaction; the
-- items' shape is checked first (_retain_items.sql), and a document the bank holds already is updated
-- (_documents.sql). docs/retain.md describes the pipeline.

CREATE OR REPLACE FUNCTION hindsight.retain(
    bank_id text,
    items jsonb,
    config_seen jsonb DEFAULT NULL
)
RETURNS TABLE (item_index int, document_id text, unit_id uuid, merged jsonb)
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
-- a retain's statements are small, but the planner's estimates for JSON arrays (100 elements each, nested) put
-- the item checks past jit_above_cost: compiling them took 100 ms of a 5 ms check (docs/benchmarks.md)
SET jit = off
AS $$
#variable_conflict use_column
DECLARE
    taken uuid[];
    -- the bank's config, read once here and passed to every helper that needs a key of it
    cfg jsonb := hindsight.bank_config(retain.bank_id);
    ts_config regconfig := (cfg->>'text_search_config')::regconfig;
    semantic_path text;
    doc_ids text[];
    existing text[];
    chunk_ids jsonb := '{}';
    labels text[];
    unit_texts text[];
    token_counts int[];
    new_ids uuid[];
    mention_units uuid[];
    mention_entities uuid[];
    problem text;
    bad_hint text;
    item_at int;
BEGIN
    PERFORM hindsight._require_python();
    PERFORM hindsight._check_config_seen(retain.bank_id, cfg, config_seen);
    PERFORM hindsight._check_retain_items(items);
    SELECT array_agg(coalesce(nullif(x->>'document_id', ''), gen_random_uuid()::text) ORDER BY o)
    INTO doc_ids
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o);

    -- Texts: validated and token-counted in one PL/Python call.
    SELECT array_agg(u.unit->>'text' ORDER BY u.n),
           array_agg(format('item %s, unit %s', u.item_no - 1, u.unit_no - 1) ORDER BY u.n)
    INTO unit_texts, labels
    FROM hindsight._retain_units(items) u;
    IF unit_texts IS NOT NULL THEN
        SELECT c.token_counts, c.problem, c.hint INTO token_counts, problem, bad_hint
        FROM hindsight._unit_token_counts(unit_texts, labels) AS c;
        IF problem IS NOT NULL THEN
            RAISE EXCEPTION '%', problem USING ERRCODE = '22023', HINT = bad_hint;
        END IF;
    END IF;

    -- From here on the bank is written: one writer per bank at a time.
    PERFORM hindsight._lock_bank(retain.bank_id);

    -- Documents: new ones are inserted with their chunks; an existing one is
    -- updated (locked first, so two retains of one document take turns).
    SELECT array_agg(d.document_id) INTO existing
    FROM (SELECT d.document_id FROM hindsight.documents d
          WHERE d.bank_id = retain.bank_id AND d.document_id = ANY (doc_ids)
          ORDER BY d.document_id FOR UPDATE) d;
    FOR item_at IN SELECT i FROM generate_subscripts(doc_ids, 1) i WHERE doc_ids[i] = ANY (coalesce(existing, '{}'))
    LOOP
        chunk_ids := chunk_ids || jsonb_build_object((item_at - 1)::text, to_jsonb(
            hindsight._update_document(retain.bank_id, doc_ids[item_at], items->(item_at - 1))));
    END LOOP;

    -- Every INSERT of rows made here selects from the bank's row (bk): on Citus that makes it one
    -- INSERT ... SELECT on the bank's shards, where an INSERT from a function alone would be pulled to the
    -- coordinator and sent as COPY, which row-level security refuses to a role that is not a superuser.
    INSERT INTO hindsight.documents (bank_id, document_id, original_text, content_hash, tags, metadata)
    SELECT bk.bank_id, doc_ids[o], x->>'content',
           encode(sha256(convert_to(coalesce(x->>'content', ''), 'UTF8')), 'hex'),
           ARRAY(SELECT jsonb_array_elements_text(coalesce(x->'tags', '[]'))),
           coalesce(x->'metadata', '{}')
    FROM hindsight.banks bk, jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    WHERE bk.bank_id = retain.bank_id AND NOT doc_ids[o] = ANY (coalesce(existing, '{}'));

    INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
    SELECT bk.bank_id, doc_ids[o] || '#' || (co - 1), doc_ids[o], co - 1, c,
           encode(sha256(convert_to(c, 'UTF8')), 'hex')
    FROM hindsight.banks bk, jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
         jsonb_array_elements_text(coalesce(x->'chunks', '[]')) WITH ORDINALITY AS ch(c, co)
    WHERE bk.bank_id = retain.bank_id AND NOT doc_ids[o] = ANY (coalesce(existing, '{}'));

    -- Memory units. Their ids are name-based (hindsight._name_uuid of the bank, the document, the unit's
    -- place in its item and its text), so the same items make the same ids in every database: a single
    -- node and a Citus cluster agree unit for unit, down to the order of ties. An id the bank holds
    -- already (the same text appended to a document again) is replaced by a random one.
    SELECT array_agg(hindsight._name_uuid(concat_ws(E'\x1f', retain.bank_id, doc_ids[u.item_no], u.unit_no::text,
                                                    u.unit->>'text')) ORDER BY u.n)
    INTO new_ids
    FROM hindsight._retain_units(items) u;
    SELECT array_agg(u.id) INTO taken
    FROM hindsight.memory_units u WHERE u.bank_id = retain.bank_id AND u.id = ANY (new_ids);
    IF taken IS NOT NULL THEN
        SELECT array_agg(CASE WHEN n.id = ANY (taken) THEN gen_random_uuid() ELSE n.id END ORDER BY n.o)
        INTO new_ids FROM unnest(new_ids) WITH ORDINALITY AS n(id, o);
    END IF;
    INSERT INTO hindsight.memory_units (
        bank_id, id, document_id, chunk_id, text, context, fact_type, embedding,
        occurred_start, occurred_end, mentioned_at, tags, metadata, token_count, search_vector)
    SELECT bk.bank_id, new_ids[u.n], doc_ids[u.item_no],
           CASE WHEN u.unit ? 'chunk_index'
                THEN coalesce(chunk_ids->(u.item_no - 1)::text->>(u.unit->>'chunk_index')::int,
                              doc_ids[u.item_no] || '#' || (u.unit->>'chunk_index')) END,
           u.unit->>'text', coalesce(u.unit->>'context', u.item->>'context'), coalesce(u.unit->>'fact_type', 'world'),
           (u.unit->>'embedding')::vector,
           (u.unit->>'occurred_start')::timestamptz, (u.unit->>'occurred_end')::timestamptz, u.mentioned_at,
           ARRAY(SELECT jsonb_array_elements_text(coalesce(u.item->'tags', '[]'))),
           coalesce(u.item->'metadata', '{}') || coalesce(u.unit->'metadata', '{}'),
           token_counts[u.n], hindsight._search_vector(u.unit->>'text', ts_config)
    FROM hindsight.banks bk, hindsight._retain_units(items) u
    WHERE bk.bank_id = retain.bank_id;

    -- Entities: resolved against the bank, then linked to their units.
    SELECT array_agg(r.unit_id), array_agg(r.entity_id) INTO mention_units, mention_entities
    FROM (SELECT array_agg(new_ids[u.n] ORDER BY u.n, e.o) AS unit_ids, array_agg(e.name ORDER BY u.n, e.o) AS names,
                 array_agg(u.mentioned_at ORDER BY u.n, e.o) AS seen_at
          FROM hindsight._retain_units(items) u,
               jsonb_array_elements_text(coalesce(u.unit->'entities', '[]')) WITH ORDINALITY AS e(name, o)) m,
         hindsight._resolve_entities(retain.bank_id, coalesce(m.unit_ids, '{}'), coalesce(m.names, '{}'),
                                     coalesce(m.seen_at, '{}'), (cfg->>'entity_merge_threshold')::float8) AS r;
    INSERT INTO hindsight.unit_entities (bank_id, unit_id, entity_id)
    SELECT bk.bank_id, r.unit_id, r.entity_id
    FROM hindsight.banks bk, unnest(mention_units, mention_entities) AS r(unit_id, entity_id)
    WHERE bk.bank_id = retain.bank_id;

    -- Links: temporal and semantic neighbours, and the causal relations the
    -- extractor found (unit -caused_by-> cause and cause -causes-> unit, weight 1).
    IF new_ids IS NOT NULL THEN
        semantic_path := hindsight._semantic_path(retain.bank_id, cfg);  -- after the inserts: it counts them
        PERFORM hindsight._link_units(retain.bank_id, new_ids, cfg, semantic_path);
        INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
        SELECT DISTINCT bk.bank_id, l.a, l.b, l.kind, 1.0
        FROM hindsight.banks bk, hindsight._retain_units(items) u,
             jsonb_array_elements_text(coalesce(u.unit->'caused_by', '[]')) AS c(target),
             LATERAL (VALUES (new_ids[u.n], new_ids[u.first_n + c.target::int + 1], 'caused_by'),
                             (new_ids[u.first_n + c.target::int + 1], new_ids[u.n], 'causes')) AS l(a, b, kind)
        WHERE bk.bank_id = retain.bank_id
        ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO NOTHING;
        -- knowledge updates: a new unit that revises an older one supersedes it (_updates.sql)
        PERFORM hindsight._link_updates(retain.bank_id, new_ids, cfg, semantic_path);
    END IF;

    IF existing IS NOT NULL THEN
        PERFORM hindsight._delete_orphan_entities(retain.bank_id);
    END IF;

    RETURN QUERY
    SELECT (t.o - 1)::int, doc_ids[t.o], new_ids[u.n], coalesce(u.merged, '[]')
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    LEFT JOIN (SELECT u.item_no, u.n, u.unit->'merged' AS merged FROM hindsight._retain_units(items) u) u
           ON u.item_no = t.o
    ORDER BY t.o, u.n;
END
$$;
COMMENT ON FUNCTION hindsight.retain(text, jsonb, jsonb) IS
$$Stores extracted items in one transaction and returns (item_index 0-based, document_id, unit_id, merged) per new
memory unit (unit_id NULL for an item that added none; merged: the unit's "merged" as given, else []). items: JSON
array of {"document_id"?: text (default: a new uuid), "update_mode"?: replace (default) | append, "content"?: original
text, "context"?: text, "timestamp"?: ISO 8601 (default now()), "tags"?: [text], "metadata"?: object, "chunks"?:
[text], "units": [{"text": text, "embedding": [384 numbers, not all zero], "chunk_index"?: int into chunks,
"fact_type"?: world|experience|observation (default world), "occurred_start"?, "occurred_end"?, "mentioned_at"?
(default the item timestamp), "entities"?: [names], "caused_by"?: [indexes of the item's other units], "metadata"?:
object, "context"?: text (the unit's own, e.g. the headings it was written under; default the item's), "merged"?: [{"text": text, "item_index"?, "reason"?, "similarity"?}: the caller's repeats stored as this
unit]}]}. An existing document_id is updated: a chunk
given without units whose SHA-256 the document already has keeps its memories; replace drops the rest, append adds.
Entities are resolved against the bank, and units linked (temporal, semantic, causal, and supersedes where a new unit
revises an older one: hindsight._link_updates); see docs/retain.md. The
hindsight_pg driver builds the items (chunking, fact extraction, embeddings). Raises HS404 for an unknown bank and
22023 naming the item and unit of any bad input, 54000 naming the first input past a limit of hindsight.limits()
(items, units, unit_chars, tags, entities, name_chars, content_chars, json_bytes, json_depth), checked first, and
HS412 when config_seen (the effective config the caller embedded and deduplicated the units with; NULL: not said) is
no longer the bank's; nothing is written then.$$;
