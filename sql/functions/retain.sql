-- Retain: store extracted facts (memory units) with their documents and chunks,
-- resolve their entities against the bank, and link them (temporal, semantic,
-- causal), all in the caller's transaction. docs/retain.md describes the pipeline.

CREATE OR REPLACE FUNCTION hindsight._entity_names_compatible(a text, b text)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Guards of entity resolution, before any score:
    -- 1. names whose tokens with digits differ name different things ("Room 101" /
    --    "Room 102", "UA123" / "UA124", "2023 Tax Return" / "2024 Tax Return");
    -- 2. a name found inside the other but not as whole words ("Uno" in "Bruno")
    --    shares letters, not identity.
    WITH n AS (
        SELECT ' ' || btrim(regexp_replace(lower(a), '[^[:alnum:]]+', ' ', 'g')) || ' ' AS a,
               ' ' || btrim(regexp_replace(lower(b), '[^[:alnum:]]+', ' ', 'g')) || ' ' AS b
    )
    SELECT ARRAY(SELECT m[1] FROM regexp_matches(n.a, '[[:alnum:]]*[0-9][[:alnum:]]*', 'g') m ORDER BY 1)
           = ARRAY(SELECT m[1] FROM regexp_matches(n.b, '[[:alnum:]]*[0-9][[:alnum:]]*', 'g') m ORDER BY 1)
       AND NOT (strpos(btrim(n.a), btrim(n.b)) > 0 AND strpos(n.a, n.b) = 0)
       AND NOT (strpos(btrim(n.b), btrim(n.a)) > 0 AND strpos(n.b, n.a) = 0)
    FROM n
$$;
COMMENT ON FUNCTION hindsight._entity_names_compatible(text, text) IS
    'Whether two entity names may be merged at all: their digit-bearing tokens are equal, and neither is found '
    'inside the other except as whole words. Case and punctuation are ignored.';

CREATE OR REPLACE FUNCTION hindsight._resolve_entities(
    bank_id text,
    unit_ids uuid[],
    names text[],
    seen_at timestamptz[]
)
RETURNS TABLE (unit_id uuid, entity_id uuid)
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
SET pg_trgm.similarity_threshold = 0.3
AS $$
#variable_conflict use_column
DECLARE
    threshold float8 := (hindsight.bank_config(bank_id)->>'entity_merge_threshold')::float8;
    bank_units bigint := coalesce((SELECT c.unit_count FROM hindsight._bank_counts c
                                   WHERE c.bank_id = _resolve_entities.bank_id), 0);
BEGIN
    -- Mentions (unit, name, time) -> entities. Per distinct name (case-insensitive):
    -- an entity of that exact name is reused; otherwise the best of the 200 most
    -- trigram-similar entities is merged into when
    --   score = 0.5 * name similarity
    --         + 0.3 * share of the name's co-mentioned (known, non-hub) entities that
    --                 co-occur with the candidate
    --         + 0.2 * max(0, 1 - |days from the latest mention to candidate.last_seen| / 7)
    -- exceeds entity_merge_threshold (0.6), the candidate passes
    -- _entity_names_compatible and is not itself co-mentioned with the name; else
    -- a new entity. A hub (linked to more than half of the bank's units) earns no
    -- co-occurrence credit. INSERT ... ON CONFLICT makes two retains that bring the
    -- same new name at once end with one entity.
    RETURN QUERY
    WITH m AS (
        SELECT DISTINCT ON (x.u, lower(btrim(x.nm))) x.u AS unit_id, btrim(x.nm) AS name,
               lower(btrim(x.nm)) AS lname, x.at, x.ord
        FROM unnest(unit_ids, names, seen_at) WITH ORDINALITY AS x(u, nm, at, ord)
        WHERE btrim(x.nm) <> ''
        ORDER BY x.u, lower(btrim(x.nm)), x.ord
    ),
    n AS (
        SELECT m.lname, (array_agg(m.name ORDER BY m.ord))[1] AS name, min(m.at) AS first_at, max(m.at) AS last_at
        FROM m GROUP BY m.lname
    ),
    exact AS (
        SELECT n.lname, e.id
        FROM n JOIN hindsight.entities e
          ON e.bank_id = _resolve_entities.bank_id AND lower(e.canonical_name) = n.lname
    ),
    co_mentioned AS (  -- for each name without an exact match: the known entities beside it
        SELECT DISTINCT m1.lname, x.id AS other_id, e.mention_count > bank_units / 2.0 AS hub
        FROM m m1
        JOIN m m2 ON m2.unit_id = m1.unit_id AND m2.lname <> m1.lname
        JOIN exact x ON x.lname = m2.lname
        JOIN hindsight.entities e ON e.bank_id = _resolve_entities.bank_id AND e.id = x.id
        WHERE m1.lname NOT IN (SELECT lname FROM exact)
    ),
    scored AS (
        SELECT n.lname, c.id,
               0.5 * c.sim
             + 0.3 * coalesce((SELECT count(*) FILTER (WHERE EXISTS (
                                          SELECT FROM hindsight._entity_cooccurrences co
                                          WHERE co.bank_id = _resolve_entities.bank_id AND co.entity_id = c.id
                                            AND co.other_entity_id = o.other_id))::float8 / nullif(count(*), 0)
                               FROM co_mentioned o WHERE o.lname = n.lname AND NOT o.hub), 0)
             + 0.2 * greatest(0, 1 - abs(extract(epoch FROM n.last_at - c.last_seen)) / 86400 / 7) AS score
        FROM n
        CROSS JOIN LATERAL (
            SELECT e.id, e.canonical_name, e.last_seen, similarity(e.canonical_name, n.name) AS sim
            FROM hindsight.entities e
            WHERE e.bank_id = _resolve_entities.bank_id AND e.canonical_name % n.name
            ORDER BY similarity(e.canonical_name, n.name) DESC, e.id
            LIMIT 200
        ) c
        WHERE n.lname NOT IN (SELECT lname FROM exact)
          AND hindsight._entity_names_compatible(c.canonical_name, n.name)
          AND NOT EXISTS (SELECT FROM co_mentioned o WHERE o.lname = n.lname AND o.other_id = c.id)
    ),
    resolved AS (
        SELECT lname, id FROM exact
        UNION ALL
        (SELECT DISTINCT ON (s.lname) s.lname, s.id FROM scored s WHERE s.score > threshold
         ORDER BY s.lname, s.score DESC, s.id)
    ),
    seen AS (
        UPDATE hindsight.entities e
        SET first_seen = least(e.first_seen, t.first_at), last_seen = greatest(e.last_seen, t.last_at)
        FROM (SELECT r.id, min(n.first_at) AS first_at, max(n.last_at) AS last_at
              FROM resolved r JOIN n USING (lname) GROUP BY r.id) t
        WHERE e.bank_id = _resolve_entities.bank_id AND e.id = t.id
    ),
    created AS (
        INSERT INTO hindsight.entities AS e (bank_id, canonical_name, first_seen, last_seen)
        SELECT _resolve_entities.bank_id, n.name, n.first_at, n.last_at
        FROM n WHERE n.lname NOT IN (SELECT lname FROM resolved)
        ON CONFLICT (bank_id, lower(canonical_name)) DO UPDATE
        SET first_seen = least(e.first_seen, excluded.first_seen), last_seen = greatest(e.last_seen, excluded.last_seen)
        RETURNING e.id, lower(e.canonical_name) AS lname
    )
    SELECT DISTINCT m.unit_id, coalesce(r.id, c.id)
    FROM m
    LEFT JOIN resolved r ON r.lname = m.lname
    LEFT JOIN created c ON c.lname = m.lname;
END
$$;
COMMENT ON FUNCTION hindsight._resolve_entities(text, uuid[], text[], timestamptz[]) IS
    'Entity resolution of retain: maps mentions (unit_ids[i] names names[i] at seen_at[i]) to entities of the '
    'bank, reusing exact names, merging into a similar entity when 0.5 name similarity + 0.3 co-occurrence share '
    '+ 0.2 recency (7 days) > entity_merge_threshold, else creating one; updates first_seen/last_seen. '
    'Returns one row per (unit, entity). See docs/retain.md.';

CREATE OR REPLACE FUNCTION hindsight._semantic_links_hnsw(
    bank_id text,
    unit_ids uuid[],
    top_k int,
    min_similarity float8
)
RETURNS void
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
SET hnsw.ef_search = 40
SET hnsw.iterative_scan = strict_order
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_sort = off
SET jit = off
AS $$
BEGIN
    -- Semantic links of a bank searched through the shared HNSW index
    -- (hindsight._semantic_path): one index search per new unit, an iterative
    -- scan keeping the bank's units. Scans and sorts are off because the planner
    -- would rather scan the bank and sort it once per new unit; JIT is off because
    -- the disabled sort adds 1e10 to the cost, past jit_above_cost. These settings,
    -- and ef_search (top_k + 10: the unit itself, ties), last for this call only.
    PERFORM set_config('hnsw.ef_search', greatest(top_k + 10, 40)::text, true);
    EXECUTE $sql$
        INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
        SELECT $1, n.id, nb.id, 'semantic', least(1.0, nb.sim)
        FROM hindsight.memory_units n
        CROSS JOIN LATERAL (
            SELECT m.id, 1 - (m.embedding <=> n.embedding) AS sim
            FROM hindsight.memory_units m
            WHERE m.bank_id = $1 AND m.id <> n.id
            ORDER BY m.embedding <=> n.embedding
            LIMIT $3
        ) nb
        WHERE n.bank_id = $1 AND n.id = ANY ($2) AND nb.sim >= $4
        ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO NOTHING
    $sql$
    USING bank_id, unit_ids, top_k, min_similarity;
END
$$;
COMMENT ON FUNCTION hindsight._semantic_links_hnsw(text, uuid[], int, float8) IS
    'Semantic links of new units (unit_ids) of a bank searched through the shared HNSW index: per unit its top_k '
    'nearest units of the bank by cosine (iterative scan), kept at similarity >= min_similarity, weight = the '
    'similarity.';

CREATE OR REPLACE FUNCTION hindsight._link_units(
    bank_id text,
    unit_ids uuid[]
)
RETURNS void
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    cfg jsonb := hindsight.bank_config(bank_id);
    neighbours int := (cfg->>'temporal_link_neighbours')::int;
    top_k int := (cfg->>'semantic_link_top_k')::int;
BEGIN
    IF neighbours = 0 AND top_k = 0 THEN
        RETURN;
    END IF;
    -- temporal: each new unit to its nearest units in time (the date it is filed under,
    -- hindsight._effective_date) of its bank and fact type, `neighbours` before and after,
    -- weight max(0.3, 1 - hours apart / 24), in both directions (the temporal arm walks
    -- outgoing links).
    INSERT INTO hindsight.memory_links AS l (bank_id, from_unit_id, to_unit_id, link_type, weight)
    SELECT _link_units.bank_id, d.a, d.b, 'temporal', max(p.w)
    FROM (
        SELECT n.id AS a, nb.id AS b, greatest(0.3, 1 - abs(extract(epoch FROM nb.t - n.t)) / 3600 / 24) AS w
        FROM (SELECT u.bank_id, u.id, u.fact_type,
                     hindsight._effective_date(u.occurred_start, u.occurred_end, u.mentioned_at) AS t
              FROM hindsight.memory_units u
              WHERE u.bank_id = _link_units.bank_id AND u.id = ANY (unit_ids)) n
        CROSS JOIN LATERAL (
            (SELECT m.id, hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at) AS t
             FROM hindsight.memory_units m
             WHERE m.bank_id = n.bank_id AND m.fact_type = n.fact_type AND m.id <> n.id
               AND hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at) <= n.t
             ORDER BY hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at) DESC, m.id
             LIMIT neighbours)
            UNION ALL
            (SELECT m.id, hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at)
             FROM hindsight.memory_units m
             WHERE m.bank_id = n.bank_id AND m.fact_type = n.fact_type
               AND hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at) > n.t
             ORDER BY hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at), m.id
             LIMIT neighbours)
        ) nb
        WHERE n.t IS NOT NULL
    ) p
    CROSS JOIN LATERAL (VALUES (p.a, p.b), (p.b, p.a)) AS d(a, b)
    GROUP BY d.a, d.b
    ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO UPDATE SET weight = greatest(l.weight, excluded.weight);

    -- semantic: each new unit to its top_k nearest units by cosine, kept at
    -- similarity >= semantic_link_min_similarity, weight = the similarity.
    IF top_k = 0 THEN
        RETURN;
    END IF;
    IF hindsight._semantic_path(bank_id) = 'hnsw' THEN
        PERFORM hindsight._semantic_links_hnsw(bank_id, unit_ids, top_k,
                                               (cfg->>'semantic_link_min_similarity')::float8);
    ELSE
        -- A small bank is scanned exactly, once for all new units (not once per unit).
        INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
        SELECT _link_units.bank_id, r.a, r.b, 'semantic', least(1.0, r.sim)
        FROM (SELECT p.a, p.b, p.sim, row_number() OVER (PARTITION BY p.a ORDER BY p.sim DESC, p.b) AS rn
              FROM (SELECT n.id AS a, m.id AS b, 1 - (m.embedding <=> n.embedding) AS sim
                    FROM (SELECT u.id, u.embedding FROM hindsight.memory_units u
                          WHERE u.bank_id = _link_units.bank_id AND u.id = ANY (unit_ids)) n
                    CROSS JOIN hindsight.memory_units m
                    WHERE m.bank_id = _link_units.bank_id AND m.id <> n.id) p
              WHERE p.sim >= (cfg->>'semantic_link_min_similarity')::float8) r
        WHERE r.rn <= top_k
        ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO NOTHING;
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._link_units(text, uuid[]) IS
    'Links new units of a bank: temporal (temporal_link_neighbours nearest before and after in time, same fact '
    'type, weight max(0.3, 1 - hours/24), both directions) and semantic (semantic_link_top_k nearest by cosine '
    'with similarity >= semantic_link_min_similarity, weight = similarity).';

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
        INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
        SELECT _update_document.bank_id, _update_document.document_id || '#' || nc.ci, _update_document.document_id,
               nc.ci, nc.chunk_text, nc.hash
        FROM pg_temp._hindsight_new_chunks nc WHERE NOT nc.ci = ANY (coalesce(kept_new, '{}'));
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
        SELECT _update_document.bank_id, _update_document.document_id || '#' || x.idx, _update_document.document_id,
               x.idx, x.chunk_text, x.hash
        FROM unnest(new_indexes, new_texts, new_hashes) AS x(idx, chunk_text, hash);
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

CREATE OR REPLACE FUNCTION hindsight._delete_orphan_entities(bank_id text)
RETURNS int
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
AS $$
DECLARE
    gone int;
BEGIN
    DELETE FROM hindsight.entities e
    WHERE e.bank_id = _delete_orphan_entities.bank_id AND e.mention_count = 0;
    GET DIAGNOSTICS gone = ROW_COUNT;
    RETURN gone;
END
$$;
COMMENT ON FUNCTION hindsight._delete_orphan_entities(text) IS
    'Deletes the entities of a bank that no memory unit mentions any more; returns how many.';

CREATE OR REPLACE FUNCTION hindsight._name_uuid(name text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    -- RFC 4122 version 3: the MD5 of the name with the version (3) and variant (10xx) bits set
    SELECT (substr(h, 1, 12) || '3' || substr(h, 14, 3)
            || substr('89ab89ab89ab89ab', strpos('0123456789abcdef', substr(h, 17, 1)), 1) || substr(h, 18))::uuid
    FROM (SELECT md5(name) AS h) x
$$;
COMMENT ON FUNCTION hindsight._name_uuid(text) IS
    'A name-based UUID (RFC 4122 version 3, MD5) of a text: the same name always gives the same id. Memory unit ids '
    'are made with it (hindsight.retain).';

CREATE OR REPLACE FUNCTION hindsight.retain(
    bank_id text,
    items jsonb
)
RETURNS TABLE (item_index int, document_id text, unit_id uuid, merged jsonb)
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    taken uuid[];
    cfg jsonb := hindsight.bank_config(retain.bank_id);
    ts_config regconfig := (cfg->>'text_search_config')::regconfig;
    doc_ids text[];
    existing text[];
    chunk_ids jsonb := '{}';
    labels text[];
    unit_texts text[];
    token_counts int[];
    new_ids uuid[];
    problem text;
    bad_hint text;
    item_no int;
BEGIN
    PERFORM hindsight._require_python();
    IF items IS NULL OR jsonb_typeof(items) <> 'array' THEN
        RAISE EXCEPTION 'items must be a JSON array of objects, got %', coalesce(jsonb_typeof(items), 'NULL')
            USING ERRCODE = '22023', HINT = 'See COMMENT ON FUNCTION hindsight.retain for the item shape.';
    END IF;

    -- Shape of each item, checked before anything is written.
    SELECT format('item %s: %s', t.o - 1, t.p)
    INTO problem
    FROM (
        SELECT o, CASE
                   WHEN jsonb_typeof(x) <> 'object' THEN 'must be a JSON object'
                   WHEN x ? 'units' AND jsonb_typeof(x->'units') <> 'array' THEN '"units" must be an array'
                   WHEN jsonb_array_length(coalesce(x->'units', '[]')) = 0
                        AND jsonb_array_length(CASE WHEN jsonb_typeof(x->'chunks') = 'array'
                                                    THEN x->'chunks' ELSE '[]' END) = 0
                       THEN 'needs a non-empty "units" array (or "chunks" whose memories the document has)'
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
                   WHEN coalesce(x->>'update_mode', 'replace') NOT IN ('replace', 'append')
                       THEN format('update_mode "%s" is not one of replace, append', x->>'update_mode')
               END AS p
        FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    ) t
    WHERE t.p IS NOT NULL
    ORDER BY t.o LIMIT 1;
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
                   WHEN v ? 'caused_by' AND (jsonb_typeof(v->'caused_by') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(v->'caused_by') c
                        WHERE jsonb_typeof(c) <> 'number'
                           OR (c #>> '{}')::numeric NOT IN (
                               SELECT n - 1 FROM generate_series(1, jsonb_array_length(x->'units')) n WHERE n <> uo)))
                       THEN format('caused_by %s must list indexes of the item''s other units (0 to %s)',
                                   v->'caused_by', jsonb_array_length(x->'units') - 1)
                   WHEN vector_norm((v->>'embedding')::vector) = 0
                       THEN 'embedding is all zeros; cosine similarity is undefined for it'
                   WHEN v ? 'merged' AND (jsonb_typeof(v->'merged') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(v->'merged') r
                        WHERE jsonb_typeof(r) <> 'object' OR jsonb_typeof(r->'text') IS DISTINCT FROM 'string'))
                       THEN '"merged" must be an array of objects with a "text" string'
               END AS p
        FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
             jsonb_array_elements(coalesce(x->'units', '[]')) WITH ORDINALITY AS w(v, uo)
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
         jsonb_array_elements(coalesce(x->'units', '[]')) WITH ORDINALITY AS w(v, uo);
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
    FOR item_no IN SELECT i FROM generate_subscripts(doc_ids, 1) i WHERE doc_ids[i] = ANY (coalesce(existing, '{}'))
    LOOP
        chunk_ids := chunk_ids || jsonb_build_object((item_no - 1)::text, to_jsonb(
            hindsight._update_document(retain.bank_id, doc_ids[item_no], items->(item_no - 1))));
    END LOOP;

    INSERT INTO hindsight.documents (bank_id, document_id, original_text, content_hash, tags, metadata)
    SELECT retain.bank_id, doc_ids[o], x->>'content',
           encode(sha256(convert_to(coalesce(x->>'content', ''), 'UTF8')), 'hex'),
           ARRAY(SELECT jsonb_array_elements_text(coalesce(x->'tags', '[]'))),
           coalesce(x->'metadata', '{}')
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    WHERE NOT doc_ids[o] = ANY (coalesce(existing, '{}'));

    INSERT INTO hindsight.chunks (bank_id, chunk_id, document_id, chunk_index, chunk_text, content_hash)
    SELECT retain.bank_id, doc_ids[o] || '#' || (co - 1), doc_ids[o], co - 1, c,
           encode(sha256(convert_to(c, 'UTF8')), 'hex')
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
         jsonb_array_elements_text(coalesce(x->'chunks', '[]')) WITH ORDINALITY AS ch(c, co)
    WHERE NOT doc_ids[o] = ANY (coalesce(existing, '{}'));

    -- Memory units. Their ids are name-based (hindsight._name_uuid of the bank, the document, the unit's
    -- place in its item and its text), so the same items make the same ids in every database: a single
    -- node and a Citus cluster agree unit for unit, down to the order of ties. An id the bank holds
    -- already (the same text appended to a document again) is replaced by a random one.
    SELECT array_agg(hindsight._name_uuid(concat_ws(E'\x1f', retain.bank_id, doc_ids[o], uo::text, v->>'text'))
                     ORDER BY o, uo)
    INTO new_ids
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
         jsonb_array_elements(coalesce(x->'units', '[]')) WITH ORDINALITY AS w(v, uo);
    SELECT array_agg(u.id) INTO taken
    FROM hindsight.memory_units u WHERE u.bank_id = retain.bank_id AND u.id = ANY (new_ids);
    IF taken IS NOT NULL THEN
        SELECT array_agg(CASE WHEN n.id = ANY (taken) THEN gen_random_uuid() ELSE n.id END ORDER BY n.o)
        INTO new_ids FROM unnest(new_ids) WITH ORDINALITY AS n(id, o);
    END IF;
    INSERT INTO hindsight.memory_units (
        bank_id, id, document_id, chunk_id, text, context, fact_type, embedding,
        occurred_start, occurred_end, mentioned_at, tags, metadata, token_count, search_vector)
    SELECT retain.bank_id, new_ids[u.n], u.document_id,
           CASE WHEN u.unit ? 'chunk_index'
                THEN coalesce(chunk_ids->(u.o - 1)::text->>(u.unit->>'chunk_index')::int,
                              u.document_id || '#' || (u.unit->>'chunk_index')) END,
           u.unit->>'text', u.item->>'context', coalesce(u.unit->>'fact_type', 'world'),
           (u.unit->>'embedding')::vector,
           (u.unit->>'occurred_start')::timestamptz, (u.unit->>'occurred_end')::timestamptz, u.mentioned_at,
           ARRAY(SELECT jsonb_array_elements_text(coalesce(u.item->'tags', '[]'))),
           coalesce(u.item->'metadata', '{}') || coalesce(u.unit->'metadata', '{}'),
           token_counts[u.n], hindsight._search_vector(u.unit->>'text', ts_config)
    FROM (SELECT t.o, doc_ids[t.o] AS document_id, t.x AS item, w.v AS unit,
                 row_number() OVER (ORDER BY t.o, w.uo) AS n,
                 coalesce((w.v->>'mentioned_at')::timestamptz, (t.x->>'timestamp')::timestamptz, now()) AS mentioned_at
          FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
               jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) u;

    -- Entities: resolved against the bank, then linked to their units.
    INSERT INTO hindsight.unit_entities (bank_id, unit_id, entity_id)
    SELECT retain.bank_id, r.unit_id, r.entity_id
    FROM hindsight._resolve_entities(
        retain.bank_id,
        ARRAY(SELECT new_ids[m.n] FROM (
                  SELECT row_number() OVER (ORDER BY t.o, w.uo) AS n, w.v
                  FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
                       jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) m,
                  jsonb_array_elements_text(coalesce(m.v->'entities', '[]')) e ORDER BY m.n),
        ARRAY(SELECT e FROM (
                  SELECT row_number() OVER (ORDER BY t.o, w.uo) AS n, w.v
                  FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
                       jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) m,
                  jsonb_array_elements_text(coalesce(m.v->'entities', '[]')) e ORDER BY m.n),
        ARRAY(SELECT u.mentioned_at FROM (
                  SELECT row_number() OVER (ORDER BY t.o, w.uo) AS n, w.v,
                         coalesce((w.v->>'mentioned_at')::timestamptz, (t.x->>'timestamp')::timestamptz, now())
                             AS mentioned_at
                  FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
                       jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) u,
                  jsonb_array_elements_text(coalesce(u.v->'entities', '[]')) e ORDER BY u.n)
    ) AS r;

    -- Links: temporal and semantic neighbours, and the causal relations the
    -- extractor found (unit -caused_by-> cause and cause -causes-> unit, weight 1).
    IF new_ids IS NOT NULL THEN
        PERFORM hindsight._link_units(retain.bank_id, new_ids);
        INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
        SELECT DISTINCT retain.bank_id, l.a, l.b, l.kind, 1.0
        FROM (SELECT t.o, w.uo, w.v, row_number() OVER (ORDER BY t.o, w.uo) AS n, t.first_n
              -- first_n: the units of the items before this one (a running sum, not a subquery per unit)
              FROM (SELECT i.x, i.o, coalesce(sum(jsonb_array_length(coalesce(i.x->'units', '[]'))) OVER (
                        ORDER BY i.o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS first_n
                    FROM jsonb_array_elements(items) WITH ORDINALITY AS i(x, o)) t,
                   jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) u,
             jsonb_array_elements_text(coalesce(u.v->'caused_by', '[]')) AS c(target),
             LATERAL (VALUES (new_ids[u.n], new_ids[u.first_n + c.target::int + 1], 'caused_by'),
                             (new_ids[u.first_n + c.target::int + 1], new_ids[u.n], 'causes')) AS l(a, b, kind)
        ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO NOTHING;
    END IF;

    IF existing IS NOT NULL THEN
        PERFORM hindsight._delete_orphan_entities(retain.bank_id);
    END IF;

    RETURN QUERY
    SELECT (t.o - 1)::int, doc_ids[t.o], new_ids[u.n], coalesce(u.merged, '[]')
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o)
    LEFT JOIN (SELECT t2.o, row_number() OVER (ORDER BY t2.o, w.uo) AS n, w.v->'merged' AS merged
               FROM jsonb_array_elements(items) WITH ORDINALITY AS t2(x, o),
                    jsonb_array_elements(coalesce(t2.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)) u ON u.o = t.o
    ORDER BY t.o, u.n;
END
$$;
COMMENT ON FUNCTION hindsight.retain(text, jsonb) IS
$$Stores extracted items in one transaction and returns (item_index 0-based, document_id, unit_id, merged) per new
memory unit (unit_id NULL for an item that added none; merged: the unit's "merged" as given, else []). items: JSON
array of {"document_id"?: text (default: a new uuid), "update_mode"?: replace (default) | append, "content"?: original
text, "context"?: text, "timestamp"?: ISO 8601 (default now()), "tags"?: [text], "metadata"?: object, "chunks"?:
[text], "units": [{"text": text, "embedding": [384 numbers, not all zero], "chunk_index"?: int into chunks,
"fact_type"?: world|experience|observation (default world), "occurred_start"?, "occurred_end"?, "mentioned_at"?
(default the item timestamp), "entities"?: [names], "caused_by"?: [indexes of the item's other units], "metadata"?:
object, "merged"?: [{"text": text, "item_index"?, "reason"?, "similarity"?}: the caller's repeats stored as this
unit]}]}. An existing document_id is updated: a chunk
given without units whose SHA-256 the document already has keeps its memories; replace drops the rest, append adds.
Entities are resolved against the bank, and units linked (temporal, semantic, causal); see docs/retain.md. The
hindsight_pg driver builds the items (chunking, fact extraction, embeddings). Raises HS404 for an unknown bank and
22023 naming the item and unit of any bad input; nothing is written then.$$;

CREATE OR REPLACE FUNCTION hindsight.delete_document(
    bank_id text,
    document_id text
)
RETURNS bool
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    deleted bool;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    PERFORM hindsight._lock_bank(bank_id);
    DELETE FROM hindsight.documents d
    WHERE d.bank_id = delete_document.bank_id AND d.document_id = delete_document.document_id;
    deleted := FOUND;
    IF deleted THEN
        PERFORM hindsight._delete_orphan_entities(bank_id);
    END IF;
    RETURN deleted;
END
$$;
COMMENT ON FUNCTION hindsight.delete_document(text, text) IS
    'Deletes a document with its chunks, memory units, their links and entity references, and the entities no '
    'memory mentions any more. Returns false when the bank has no such document; HS404 for an unknown bank.';
