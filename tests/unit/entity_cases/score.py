"""Scoring names found against hand labels: micro-averaged precision, recall and F1 over messages."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hindsight_pl.retain.names import find_names
from hindsight_pl.retain.units import KNOWN_NAMES

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


# (bank, speaker, text, labelled names; None for a message retained before the labelled ones, not scored)
Message = tuple[str, str, str, Sequence[str] | None]


def score(
    messages: Iterable[Message],
    names_of: Callable[[str, Sequence[str]], Iterable[str]] | None = None,
    *,
    with_bank: bool = True,
) -> Score:
    """Scores ``messages`` in order with ``names_of(text, known)`` (default: :func:`find_names`, as retain
    calls it). ``known`` is the speaker and, ``with_bank``, the names the message's bank holds by then, as
    retain passes them (the :data:`~hindsight_pl.retain.units.KNOWN_NAMES` most mentioned): each speaker and each
    name found in the bank's earlier messages, one mention per message. Names compare case-insensitively."""
    names_of = names_of or (lambda text, known: find_names(text, known=known))
    result = Score()
    banks: dict[str, Counter[str]] = {}
    written: dict[str, str] = {}
    for bank, speaker, text, labels in messages:
        mentions = banks.setdefault(bank, Counter())
        known = [speaker, *(written[n] for n, _ in mentions.most_common(KNOWN_NAMES))] if with_bank else [speaker]
        found = {n.lower(): n for n in names_of(text, known)}
        for name in [speaker, *found.values()]:
            written.setdefault(name.lower(), name)
        mentions.update({speaker.lower(), *found})
        if labels is None:
            continue
        wanted = {n.lower(): n for n in labels}
        result.messages += 1
        result.found += len(found)
        result.labelled += len(wanted)
        result.true_positives += len(found.keys() & wanted.keys())
        result.false_positives.update(found[k] for k in found.keys() - wanted.keys())
        result.false_negatives.update(wanted[k] for k in wanted.keys() - found.keys())
    return result


def team_chat_messages() -> list[Message]:
    """(bank, speaker, text, labels) of every demo-chat message, in order, all in one bank (every message
    is labelled)."""
    from .team_chat import LABELS

    chat = json.loads(TEAM_CHAT.read_text())
    return [("team chat", chat[i]["speaker"], chat[i]["text"], names) for i, names in sorted(LABELS.items())]


def locomo_messages(data: Path = LOCOMO_DATA) -> list[Message]:
    """(bank, speaker, text, labels) of the LoCoMo dev turns read from ``data``, one bank per conversation,
    its sessions in order up to its last labelled turn: the labelled turns with their labels, the others
    with None (FileNotFoundError when ``data`` is absent; LoCoMo's text is never stored in this repository)."""
    labels: Mapping[str, list[str]] = json.loads(LOCOMO_LABELS.read_text())["labels"]
    messages: list[Message] = []
    for conversation in json.loads(data.read_text()):
        sessions = conversation["conversation"]
        turns: list[Message] = []
        numbers = sorted(int(k.split("_")[1]) for k in sessions if re.fullmatch(r"session_\d+", k))
        for number in numbers:
            for turn in sessions[f"session_{number}"]:
                key = f"{conversation['sample_id']} {turn['dia_id']}"
                turns.append((conversation["sample_id"], turn["speaker"], turn["text"], labels.get(key)))
        last = max((n for n, t in enumerate(turns) if t[3] is not None), default=-1)
        messages.extend(turns[: last + 1])
    return messages
