"""The driver's argument checks: each refuses a wrong type or value with :class:`InvalidInputError`, naming the
argument, before any work."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from ._errors import InvalidInputError


def _names(value: Iterable[str] | None, what: str) -> list[str] | None:
    """A list of strings from a list (or any iterable of strings but a string itself: ``tags="trip"`` is refused,
    naming ``what``, rather than read as its characters or guessed to be one name)."""
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidInputError(f"{what} must be a list of strings, not {type(value).__name__} {value!r}",
                                hint=f'Give a list, e.g. {what.split(": ")[-1]}=["{value}"].')  # fmt: skip
    names = list(value)
    if not all(isinstance(v, str) for v in names):
        raise InvalidInputError(f"{what} must be strings, got {names!r}")
    return names


def _typed(value: Any, kind: type | tuple[type, ...], what: str, *, optional: bool = False) -> Any:
    """``value`` when it is a ``kind`` (None too with ``optional``; a bool is no int), else InvalidInputError naming
    ``what`` before any work."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (value is None and optional) or (
        isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    ):
        return value
    names = " or ".join(k.__name__ for k in kinds) + (" or None" if optional else "")
    raise InvalidInputError(f"{what} must be {names}, not {type(value).__name__} {value!r}")


def _memory_id(value: UUID | str) -> UUID:
    """A memory's id from a UUID or its text, else InvalidInputError."""
    if isinstance(value, UUID):
        return value
    try:
        return UUID(_typed(value, str, "memory_id"))
    except ValueError:
        raise InvalidInputError(f"memory_id {value!r} is not a UUID",
                                hint="Recall gives each memory's id (RecallResult.id).") from None  # fmt: skip


def _utc(value: datetime | str | None, what: str) -> datetime | None:
    """``value`` (a datetime, or an ISO 8601 string) in UTC; naive ones are UTC. A number is refused: epoch seconds
    and milliseconds look alike (``datetime.fromtimestamp(seconds, UTC)`` says which)."""
    if value is None:
        return None
    if not isinstance(value, datetime | str):
        raise InvalidInputError(f"{what}: a timestamp must be a datetime or an ISO 8601 string, not "
                                f"{type(value).__name__} {value!r}",
                                hint="For epoch seconds: datetime.fromtimestamp(seconds, timezone.utc).")  # fmt: skip
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise InvalidInputError(f"{what}: {value!r} is not an ISO 8601 date-time") from None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
