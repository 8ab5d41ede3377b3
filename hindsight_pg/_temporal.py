"""The query analyzer, for Python callers: the same code the database runs (hindsight_pl.temporal)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from hindsight_pl import temporal

from ._errors import InvalidInputError


def parse_temporal(
    query: str,
    reference: datetime | date | str | None = None,
    time_zone: str = "UTC",
    hemisphere: str = "north",
) -> tuple[datetime, datetime] | None:
    """The date window ``query`` talks about: ``(start, end)`` aware datetimes in ``time_zone`` covering whole
    days (00:00 to 23:59:59.999999), or ending at ``reference`` itself for an open end ("since January",
    "the past three months"); days are counted from ``reference`` (default now; a naive datetime or ISO
    string means UTC; a date means its midnight in ``time_zone``). None when the query has no time
    constraint.

    Same rules as ``hindsight.parse_temporal`` in SQL (docs/temporal.md): "last week" is the previous
    Monday-Sunday, "between March and May" March 1 to May 31, 上周 the previous week, 周一鹏 a person.
    Raises :class:`InvalidInputError` for a query that is not a string, an unreadable reference, an unknown
    time zone or hemisphere.
    """
    if not isinstance(query, str):
        raise InvalidInputError(f"query must be a string, got {type(query).__name__}")
    try:
        if isinstance(reference, str):
            try:
                reference = datetime.fromisoformat(reference)
            except ValueError:
                raise ValueError(
                    f"reference must be a datetime, a date or an ISO 8601 string, got {reference!r}"
                ) from None
        elif isinstance(reference, date) and not isinstance(reference, datetime):
            reference = datetime.combine(reference, time.min, temporal.zone(time_zone))
        return temporal.parse_temporal(query, reference or datetime.now(UTC), time_zone, hemisphere)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None
