"""The query analysis tables (tests/unit/temporal_cases/): every case of every language, by class.

Conventions the tables were written to (docs/temporal.md, "Conventions"): the reference instant is
Saturday 2025-11-01 12:00 UTC unless a case gives its own day; weeks start on Monday; "last week" is
the previous calendar week; "N days ago" is that single day; ranges include both ends; open ends
("since January", "the past three months") close at the reference instant.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, time

import pytest
from temporal_cases import CORE_CLASSES, LANGUAGES, REFERENCE_DAY, REFERENCE_HOUR, Case, load

from hindsight_pl.temporal import parse_temporal

ALL = [(language, case) for language in LANGUAGES for case in load(language)]
# at least this many hand-written cases per class (40 in English, 10 in each other European
# language, 150 in Chinese in all)
MINIMUM = {"en": 40, "de": 10, "fr": 10, "es": 10, "it": 10, "ru": 10}


def reference_of(case: Case) -> datetime:
    day = date.fromisoformat(case.reference) if case.reference else REFERENCE_DAY
    return datetime.combine(day, time(REFERENCE_HOUR), UTC)


@pytest.mark.parametrize(("language", "case"), ALL, ids=[f"{lang}:{c.query}" for lang, c in ALL])
def test_case(language: str, case: Case) -> None:
    reference = reference_of(case)
    found = parse_temporal(case.query, reference, "UTC", case.hemisphere)
    if case.start is None:
        assert found is None, f"expected no window, got {found[0].date()}..{found[1]}"
        return
    assert found is not None, "no window"
    start, end = found
    expected_end = "now" if case.end == "now" else case.end
    got_end = "now" if end == reference else end.date().isoformat()
    assert (start.date().isoformat(), got_end) == (case.start, expected_end)
    assert start.time() == time.min
    if got_end != "now":
        assert end.time() == time.max


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang in MINIMUM])
def test_every_class_has_enough_cases(language: str) -> None:
    counts = Counter(case.cls for case in load(language))
    short = {cls: counts[cls] for cls in CORE_CLASSES if cls != "basics" and counts[cls] < MINIMUM[language]}
    assert not short, f"{language}: too few cases in {short}"


def test_chinese_has_150_cases() -> None:
    assert len(load("zh")) >= 150
