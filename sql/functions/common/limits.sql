-- Bounded work: the limits every interface shares, defined once in plpython/hindsight_pl/limits.json (the
-- build puts the file where @LIMITS_JSON@ stands; hindsight_pl.limits reads the same file).
-- docs/reliability.md, "Bounded work".

CREATE OR REPLACE FUNCTION hindsight.limits()
RETURNS TABLE (name text, value bigint, unit text, refused bool, bounds text, advice text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $limits$
    SELECT l.name, l.value, l.unit, l.refused, l.bounds, l.advice
    FROM jsonb_to_recordset($json$
@LIMITS_JSON@
$json$::jsonb) AS l(name text, value bigint, unit text, refused bool, bounds text, advice text)
$limits$;
COMMENT ON FUNCTION hindsight.limits() IS
    'The limits on every input, one row each (hindsight_pl/limits.json, the one definition that SQL, the driver, '
    'the CLI, MCP, the model server and the inspector share): name, value, unit, refused (true: a larger input is '
    'refused with SQLSTATE 54000 and a hint before any work; false: what a model reads is cut to it), what it '
    'bounds, and advice (what to do instead: the hint of a refusal). docs/reliability.md, Bounded work.';

CREATE OR REPLACE FUNCTION hindsight._limits()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT jsonb_object_agg(l.name, l.value) FROM hindsight.limits() l
$$;
COMMENT ON FUNCTION hindsight._limits() IS
    'hindsight.limits() as one JSON object, name -> value, for checks that read several limits at once.';

CREATE OR REPLACE FUNCTION hindsight._check_limit(name text, what text, size bigint)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
    l record;
BEGIN
    -- the comparison reads _limits(), folded into a constant when the plan is made; the row only to refuse
    IF size IS NULL OR size <= (hindsight._limits()->>name)::bigint THEN
        RETURN;
    END IF;
    SELECT * INTO STRICT l FROM hindsight.limits() x WHERE x.name = _check_limit.name;
    IF size > l.value THEN
        RAISE EXCEPTION '% has % %, more than the % allowed (%)', what, to_char(size, 'FM999,999,999,999,990'),
            l.unit, to_char(l.value, 'FM999,999,999,999,990'), name
            USING ERRCODE = '54000',
                  HINT = format('Send at most %s %s%s (SELECT * FROM hindsight.limits(); docs/reliability.md).',
                                to_char(l.value, 'FM999,999,999,999,990'), l.unit, ': ' || nullif(l.advice, ''));
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._check_limit(text, text, bigint) IS
    'Raises 54000 (program_limit_exceeded) naming what, its size and the limit when size is past limit name of '
    'hindsight.limits(), with a hint; NULL size passes.';

CREATE OR REPLACE FUNCTION hindsight._json_too_deep(document jsonb)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- a container 32 levels below the top is the 33rd level of nesting
    SELECT CASE WHEN jsonb_path_exists(document, 'strict $.**{32 to last} ? (@.type() == "array" || @.type() == "object")')
                THEN 33 END
$$;
COMMENT ON FUNCTION hindsight._json_too_deep(jsonb) IS
    'The nesting of a JSON document when it is deeper than json_depth (32) allows, as 33 (at least), else NULL.';

CREATE OR REPLACE FUNCTION hindsight._check_json_limits(document jsonb, what text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF document IS NULL THEN
        RETURN;
    END IF;
    PERFORM hindsight._check_limit('json_bytes', what, octet_length(document::text));
    PERFORM hindsight._check_limit('json_depth', what || ' (nesting)', hindsight._json_too_deep(document));
END
$$;
COMMENT ON FUNCTION hindsight._check_json_limits(jsonb, text) IS
    'Raises 54000 when a JSON document (metadata, a bank config) is longer than json_bytes as text or nests '
    'deeper than json_depth (hindsight.limits()).';
