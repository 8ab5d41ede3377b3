"""Entity extraction quality: precision, recall and F1 of the offline extractor's names on hand labels.

    .venv/bin/python bench/entities.py [--worst 15] [--graph]

Sources: every message of the demo chat (hindsight_pg/data/team_chat.json, labels in
tests/unit/entity_cases/team_chat.py) and 190 LoCoMo dev turns (labels in bench/entity_labels_locomo.json,
text read from ../shared/data/locomo; skipped when absent). Each message's names are
``hindsight_pl.retain.names.find_names(text, known=[speaker, *bank])``, as retain finds them in a turn: ``bank``
is the names the message's bank holds by then (the speakers and names found in its earlier messages, the
demo chat one bank, each LoCoMo conversation one, its unlabelled earlier turns retained too; at most the
``hindsight_pl.retain.units.KNOWN_NAMES`` most mentioned). A name counts as found when it equals a label
case-insensitively. Prints per source the counts, micro-averaged P / R / F1 and the most frequent false
positives and negatives, with the bank and for each message alone (known: its speaker only); writes
bench/results/entities.json. No database is needed.

``--graph`` also measures what the graph arm can walk on LoCoMo dev: every conversation retained as
bench/locomo.py does (turn mode: the verbatim extractor, one unit per turn; facts mode: the offline
extractor), through the extractors alone (no database, so no fuzzy merges of names), each item knowing the
names of the conversation's earlier ones; then of the evidence turns of multi-hop questions with two or
more, the share that has an entity in common with another evidence turn of the question that is not a hub
(one linked to more than max(20, a tenth of the bank's units) units, as the graph arm's defaults leave
out), and such entities per evidence turn. About a minute.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "unit"))
from entity_cases.score import LOCOMO_DATA, Score, locomo_messages, score, team_chat_messages  # noqa: E402


def report(source: str, result: Score, worst: int) -> dict[str, object]:
    """Prints one source's figures; returns them for the JSON file."""
    print(
        f"{source}: {result.messages} messages, {result.labelled} labelled names, {result.found} found, "
        f"{result.true_positives} right: P {result.precision:.3f}  R {result.recall:.3f}  F1 {result.f1:.3f}"
    )
    fps = ", ".join(f"{n} x{c}" for n, c in result.false_positives.most_common(worst))
    fns = ", ".join(f"{n} x{c}" for n, c in result.false_negatives.most_common(worst))
    print(f"  false positives: {fps or '-'}\n  false negatives: {fns or '-'}")
    return {"messages": result.messages, "labelled": result.labelled, "found": result.found,
            "true_positives": result.true_positives, "precision": round(result.precision, 4),
            "recall": round(result.recall, 4), "f1": round(result.f1, 4),
            "false_positives": dict(result.false_positives.most_common()),
            "false_negatives": dict(result.false_negatives.most_common())}  # fmt: skip


def shared_entities(mode: str) -> dict[str, float]:
    """The graph arm's reach on LoCoMo dev in ``mode`` (turn or facts), as ``--graph`` describes: evidence
    turns (multi-hop, two or more a question), the share sharing a non-hub entity with another of their
    question's, and non-hub entities per evidence turn."""
    from hindsight_pg._inputs import load_locomo, normalise_evidence
    from hindsight_pl.retain.extract import OfflineExtractor, VerbatimExtractor

    turns = total = shared = 0
    entities_per_turn = 0
    for conversation in load_locomo(LOCOMO_DATA):
        extractor = VerbatimExtractor() if mode == "turn" else OfflineExtractor()
        known: set[str] = set()
        names_of: dict[str, set[str]] = {}  # dia_id -> the entities of its units
        linked: Counter[str] = Counter()  # entity -> units linked to it
        units = 0
        for item in conversation.items:
            assert isinstance(item.timestamp, datetime) and item.metadata is not None
            facts = extractor.extract([item.content], timestamp=item.timestamp, entities=item.entities or (),
                                      known=known)  # fmt: skip
            units += len(facts)
            names = names_of.setdefault(str(item.metadata["dia_id"]), set())
            for fact in facts:
                lower = {e.lower() for e in fact.entities}
                names.update(lower)
                known.update(lower)
                linked.update(lower)
        hubs = {n for n, c in linked.items() if c > max(20, 0.1 * units)}
        for qa in conversation.questions:
            evidence, _ = normalise_evidence(qa.get("evidence", []), set(names_of))
            if qa.get("category") != 1 or len(evidence) < 2:
                continue
            for dia in evidence:
                own = names_of[dia] - hubs
                others = set().union(*(names_of[d] for d in evidence if d != dia)) - hubs
                turns += 1
                entities_per_turn += len(own)
                shared += bool(own & others)
        total += units
    return {"evidence turns": turns, "shared": shared, "share": round(shared / max(turns, 1), 4),
            "entities per evidence turn": round(entities_per_turn / max(turns, 1), 3), "units": total}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worst", type=int, default=15, help="false positives / negatives to print per source")
    parser.add_argument("--graph", action="store_true", help="also the shared-entity rate of multi-hop evidence")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"commit {commit or '?'}")
    sources = {"demo chat": team_chat_messages()}
    if LOCOMO_DATA.exists():
        sources["LoCoMo dev"] = locomo_messages()
    else:
        print(f"LoCoMo skipped: {LOCOMO_DATA} is absent")
    figures = {}
    sources["both"] = [m for ms in sources.values() for m in ms]
    for source, messages in sources.items():
        figures[source] = report(source, score(messages), args.worst)
    for source, messages in sources.items():
        figures[f"{source}, each message alone"] = report(
            f"{source}, each message alone", score(messages, with_bank=False), args.worst
        )
    if args.graph and LOCOMO_DATA.exists():
        for mode in ("turn", "facts"):
            figures[f"graph, {mode} mode"] = rate = shared_entities(mode)
            print(f"graph, {mode} mode: of {rate['evidence turns']} multi-hop evidence turns {rate['shared']} "
                  f"({rate['share']:.1%}) share a non-hub entity with another; "
                  f"{rate['entities per evidence turn']} non-hub entities each ({rate['units']} units)")  # fmt: skip
    out = ROOT / "bench" / "results" / "entities.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"commit": commit, **figures}, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
