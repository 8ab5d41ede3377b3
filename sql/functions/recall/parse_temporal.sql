-- Query analysis: the date window a query talks about (hindsight_pl.temporal).

CREATE OR REPLACE FUNCTION hindsight._parse_temporal(
    query text,
    reference timestamptz,
    time_zone text,
    hemisphere text,
    OUT window_start timestamptz,
    OUT window_end timestamptz,
    OUT problem text
)
LANGUAGE plpython3u STABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from datetime import datetime
try:
    found = hpl.temporal.parse_temporal(query or "", datetime.fromisoformat(reference), time_zone or "UTC",
                                        hemisphere or "north")
except ValueError as exc:
    return None, None, str(exc)
if found is None:
    return None, None, None
return found[0].isoformat(), found[1].isoformat(), None
$$;
COMMENT ON FUNCTION hindsight._parse_temporal(text, timestamptz, text, text) IS
    'hindsight_pl.temporal.parse_temporal: the window (first instant, last instant) or NULLs, and the problem '
    'with the arguments (unknown time zone or hemisphere) instead of raising.';

CREATE OR REPLACE FUNCTION hindsight.parse_temporal(
    query text,
    reference timestamptz DEFAULT now(),
    time_zone text DEFAULT 'UTC',
    hemisphere text DEFAULT 'north'
)
RETURNS tstzrange
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    found record;
BEGIN
    PERFORM hindsight._require_python();
    IF isfinite(reference) IS false OR reference < '0002-01-01 00:00+00' OR reference >= '9999-01-01 00:00+00' THEN
        RAISE EXCEPTION 'reference must be a finite timestamp in the years 2 to 9998, got %', reference
            USING ERRCODE = '22023', HINT = 'Leave it out (or NULL) for now().';
    END IF;
    SELECT * INTO found FROM hindsight._parse_temporal(query, coalesce(reference, now()), time_zone, hemisphere);
    IF found.problem IS NOT NULL THEN
        RAISE EXCEPTION '%', found.problem USING ERRCODE = '22023',
            HINT = 'time_zone: an IANA name such as UTC or Europe/Berlin, or an offset such as +02:00; '
                   'hemisphere: north or south.';
    END IF;
    IF found.window_start IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN tstzrange(found.window_start, found.window_end, '[]');
END
$$;
COMMENT ON FUNCTION hindsight.parse_temporal(text, timestamptz, text, text) IS
$$The date window a query talks about, as whole days in time_zone: [first day 00:00, last day
23:59:59.999999], or up to reference itself for an open end ("since January", "the past three months");
days counted from reference seen in that zone; NULL when the query has no time constraint. Ranges, open
ends, durations, parts of periods, relative chains, seasons, quarters, holidays and times of day in
English, German, French, Spanish, Italian, Russian and Chinese (and Japanese's common forms); dateparser
for slash dates no rule takes (docs/temporal.md). Seasons are meteorological, for the given hemisphere.
time_zone: an IANA name in any case, or an offset such as +02:00; NULL time_zone, hemisphere or reference
mean their defaults. Raises 22023 for an unknown time zone or hemisphere, or a reference outside the years 2 to
9998 (infinite included: the windows are dates Python holds).$$;

CREATE OR REPLACE FUNCTION hindsight._query_window(
    query text,
    reference timestamptz,
    config jsonb
)
RETURNS tstzrange
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    found record;
BEGIN
    -- Recall's automatic window. What the analysis cannot take means "no window", never a failed
    -- recall: a reference outside the years it holds, a time zone or hemisphere it does not know
    -- (_parse_temporal's problem). Any other error (a missing in-database Python, a bug) raises.
    IF isfinite(reference) IS false OR reference < '0002-01-01 00:00+00' OR reference >= '9999-01-01 00:00+00' THEN
        RETURN NULL;
    END IF;
    SELECT * INTO found FROM hindsight._parse_temporal(query, reference, config->>'time_zone', config->>'hemisphere');
    IF found.window_start IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN tstzrange(found.window_start, found.window_end, '[]');
END
$$;
COMMENT ON FUNCTION hindsight._query_window(text, timestamptz, jsonb) IS
    'The window recall uses when no temporal_window is given: hindsight.parse_temporal of the query at the '
    'query timestamp with the bank''s time_zone and hemisphere; NULL when there is none, the time zone or '
    'hemisphere is unknown or the reference is outside the years 2 to 9998. Other errors raise.';

CREATE OR REPLACE FUNCTION hindsight._window_reach(
    bank_id text,
    query_window tstzrange
)
RETURNS text
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    first_mention timestamptz;
    last_mention timestamptz;
BEGIN
    -- Two probes of memory_units_mentioned_idx (bank_id, mentioned_at), then one of memory_units_time_idx.
    SELECT min(u.mentioned_at), max(u.mentioned_at) INTO first_mention, last_mention
    FROM hindsight.memory_units u WHERE u.bank_id = _window_reach.bank_id;
    IF first_mention IS NOT NULL AND query_window @> first_mention AND query_window @> last_mention THEN
        RETURN 'the window covers the bank';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM hindsight.memory_units u
                   WHERE u.bank_id = _window_reach.bank_id
                     AND hindsight._time_span(u.occurred_start, u.occurred_end, u.mentioned_at) && query_window) THEN
        RETURN 'the window holds no unit of the bank';
    END IF;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._window_reach(text, tstzrange) IS
    'Why a window cannot narrow a bank, or NULL when it can: it holds the bank''s first and last mention '
    '(mentioned_at), or no unit''s time overlaps it. Recall then runs no temporal arm and ranks as without a '
    'window (docs/temporal.md, "In recall").';
