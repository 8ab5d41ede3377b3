"""Test models and servers: a tiny cross-encoder built here (none can be downloaded) and the
real model server (hindsight_pg._model_server) on a free local port."""

from __future__ import annotations

import os
import socket
import string
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

WORDS = (
    "the a an and of to in on at for with was is are what when where who why how did do does went go "
    "support group pottery class research adoption agency painting beach camping trip sunset lake "
    "caroline melanie alice bob berlin atlas project team plan launch week month year"
).split()


def build_tiny_cross_encoder(folder: Path) -> str:
    """A two-layer BERT with a one-logit regression head and its WordPiece tokenizer, saved to ``folder``
    as a sentence-transformers CrossEncoder loads it. Random weights (seed 7, initialiser range 2.0, so the
    logits spread well outside [0, 1]): its scores are meaningless but real. Returns the folder's path."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *string.ascii_lowercase, *string.digits]
    vocab += [f"##{c}" for c in string.ascii_lowercase + string.digits] + WORDS
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True).save_pretrained(folder)
    torch.manual_seed(7)
    config = BertConfig(
        vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
        max_position_embeddings=512, num_labels=1, initializer_range=2.0,
    )  # fmt: skip
    BertForSequenceClassification(config).save_pretrained(folder)
    for path in [folder, *folder.iterdir()]:  # the database server's user loads it too
        path.chmod(0o755 if path.is_dir() else 0o644)
    os.chmod(folder.parent, 0o755)
    return str(folder)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def model_server(embedder, reranker) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """The real TEI-protocol model server (uvicorn) in a thread; yields its base URL."""
    from hindsight_pg._model_server import create_app

    with serve(create_app(embedder, reranker), "/health") as url:
        yield url


@contextmanager
def serve(app, ready_path: str = "/") -> Iterator[str]:  # type: ignore[no-untyped-def]
    """An ASGI ``app`` served by uvicorn in a thread on a free port, once ``ready_path`` answers 200;
    yields its base URL and stops it afterwards."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{url}{ready_path}", timeout=1).status_code == 200:
                break
        except requests.ConnectionError:
            time.sleep(0.05)
    else:
        raise RuntimeError(f"server on {url} did not start")
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(10)
