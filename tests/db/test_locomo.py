"""Real input: one LoCoMo conversation retained turn by turn, and three of its questions."""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight_pg._inputs import find_locomo, load_locomo

LOCOMO = find_locomo() or Path("shared/data/locomo/locomo_dev.json")

pytestmark = [
    pytest.mark.locomo,
    pytest.mark.slow,
    pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not found (set HINDSIGHT_LOCOMO)"),
]

# Three questions of conv-26 chosen before running them (two temporal, one multi-hop)
# and the dialog ids of their evidence turns.
UNITS = 648  # memory units the offline extractor makes of conv-26

QUESTIONS = [
    ("When did Caroline go to the LGBTQ support group?", {"D1:3"}),
    ("What did Caroline research?", {"D2:8"}),
    ("When did Melanie sign up for a pottery class?", {"D5:4"}),
]


def test_conv_26_evidence_in_the_top_10(client):
    (conv,) = [c for c in load_locomo(LOCOMO) if c.sample_id == "conv-26"]
    client.create_bank("conv-26")
    result = client.retain_batch("conv-26", conv.items)
    # one document per turn; the offline extractor splits long turns into facts of up to three
    # sentences, drops turns without a verb, and stores a fact repeated on one day once
    assert len(result.document_ids) == len(conv.items) == 419
    assert len(result.unit_ids) == UNITS
    found = []
    for question, evidence in QUESTIONS:
        response = client.recall("conv-26", question, max_tokens=100000)
        top10 = [r.metadata["dia_id"] for r in response.results[:10]]
        found.append(evidence <= set(top10))
    assert sum(found) >= 2, found
