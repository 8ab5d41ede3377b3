"""Update links judged pair by pair: the labelled pair set, the update judge's training, and its precision and recall.

The labelled pair set, (newer, older) message pairs, 1 where the newer changes the value of the same attribute of
the same subject as the older (or cancels it), else 0:

  * the agent-memory suite (tests/data/agent_memory/): every conversation's ``revisions`` and ``not_revisions``,
    its split the conversation's (dev or test); texts as retain stores a turn ("Speaker: text");
  * the demo bank's links (tests/data/update_pairs/demo_links.json): every supersedes link the rule-based decision
    made in ``make demo``'s bank, labelled by hand; half to dev, half to test (by the SHA-256 of the pair);
  * LongMemEval's knowledge-update questions (development split, ../shared/data/longmemeval/): each pair of
    evidence turns of one question said in two sessions, the later revising the earlier (label 1); the questions
    bench/longmemeval.py keeps out (its held-out 60) to test, the others to dev.

Training pairs (tests/data/update_pairs/train/*.jsonl, written for this project in five languages) train the judge
with the dev split: a logistic regression (scikit-learn, L2) over :func:`hindsight_pl.updates.features` (the
cosine from multilingual-e5-small's vectors, as a default bank stores them). Its
regularisation and its two thresholds are chosen on dev's out-of-fold probabilities (five folds by source, each
predicted by a model fitted on the training pairs and the other folds; the link threshold: the lowest probability
whose links on dev are at least ``--link-precision`` precise; the move threshold likewise at ``--move-precision``);
the shipped model is then fitted on training + dev. Test is measured,
never tuned on.

    .venv/bin/python bench/update_pairs.py [--write] [--link-precision 0.8 --move-precision 0.9]

``--write`` writes the judge to plpython/hindsight_pl/update_judge.json. Figures go to
bench/results/update_pairs.json (bench/report.py puts them in docs/).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
from _common import header_line
from agent_memory import load as load_suite
from longmemeval import find_data, held_out, read

from hindsight_pl import updates
from hindsight_pl.providers import E5, LocalEmbedder

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "tests" / "data" / "update_pairs"
JUDGE = ROOT / "plpython" / "hindsight_pl" / "update_judge.json"
# an assistant's message in the written training pairs (they carry no speaker): "Noted: ...", "Aktualisiert: ..."
AGENT = re.compile(
    r"^(?:noted|updated|got it|done|cancelled|saved|changed|corrected|reminder|notiert|aktualisiert|erledigt"
    r"|noté|mis à jour|corrigé|anotado|actualizado|hecho|aggiornato|annotato|fatto|anotado|atualizado|revertido"
    r"|lembrete)\b",
    re.IGNORECASE,
)


@dataclass
class Labelled:
    newer: str
    older: str
    label: int
    source: str
    days: float = 7.0
    newer_agent: bool = False
    older_agent: bool = False


def training_pairs() -> list[Labelled]:
    rows = []
    for path in sorted((PAIRS / "train").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            rows.append(
                Labelled(
                    r["new"],
                    r["old"],
                    int(r["label"]),
                    f"train:{path.stem}",
                    newer_agent=bool(AGENT.match(r["new"])),
                    older_agent=bool(AGENT.match(r["old"])),
                )
            )
    return rows  # fmt: skip


def labelled_pairs() -> dict[str, list[Labelled]]:
    """The labelled pair set: {"dev": [...], "test": [...]} (the module docstring)."""
    split: dict[str, list[Labelled]] = {"dev": [], "test": []}
    for conv in load_suite("all"):
        messages = {m.id: m for m in conv.messages}
        for label, pairs in ((1, conv.revisions), (0, conv.not_revisions)):
            for p in pairs:
                new, old = messages[p["new"]], messages[p["old"]]
                split[conv.split].append(Labelled(
                    f"{new.speaker}: {new.text}", f"{old.speaker}: {old.text}", label, f"suite:{conv.id}",
                    (new.date - old.date).total_seconds() / 86400, new.speaker == "assistant",
                    old.speaker == "assistant",
                ))  # fmt: skip
    demo = json.loads((PAIRS / "demo_links.json").read_text(encoding="utf-8"))
    for p in demo["pairs"]:
        half = "dev" if hashlib.sha256((p["new"] + p["old"]).encode()).digest()[0] % 2 == 0 else "test"
        days = (datetime.fromisoformat(p["new_said"]) - datetime.fromisoformat(p["old_said"])).days
        split[half].append(Labelled(p["new"], p["old"], int(p["label"]), "demo", float(days)))
    path = find_data()
    if path.exists():
        questions = list(read(path))
        kept_out = held_out([q["question_id"] for q in questions])
        for q in questions:
            if q["question_type"] != "knowledge-update":
                continue
            turns = []
            for date, session in zip(q["haystack_dates"], q["haystack_sessions"], strict=True):
                said = datetime.strptime(date.split(" (")[0] + " " + date.split(") ")[1], "%Y/%m/%d %H:%M")
                turns += [(said, t["content"]) for t in session if t.get("has_answer") and t["role"] == "user"]
            turns.sort()
            for i, (later, text) in enumerate(turns):
                for earlier, before in turns[:i]:
                    if later.date() != earlier.date():
                        where = "test" if q["question_id"] in kept_out else "dev"
                        split[where].append(Labelled(text, before, 1, "longmemeval",
                                                     (later - earlier).total_seconds() / 86400))  # fmt: skip
    return split


def matrix(rows: list[Labelled], embedder: LocalEmbedder) -> np.ndarray:
    """Each pair's features, one row a pair."""
    e = embedder.embed([r.newer for r in rows] + [r.older for r in rows])
    n = len(rows)
    return np.asarray(
        [
            updates.features(
                updates.Pair(r.newer, r.older, float(e[i] @ e[n + i]), r.days, r.newer_agent, r.older_agent)
            )
            for i, r in enumerate(rows)
        ],
        dtype=np.float64,
    )


def threshold_at(y: np.ndarray, p: np.ndarray, precision: float) -> float:
    """The lowest probability at which the pairs scored at or above it are at least ``precision`` precise (1.0
    when no threshold reaches it)."""
    order = np.argsort(-p)
    best = 1.0
    hits = 0
    for k, i in enumerate(order, 1):
        hits += int(y[i])
        if hits / k >= precision:
            best = float(p[i])
    return best


def measure(y: np.ndarray, p: np.ndarray, at: float) -> dict[str, float]:
    chosen = p >= at
    tp = int((chosen & (y == 1)).sum())
    return {"threshold": at, "linked": int(chosen.sum()), "precision": tp / max(1, int(chosen.sum())),
            "recall": tp / max(1, int((y == 1).sum()))}  # fmt: skip


def fit(x: np.ndarray, y: np.ndarray, c: float) -> tuple[Any, np.ndarray, np.ndarray]:
    from sklearn.linear_model import LogisticRegression

    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    model = LogisticRegression(C=c, max_iter=5000).fit((x - mean) / scale, y)
    return model, mean, scale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="write the judge to plpython/hindsight_pl/")
    parser.add_argument("--link-precision", type=float, default=0.8)
    parser.add_argument("--move-precision", type=float, default=0.9)
    parser.add_argument("--output", default="bench/results/update_pairs.json")
    args = parser.parse_args()
    print(header_line())
    train, labelled = training_pairs(), labelled_pairs()
    for name, rows in (("train", train), *labelled.items()):
        sources = sorted({r.source.split(":")[0] for r in rows})
        print(f"{name}: {len(rows)} pairs, {sum(r.label for r in rows)} revisions ({', '.join(sources)})")
    embedder = LocalEmbedder(E5)
    y_train = np.array([r.label for r in train])
    y = {k: np.array([r.label for r in v]) for k, v in labelled.items()}
    results: dict[str, Any] = {"pairs": {k: {"pairs": len(v), "revisions": int(sum(r.label for r in v))}
                                         for k, v in {"train": train, **labelled}.items()}}  # fmt: skip
    # the rule alone, for comparison
    for name, rows in labelled.items():
        rule = np.array([float(updates.revises(r.newer, r.older)) for r in rows])
        results.setdefault("rule", {})[name] = measure(y[name], rule, 0.5)
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import GroupKFold

    x_train = matrix(train, embedder)
    x = {k: matrix(v, embedder) for k, v in labelled.items()}
    # out-of-fold probabilities on dev (five folds by source: a conversation, the demo, LongMemEval), each from a
    # model fitted on the training pairs and the other folds; C and the thresholds are chosen on them
    groups = [r.source if not r.source.startswith("longmemeval") else "longmemeval" for r in labelled["dev"]]
    folds = list(GroupKFold(n_splits=5).split(x["dev"], y["dev"], groups))
    best = None
    for c in (0.003, 0.01, 0.03, 0.1, 0.3, 1.0):
        p_dev = np.zeros(len(y["dev"]))
        for fitted_on, held in folds:
            model, mean, scale = fit(np.vstack([x_train, x["dev"][fitted_on]]),
                                     np.concatenate([y_train, y["dev"][fitted_on]]), c)  # fmt: skip
            p_dev[held] = model.predict_proba((x["dev"][held] - mean) / scale)[:, 1]
        auc = roc_auc_score(y["dev"], p_dev)
        if best is None or auc > best[0]:
            best = (auc, c, p_dev)
    auc, c, p_dev = best  # type: ignore[misc]
    rule = {k: np.array([updates.revises(r.newer, r.older) for r in v]) for k, v in labelled.items()}
    # what retain links: the rule's proposals the judge is sure enough of
    link = threshold_at(y["dev"], np.where(rule["dev"], p_dev, 0.0), args.link_precision)
    move = threshold_at(y["dev"], np.where(rule["dev"], p_dev, 0.0), args.move_precision)
    model, mean, scale = fit(np.vstack([x_train, x["dev"]]), np.concatenate([y_train, y["dev"]]), c)
    p_test = np.where(rule["test"], model.predict_proba((x["test"] - mean) / scale)[:, 1], 0.0)
    p_dev = np.where(rule["dev"], p_dev, 0.0)
    results["judge"] = {
        "C": c, "dev_auc_out_of_fold": auc, "test_auc": roc_auc_score(y["test"], p_test),
        "dev (out of fold)": {"link": measure(y["dev"], p_dev, link), "move": measure(y["dev"], p_dev, move)},
        "test": {"link": measure(y["test"], p_test, link), "move": measure(y["test"], p_test, move)},
        "test, each threshold": [measure(y["test"], p_test, t) for t in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)],
    }  # fmt: skip
    judge = {
        "features": list(updates.SCALAR_FEATURES), "mean": mean.tolist(), "scale": scale.tolist(),
        "weights": model.coef_[0].tolist(), "bias": float(model.intercept_[0]), "C": c,
        "chosen_on_dev": {"link_threshold": link, "move_threshold": move},
        "trained_on": {k: results["pairs"][k] for k in ("train", "dev")},
    }  # fmt: skip
    print(
        f"\n== the rule, then the judge (C {c}): dev AUC {auc:.3f} (out of fold), "
        f"test AUC {results['judge']['test_auc']:.3f}"
    )
    for where in ("dev (out of fold)", "test"):
        for what in ("link", "move"):
            m = results["judge"][where][what]
            print(f"  {where:<20} {what:<5} at p >= {m['threshold']:.3f}: {m['linked']:>4} linked, "
                  f"precision {m['precision']:.3f}, recall {m['recall']:.3f}")  # fmt: skip
    for m in results["judge"]["test, each threshold"]:
        print(f"  test at p >= {m['threshold']:.1f}: {m['linked']:>4} linked, precision {m['precision']:.3f}, "
              f"recall {m['recall']:.3f}")  # fmt: skip
    for name, m in results["rule"].items():
        print(f"the rule alone, {name}: {m['linked']} linked, precision {m['precision']:.3f}, recall {m['recall']:.3f}")
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"header": header_line(), **results}, indent=1))
    print(f"\nwritten to {out}")
    if args.write:
        JUDGE.write_text(json.dumps(judge, separators=(",", ":")) + "\n")
        print(f"the judge written to {JUDGE} ({JUDGE.stat().st_size / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
