-- Retain of a document the bank holds already: unchanged chunks keep their memories.

CREATE OR REPLACE FUNCTION hindsight._update_document(
    bank_id text,
    document_id text,
    item jsonb
)
RETURNS text[]
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    kept_old text[];
    kept_new int[];
    chunk_offset int;
    old_hashes text[];
    old_ids text[];
    new_indexes bigint[];
    new_texts text[];
    new_hashes text[];
    new_text text;
    new_tags text[];
    new_metadata jsonb;
    result text[];
BEGIN
    -- An existing document retained again. A chunk the item gives without units
    -- whose SHA-256 equals a chunk the document has keeps that chunk's memories
    -- (matched in order among equal hashes); replace drops every other memory and
    -- chunk of the document, append adds after the last chunk and leaves the
    -- rest. Returns the chunk id of each of the item's chunks.
    CREATE TEMP TABLE IF NOT EXISTS pg_temp._hindsight_new_chunks (
        ci int, chunk_text text, hash text, occurrence int, has_units bool) ON COMMIT DROP;
    TRUNCATE pg_temp._hindsight_new_chunks;
    INSERT INTO pg_temp._hindsight_new_chunks
    SELECT c.ci, c.chunk_text, c.hash, row_number() OVER (PARTITION BY c.hash ORDER BY c.ci)::int,
           EXISTS (SELECT FROM jsonb_array_elements(item->'units') v WHERE (v->>'chunk_index')::int = c.ci)
    FROM (SELECT (co - 1)::int AS ci, t AS chunk_text, encode(sha256(convert_to(t, 'UTF8')), 'hex') AS hash
          FROM jsonb_array_elements_text(coalesce(item->'chunks', '[]')) WITH ORDINALITY AS ch(t, co)) c;

    IF coalesce(item->>'update_mode', 'replace') = 'replace' THEN
        SELECT array_agg(o.chunk_id), array_agg(nc.ci) INTO kept_old, kept_new
        FROM (SELECT c.chunk_id, c.content_hash,
                     row_number() OVER (PARTITION BY c.content_hash ORDER BY c.chunk_index)::int AS occurrence
              FROM hindsight.chunks c
              WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id) o
        JOIN pg_temp._hindsight_new_chunks nc
          ON nc.hash = o.content_hash AND nc.occurrence = o.occurrence AND NOT nc.has_units;

        DELETE FROM hindsight.memory_units u
        WHERE u.bank_id = _update_document.bank_id AND u.document_id = _update_document.document_id
          AND (u.chunk_id IS NULL OR NOT u.chunk_id = ANY (coalesce(kept_old, '{}')));
        -- kept chunks move to their new positions in two steps, through copies with temporary ids and
        -- positions (both are unique), their memories moved along (updating a key that rows refer to
        -- would need ON UPDATE CASCADE, which Citus does not support on a key with the bank id)
        INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
        SELECT c.bank_id, c.document_id || '#~' || k.ci, c.document_id, 1000000 + k.ci, c.chunk_text, c.content_hash
        FROM hindsight.chunks c JOIN unnest(kept_old, kept_new) AS k(old_id, ci) ON c.chunk_id = k.old_id
        WHERE c.bank_id = _update_document.bank_id;
        UPDATE hindsight.memory_units u SET chunk_id = _update_document.document_id || '#~' || k.ci
        FROM unnest(kept_old, kept_new) AS k(old_id, ci)
        WHERE u.bank_id = _update_document.bank_id AND u.chunk_id = k.old_id;
        DELETE FROM hindsight.chunks c
        WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id
          AND c.chunk_index < 1000000;
        INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
        SELECT c.bank_id, c.document_id || '#' || (c.chunk_index - 1000000), c.document_id, c.chunk_index - 1000000,
               c.chunk_text, c.content_hash
        FROM hindsight.chunks c
        WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id;
        UPDATE hindsight.memory_units u SET chunk_id = _update_document.document_id || '#' || k.ci
        FROM unnest(kept_new) AS k(ci)
        WHERE u.bank_id = _update_document.bank_id AND u.chunk_id = _update_document.document_id || '#~' || k.ci;
        DELETE FROM hindsight.chunks c
        WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id
          AND c.chunk_index >= 1000000;
        -- new rows select from the bank's row (bk), as in hindsight.retain: on Citus one INSERT ... SELECT on
        -- the bank's shards, not a COPY (refused under row-level security); arrays, not the temporary table
        SELECT array_agg(nc.ci), array_agg(nc.chunk_text), array_agg(nc.hash)
        INTO new_indexes, new_texts, new_hashes
        FROM pg_temp._hindsight_new_chunks nc WHERE NOT nc.ci = ANY (coalesce(kept_new, '{}'));
        INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
        SELECT bk.bank_id, _update_document.document_id || '#' || x.idx, _update_document.document_id,
               x.idx, x.chunk_text, x.hash
        FROM hindsight.banks bk, unnest(new_indexes, new_texts, new_hashes) AS x(idx, chunk_text, hash)
        WHERE bk.bank_id = _update_document.bank_id;
        UPDATE hindsight.documents d
        SET original_text = item->>'content',
            content_hash = encode(sha256(convert_to(coalesce(item->>'content', ''), 'UTF8')), 'hex'),
            tags = ARRAY(SELECT jsonb_array_elements_text(coalesce(item->'tags', '[]'))),
            metadata = coalesce(item->'metadata', '{}'), updated_at = now()
        WHERE d.bank_id = _update_document.bank_id AND d.document_id = _update_document.document_id;
        -- kept memories take the document's new tags and context
        UPDATE hindsight.memory_units u
        SET tags = ARRAY(SELECT jsonb_array_elements_text(coalesce(item->'tags', '[]'))), context = item->>'context'
        WHERE u.bank_id = _update_document.bank_id AND u.document_id = _update_document.document_id
          AND (u.tags <> ARRAY(SELECT jsonb_array_elements_text(coalesce(item->'tags', '[]')))
               OR u.context IS DISTINCT FROM item->>'context');
        SELECT array_agg(_update_document.document_id || '#' || nc.ci ORDER BY nc.ci) INTO result
        FROM pg_temp._hindsight_new_chunks nc;
    ELSE
        SELECT coalesce(max(c.chunk_index) + 1, 0), array_agg(c.content_hash ORDER BY c.chunk_index),
               array_agg(c.chunk_id ORDER BY c.chunk_index)
        INTO chunk_offset, old_hashes, old_ids
        FROM hindsight.chunks c
        WHERE c.bank_id = _update_document.bank_id AND c.document_id = _update_document.document_id;
        -- a chunk the item gives without units that the document has already is that chunk (its first
        -- one with the same text); the others are new, numbered after the last (arrays, not a join: on
        -- Citus a query may not join the temporary table with a distributed one)
        SELECT array_agg(coalesce(n.existing_id, _update_document.document_id || '#' || n.idx) ORDER BY n.ci),
               array_agg(n.idx ORDER BY n.ci) FILTER (WHERE n.existing_id IS NULL),
               array_agg(n.chunk_text ORDER BY n.ci) FILTER (WHERE n.existing_id IS NULL),
               array_agg(n.hash ORDER BY n.ci) FILTER (WHERE n.existing_id IS NULL)
        INTO result, new_indexes, new_texts, new_hashes
        FROM (SELECT p.*, chunk_offset - 1 + row_number() OVER (PARTITION BY p.existing_id IS NULL ORDER BY p.ci) AS idx
              FROM (SELECT nc.ci, nc.chunk_text, nc.hash,
                           CASE WHEN NOT nc.has_units THEN old_ids[array_position(old_hashes, nc.hash)] END AS existing_id
                    FROM pg_temp._hindsight_new_chunks nc) p) n;
        INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
        SELECT bk.bank_id, _update_document.document_id || '#' || x.idx, _update_document.document_id,
               x.idx, x.chunk_text, x.hash
        FROM hindsight.banks bk, unnest(new_indexes, new_texts, new_hashes) AS x(idx, chunk_text, hash)
        WHERE bk.bank_id = _update_document.bank_id;
        -- the new values first, then an UPDATE of constants: on Citus an UPDATE may not pass columns
        -- to STABLE functions (concat_ws)
        SELECT concat_ws(E'\n\n', d.original_text, item->>'content'),
               ARRAY(SELECT DISTINCT t FROM unnest(d.tags || ARRAY(
                         SELECT jsonb_array_elements_text(coalesce(item->'tags', '[]')))) t ORDER BY t),
               d.metadata || coalesce(item->'metadata', '{}')
        INTO new_text, new_tags, new_metadata
        FROM hindsight.documents d
        WHERE d.bank_id = _update_document.bank_id AND d.document_id = _update_document.document_id;
        UPDATE hindsight.documents d
        SET original_text = new_text,
            content_hash = encode(sha256(convert_to(new_text, 'UTF8')), 'hex'),
            tags = new_tags, metadata = new_metadata, updated_at = now()
        WHERE d.bank_id = _update_document.bank_id AND d.document_id = _update_document.document_id;
    END IF;
    RETURN coalesce(result, '{}');
END
$$;
COMMENT ON FUNCTION hindsight._update_document(text, text, jsonb) IS
    'Retain of an existing document (update_mode replace or append): keeps the memories of unchanged chunks '
    '(same SHA-256, no new units given), replaces or appends the rest, updates the document row. Returns the '
    'chunk id of each of the item''s chunks.';
