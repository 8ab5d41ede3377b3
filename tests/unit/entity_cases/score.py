"""Scoring names found against hand labels: micro-averaged precision, recall and F1 over messages."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hindsight_pl.extract import find_names

ROOT = Path(__file__).resolve().parents[3]
TEAM_CHAT = ROOT / "hindsight_pg" / "data" / "team_chat.json"
LOCOMO_LABELS = ROOT / "bench" / "entity_labels_locomo.json"
LOCOMO_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"


@dataclass
class Score:
    """Counts of one source: names found and labelled (case-insensitive), per name the misses and
    the wrong finds (``false_positives`` / ``false_negatives``: name -> messages)."""

    messages: int = 0
    true_positives: int = 0
    found: int = 0
    labelled: int = 0
    false_positives: Counter[str] = field(default_factory=Counter)
    false_negatives: Counter[str] = field(default_factory=Counter)

    @property
    def precision(self) -> float:
        return self.true_positives / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.labelled if self.labelled else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def score(
    messages: Iterable[tuple[str, str, Iterable[str]]],
    names_of: Callable[[str, str], Iterable[str]] | None = None,
) -> Score:
    """Scores ``messages`` ((speaker, text, labelled names)) with ``names_of(text, speaker)`` (default:
    :func:`find_names` with the speaker known, as retain calls it). Names compare case-insensitively."""
    names_of = names_of or (lambda text, speaker: find_names(text, known=(speaker,)))
    result = Score()
    for speaker, text, labels in messages:
        found = {n.lower(): n for n in names_of(text, speaker)}
        wanted = {n.lower(): n for n in labels}
        result.messages += 1
        result.found += len(found)
        result.labelled += len(wanted)
        result.true_positives += len(found.keys() & wanted.keys())
        result.false_positives.update(found[k] for k in found.keys() - wanted.keys())
        result.false_negatives.update(wanted[k] for k in wanted.keys() - found.keys())
    return result


def team_chat_messages() -> list[tuple[str, str, tuple[str, ...]]]:
    """(speaker, text, labels) of every labelled demo-chat message, in order."""
    from .team_chat import LABELS

    chat = json.loads(TEAM_CHAT.read_text())
    return [(chat[i]["speaker"], chat[i]["text"], names) for i, names in sorted(LABELS.items())]


def locomo_messages(data: Path = LOCOMO_DATA) -> list[tuple[str, str, list[str]]]:
    """(speaker, text, labels) of the labelled LoCoMo dev turns, read from ``data`` (FileNotFoundError
    when it is absent; LoCoMo's text is never stored in this repository)."""
    labels: Mapping[str, list[str]] = json.loads(LOCOMO_LABELS.read_text())["labels"]
    turns = {}
    for conversation in json.loads(data.read_text()):
        sessions = conversation["conversation"]
        for key, session in sessions.items():
            if key.startswith("session_") and isinstance(session, list):
                for turn in session:
                    turns[f"{conversation['sample_id']} {turn['dia_id']}"] = turn
    return [(turns[k]["speaker"], turns[k]["text"], names) for k, names in labels.items()]
