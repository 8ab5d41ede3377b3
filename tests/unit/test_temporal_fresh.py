"""The fresh query analysis set (tests/unit/temporal_fresh/): every case of every language, one test each.

The set was written by an engineer who had not read the analyzer, from docs/temporal.md's conventions; it is
not edited to suit the analyzer. Where a label contradicts those conventions the case is an expected failure
here, with the convention it contradicts (``CONTRADICTS``), and the report says so.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest
from temporal_cases import REFERENCE_DAY, REFERENCE_HOUR
from temporal_fresh import CLASSES, LANGUAGES, Case, load

from hindsight_pl.temporal import parse_temporal

ALL = [(language, case) for language in LANGUAGES for case in load(language)]

# (language, query, reference) -> why the label is not the conventions' window
CONTRADICTS = {
    ("de", "Was habe ich am Wochenende gemacht?", None): "docs/temporal.md, Weekdays: 'the weekend' asked on Saturday "
    "R is the most recent weekend that has begun, 11-01..11-02 (the label: the weekend before)",
    ("de", "Wen haben wir am Wochenende besucht?", None): "docs/temporal.md, Weekdays: 'the weekend' asked on Saturday "
    "R is the most recent weekend that has begun, 11-01..11-02 (the label: the weekend before)",
}


def reference_of(case: Case) -> datetime:
    day = date.fromisoformat(case.reference) if case.reference else REFERENCE_DAY
    return datetime.combine(day, time(REFERENCE_HOUR), UTC)


def window_of(case: Case) -> tuple[str | None, str | None]:
    """(first day, last day or "now") of the analyzer's window for ``case``, or (None, None)."""
    reference = reference_of(case)
    found = parse_temporal(case.query, reference, "UTC", case.hemisphere)
    if found is None:
        return None, None
    start, end = found
    return start.date().isoformat(), "now" if end == reference else end.date().isoformat()


@pytest.mark.parametrize(("language", "case"), ALL, ids=[f"{lang}:{c.query}@{c.reference}" for lang, c in ALL])
def test_case(language: str, case: Case) -> None:
    why = CONTRADICTS.get((language, case.query, case.reference))
    if why:
        pytest.xfail(why)
    assert window_of(case) == (case.start, case.end)


def test_the_contradicting_labels_still_fail() -> None:
    """Each label listed in CONTRADICTS is still in the set and the analyzer still gives the conventions'
    window for it (not the label's): a change to either shows here."""
    cases = {(lang, c.query, c.reference): c for lang, c in ALL}
    for key in CONTRADICTS:
        assert key in cases, key
        assert window_of(cases[key]) != (cases[key].start, cases[key].end), key


def test_every_class_is_there() -> None:
    assert {case.cls for _, case in ALL} == set(CLASSES)
    assert len(ALL) >= 600
