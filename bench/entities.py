"""Entity extraction quality: precision, recall and F1 of the offline extractor's names on hand labels.

    .venv/bin/python bench/entities.py [--worst 15]

Sources: every message of the demo chat (hindsight_pg/data/team_chat.json, labels in
tests/unit/entity_cases/team_chat.py) and 190 LoCoMo dev turns (labels in bench/entity_labels_locomo.json,
text read from ../shared/data/locomo; skipped when absent). Each message's names are
``hindsight_pl.extract.find_names(text, known=[speaker, *bank])``, as retain finds them in a turn: ``bank``
is the names the message's bank holds by then (the speakers and names found in its earlier messages, the
demo chat one bank, each LoCoMo conversation one, its unlabelled earlier turns retained too; at most the
``hindsight_pl.units.KNOWN_NAMES`` most mentioned). A name counts as found when it equals a label
case-insensitively. Prints per source the counts, micro-averaged P / R / F1 and the most frequent false
positives and negatives, with the bank and for each message alone (known: its speaker only); writes
bench/results/entities.json. No database is needed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worst", type=int, default=15, help="false positives / negatives to print per source")
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
    out = ROOT / "bench" / "results" / "entities.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"commit": commit, **figures}, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
