"""docs/temporal.md's examples hold: every row of its table "Every class, in every language"."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_pl.temporal import parse_temporal

DOC = Path(__file__).resolve().parents[2] / "docs" / "temporal.md"
ROW = re.compile(r"^\| (?P<cls>[a-z ]+) \| (?P<lang>[a-z]{2}) \| `(?P<q>[^`]+)` \| (?P<w>[^|]+) \|$", re.M)
EXAMPLES = [(m["lang"], m["q"], m["w"].strip()) for m in ROW.finditer(DOC.read_text())]
REFERENCE = datetime(2025, 11, 1, 12, tzinfo=UTC)


def test_the_table_is_there():
    assert len(EXAMPLES) >= 100
    assert {lang for lang, _, _ in EXAMPLES} == {"en", "de", "fr", "es", "it", "ru", "zh", "ja"}


@pytest.mark.parametrize(("language", "query", "window"), EXAMPLES, ids=[f"{e[0]}:{e[1]}" for e in EXAMPLES])
def test_example(language, query, window):
    found = parse_temporal(query, REFERENCE)
    if window == "none":
        assert found is None
        return
    first, _, last = window.partition(" – ")
    last = last or first
    assert found is not None
    assert found[0].date().isoformat() == first
    assert ("now" if found[1] == REFERENCE else found[1].date().isoformat()) == last
