"""Shared test settings and fixtures."""

import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from _chat_server import ChatHandler, ChatServer, ScriptHandler, ScriptServer

from hindsight_pg import LocalEmbedder

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def tiny_cross_encoder() -> str:
    """Path of a tiny random cross-encoder (tests/_models.py), readable by the database server too."""
    from _models import build_tiny_cross_encoder

    return build_tiny_cross_encoder(Path(tempfile.mkdtemp(prefix="hindsight-tiny-ce-")) / "model")


@pytest.fixture(scope="session")
def tiny_onnx_cross_encoder(tiny_cross_encoder: str) -> str:
    """The tiny cross-encoder exported to ONNX (fp32) as bench/train_reranker.py --export writes ours."""
    import sys

    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from train_reranker import export

    out = Path(tiny_cross_encoder).parent / "onnx"
    model = AutoModelForSequenceClassification.from_pretrained(tiny_cross_encoder)
    export(model, AutoTokenizer.from_pretrained(tiny_cross_encoder), out, quantize=False)
    return str(out)


@pytest.fixture(scope="session")
def embedder() -> LocalEmbedder:
    """The real default embedding model (multilingual-e5-small), loaded once per session."""
    return LocalEmbedder()


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    """The local chat-completions server (tests/_chat_server.py) on a free port."""
    server = ChatServer(("127.0.0.1", 0), ChatHandler)
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def script_server() -> Iterator[ScriptServer]:
    """A chat-completions server that plays ``server.script`` turn by turn (tests/_chat_server.py)."""
    server = ScriptServer(("127.0.0.1", 0), ScriptHandler)
    server.script, server.requests = [], []
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
