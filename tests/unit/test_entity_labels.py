"""The offline extractor's names against the hand labels of the demo chat (tests/unit/entity_cases)."""

from __future__ import annotations

import pytest
from entity_cases.score import LOCOMO_DATA, locomo_messages, score, team_chat_messages

# Before the name rules of issue 30 (commit 95aa639), on the same labels: demo chat P 0.625, R 0.689;
# LoCoMo dev turns P 0.672, R 0.956 (bench/entities.py).
DEMO_RECALL_BEFORE = 0.689
LOCOMO_RECALL_BEFORE = 0.956


def test_demo_chat_names_are_precise_without_losing_recall():
    result = score(team_chat_messages())
    assert result.messages == 333 and result.labelled == 225
    # 178 of 201 names found are labelled: P 0.886 (the 0.9 target is not reached: technical abbreviations
    # "SDK", "CI" and common nouns opening a sentence, "Demo went well", are still taken for names)
    assert result.precision >= 0.88
    assert result.recall >= DEMO_RECALL_BEFORE
    for wrong in ("Feb", "Got", "LIKE", "Black", "UTC", "Easter", "Comments", "iOS and Android"):
        assert wrong not in result.false_positives


@pytest.mark.locomo
@pytest.mark.skipif(not LOCOMO_DATA.exists(), reason="LoCoMo data absent (../shared/data/locomo)")
def test_locomo_turn_names_are_precise_without_losing_recall():
    result = score(locomo_messages())
    assert result.messages == 190
    assert result.precision >= 0.9 and result.recall >= LOCOMO_RECALL_BEFORE
