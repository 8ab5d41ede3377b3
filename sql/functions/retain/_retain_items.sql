-- The items of hindsight.retain: their shape, checked before anything is written, and the one way
-- to walk their memory units.

CREATE OR REPLACE FUNCTION hindsight._retain_units(items jsonb)
RETURNS TABLE (item_no int, unit_no int, n int, item jsonb, unit jsonb, first_n int, mentioned_at timestamptz)
LANGUAGE sql STABLE
AS $$
    SELECT t.o::int, w.uo::int, (row_number() OVER (ORDER BY t.o, w.uo))::int, t.x, w.v, t.first_n::int,
           coalesce((w.v->>'mentioned_at')::timestamptz, (t.x->>'timestamp')::timestamptz, now())
    FROM (SELECT i.x, i.o,
                 -- the units of the items before this one (a running sum, not a subquery per unit)
                 coalesce(sum(jsonb_array_length(coalesce(i.x->'units', '[]'))) OVER (
                     ORDER BY i.o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS first_n
          FROM jsonb_array_elements(items) WITH ORDINALITY AS i(x, o)) t,
         jsonb_array_elements(coalesce(t.x->'units', '[]')) WITH ORDINALITY AS w(v, uo)
$$;
COMMENT ON FUNCTION hindsight._retain_units(jsonb) IS
    'The memory units of retain''s items (a JSON array whose shape hindsight._check_retain_items checked), in '
    'order: item_no and unit_no (1-based, within the item), n (1-based over all items), the item and the unit, '
    'first_n (how many units the items before this one have) and mentioned_at (the unit''s, else the item''s '
    'timestamp, else now()).';

CREATE OR REPLACE FUNCTION hindsight._timestamp_problem(value jsonb)
RETURNS text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    t timestamptz;
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> 'string' THEN
        RETURN format('must be an ISO 8601 string, not a JSON %s', jsonb_typeof(value));
    END IF;
    BEGIN  -- a block of its own: only a present value pays for the subtransaction
        t := (value #>> '{}')::timestamptz;
    EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow OR invalid_parameter_value THEN
        RETURN format('%s is not a timestamp (ISO 8601, e.g. 2025-01-13T10:30:00Z)', left(value #>> '{}', 40));
    END;
    -- what every reader takes: Python's datetime holds the years 1 to 9999
    IF t < '0001-01-01 00:00+00' OR t >= '10000-01-01 00:00+00' THEN
        RETURN format('%s is outside the years 1 to 9999', left(value #>> '{}', 40));
    END IF;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._timestamp_problem(jsonb) IS
    'What is wrong with a JSON timestamp of retain''s items (not a string, not a timestamp, outside the years 1 to '
    '9999), or NULL when it is fine or absent.';

CREATE OR REPLACE FUNCTION hindsight._check_retain_items(items jsonb)
RETURNS void
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    problem text;
    limits jsonb := hindsight._limits();
    too_big record;
BEGIN
    IF items IS NULL OR jsonb_typeof(items) <> 'array' THEN
        RAISE EXCEPTION 'items must be a JSON array of objects, got %', coalesce(jsonb_typeof(items), 'NULL')
            USING ERRCODE = '22023', HINT = 'See COMMENT ON FUNCTION hindsight.retain for the item shape.';
    END IF;

    -- Sizes first (hindsight.limits(), 54000): nothing below reads more than they allow.
    PERFORM hindsight._check_limit('items', 'the call', jsonb_array_length(items));
    SELECT l.name, l.what, l.size INTO too_big
    FROM (
        SELECT t.o, 0::bigint AS uo, s.name, format('item %s: %s', t.o - 1, s.what) AS what, s.size
        FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
             LATERAL (VALUES
                 ('units', 'units', CASE WHEN jsonb_typeof(x->'units') = 'array' THEN jsonb_array_length(x->'units') END),
                 ('tags', 'tags', CASE WHEN jsonb_typeof(x->'tags') = 'array' THEN jsonb_array_length(x->'tags') END),
                 ('name_chars', 'a tag', (SELECT max(length(g)) FROM jsonb_array_elements_text(
                      CASE WHEN jsonb_typeof(x->'tags') = 'array' THEN x->'tags' END) g)),
                 ('name_chars', 'document_id', length(x->>'document_id')),
                 ('content_chars', 'content', length(x->>'content')),
                 ('context_chars', 'context', length(x->>'context')),
                 ('content_chars', 'chunks', (SELECT sum(length(c)) FROM jsonb_array_elements_text(
                      CASE WHEN jsonb_typeof(x->'chunks') = 'array' THEN x->'chunks' END) c)),
                 ('json_bytes', 'metadata', octet_length((x->'metadata')::text)),
                 ('json_depth', 'metadata (nesting)', hindsight._json_too_deep(x->'metadata'))
             ) AS s(name, what, size)
        UNION ALL
        SELECT t.o, w.uo, s.name, format('item %s, unit %s: %s', t.o - 1, w.uo - 1, s.what), s.size
        FROM jsonb_array_elements(items) WITH ORDINALITY AS t(x, o),
             jsonb_array_elements(CASE WHEN jsonb_typeof(x->'units') = 'array' THEN x->'units' END)
                 WITH ORDINALITY AS w(v, uo),
             LATERAL (VALUES
                 ('unit_chars', 'text', length(v->>'text')),
                 ('context_chars', 'context', length(v->>'context')),
                 ('entities', 'entities', CASE WHEN jsonb_typeof(v->'entities') = 'array'
                                               THEN jsonb_array_length(v->'entities') END),
                 ('name_chars', 'an entity', (SELECT max(length(e)) FROM jsonb_array_elements_text(
                      CASE WHEN jsonb_typeof(v->'entities') = 'array' THEN v->'entities' END) e)),
                 ('json_bytes', 'metadata', octet_length((v->'metadata')::text)),
                 ('json_depth', 'metadata (nesting)', hindsight._json_too_deep(v->'metadata'))
             ) AS s(name, what, size)
        WHERE jsonb_typeof(v) = 'object'
    ) l
    WHERE l.size > (limits->>l.name)::bigint
    ORDER BY l.o, l.uo LIMIT 1;
    IF too_big.name IS NOT NULL THEN
        PERFORM hindsight._check_limit(too_big.name, too_big.what, too_big.size);
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
                   WHEN hindsight._timestamp_problem(x->'timestamp') IS NOT NULL
                       THEN 'timestamp ' || hindsight._timestamp_problem(x->'timestamp')
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
                   WHEN jsonb_path_exists(v->'embedding', 'strict $[*] ? (@.type() != "number")')
                       THEN 'embedding must hold 384 numbers'
                   WHEN jsonb_path_exists(v->'embedding', 'strict $[*] ? (@ > 1e38 || @ < -1e38)')
                       THEN 'embedding holds a number out of the range of a 4-byte float'
                   WHEN hindsight._timestamp_problem(v->'occurred_start') IS NOT NULL
                       THEN 'occurred_start ' || hindsight._timestamp_problem(v->'occurred_start')
                   WHEN hindsight._timestamp_problem(v->'occurred_end') IS NOT NULL
                       THEN 'occurred_end ' || hindsight._timestamp_problem(v->'occurred_end')
                   WHEN hindsight._timestamp_problem(v->'mentioned_at') IS NOT NULL
                       THEN 'mentioned_at ' || hindsight._timestamp_problem(v->'mentioned_at')
                   WHEN coalesce(v->>'fact_type', 'world') NOT IN ('world', 'experience', 'observation')
                       THEN format('fact_type "%s" is not one of world, experience, observation', v->>'fact_type')
                   WHEN v ? 'chunk_index' AND (jsonb_typeof(v->'chunk_index') <> 'number'
                        OR (v->>'chunk_index')::numeric NOT IN (
                            SELECT n - 1 FROM generate_series(1, jsonb_array_length(coalesce(x->'chunks', '[]'))) n))
                       THEN format('chunk_index %s does not name one of the item''s %s chunks',
                                   v->'chunk_index', jsonb_array_length(coalesce(x->'chunks', '[]')))
                   WHEN v ? 'context' AND jsonb_typeof(v->'context') NOT IN ('string', 'null')
                       THEN '"context" must be a string'
                   WHEN v ? 'entities' AND (jsonb_typeof(v->'entities') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(v->'entities') e WHERE jsonb_typeof(e) <> 'string'))
                       THEN '"entities" must be an array of strings'
                   WHEN v ? 'caused_by' AND (jsonb_typeof(v->'caused_by') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(v->'caused_by') c
                        WHERE jsonb_typeof(c) <> 'number'
                           OR (c #>> '{}')::numeric NOT IN (
                               SELECT n - 1 FROM generate_series(1, jsonb_array_length(x->'units')) n WHERE n <> uo)))
                       THEN format('caused_by %s must list indexes of the item''s other units (0 to %s)',
                                   left(v->>'caused_by', 100), jsonb_array_length(x->'units') - 1)
                   WHEN vector_norm((v->>'embedding')::vector) = 0
                       THEN 'embedding is all zeros; cosine similarity is undefined for it'
                   WHEN v ? 'merged' AND (jsonb_typeof(v->'merged') <> 'array' OR EXISTS (
                        SELECT FROM jsonb_array_elements(v->'merged') r
                        WHERE jsonb_typeof(r) <> 'object' OR jsonb_typeof(r->'text') IS DISTINCT FROM 'string'))
                       THEN '"merged" must be an array of objects with a "text" string'
               END AS p
        FROM hindsight._retain_units(items) AS u(o, uo, n, x, v, first_n, mentioned_at)
    ) checked
    WHERE p IS NOT NULL
    ORDER BY o, uo LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = '22023';
    END IF;

    SELECT d INTO problem
    FROM jsonb_array_elements(items) AS t(x), nullif(x->>'document_id', '') AS d
    WHERE d IS NOT NULL GROUP BY d HAVING count(*) > 1 LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION 'document_id "%" appears more than once in one retain call', problem
            USING ERRCODE = '22023', HINT = 'Merge the items, or retain them in separate calls.';
    END IF;

END
$$;
COMMENT ON FUNCTION hindsight._check_retain_items(jsonb) IS
    'Checks the sizes of hindsight.retain''s items and raises 54000 naming the first past a limit of '
    'hindsight.limits() (items, units, tags, name_chars, content_chars, context_chars, json_bytes, json_depth, '
    'unit_chars, entities); then their shape (see its comment), raising 22023 naming the first bad item '
    '(and unit): not an object, no units nor chunks, bad chunks, tags, metadata, document_id or update_mode, a '
    'unit without text or a 384-number embedding (numbers within a 4-byte float), a context that is no string, a bad '
    'timestamp, occurred_start, '
    'occurred_end or mentioned_at (ISO 8601, years 1 to 9999), a bad fact_type, chunk_index, entities, caused_by or '
    'merged, an '
    'all-zero embedding, or a document_id given twice.';

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
