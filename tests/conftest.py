"""Shared test settings and fixtures."""

import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def tiny_cross_encoder() -> str:
    """Path of a tiny random cross-encoder (tests/_models.py), readable by the database server too."""
    from _models import build_tiny_cross_encoder

    return build_tiny_cross_encoder(Path(tempfile.mkdtemp(prefix="hindsight-tiny-ce-")) / "model")
