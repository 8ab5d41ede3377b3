"""The agent-memory suite's files (tests/data/agent_memory): what bench/agent_memory.py and the floor test read."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import agent_memory


@pytest.mark.parametrize("split", ["dev", "test"])
def test_the_suite_is_well_formed(split: str) -> None:
    conversations = agent_memory.load(split)
    for conv in conversations:
        ids = [m.id for m in conv.messages]
        assert len(set(ids)) == len(ids) and 100 <= len(ids) <= 300, conv.id
        assert all(a.date < b.date for a, b in zip(conv.messages, conv.messages[1:], strict=False)), conv.id
        assert conv.asked_at > conv.messages[-1].date, conv.id
        known = set(ids)
        assert len(conv.questions) >= 30, conv.id
        assert sum(q.kind == "current" for q in conv.questions) * 3 >= len(conv.questions), conv.id
        for q in conv.questions:
            assert q.kind in agent_memory.KINDS and q.answers and set(q.answers) <= known, (conv.id, q.id)
            assert set(q.stale) <= known and not set(q.stale) & set(q.answers), (conv.id, q.id)
        for pair in [*conv.revisions, *conv.not_revisions]:
            assert ids.index(pair["new"]) > ids.index(pair["old"]), (conv.id, pair)
