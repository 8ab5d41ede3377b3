"""A model server speaking the text-embeddings-inference (TEI) protocol, over the local providers.

``hindsight-pg serve-models`` runs it (uvicorn + starlette) so that many database sessions
share one copy of the models through ``{"kind": "http", "url": ...}`` instead of loading
them in every session (docs/providers.md). Endpoints, as TEI defines them:

* ``POST /embed`` ``{"inputs": str | [str], "prompt_name": "query" | "passage" (optional)}``
  -> ``[[float, ...], ...]`` (unit-length vectors);
* ``POST /rerank`` ``{"query": str, "texts": [str], "raw_scores": bool}``
  -> ``[{"index": int, "score": float}, ...]`` best first (``raw_scores`` false: sigmoid);
* ``GET /health`` -> 200.

Bad requests get 422 with ``{"error": ..., "error_type": "Validation"}`` (more texts than ``embed_texts`` /
``rerank_texts`` among them) and a body over ``request_bytes`` 413 (:mod:`hindsight_pl.limits`), each with the
limit's hint; the models read at most ``embed_chars`` / ``rerank_chars`` of each text. A request is computed
in parts (32 texts, about two seconds of model work), so requests take turns on the model, and one whose client
went away stops after its current part (499).
/rerank on a server without a cross-encoder gets 424. One log line per request: endpoint, texts, milliseconds.
Each model call computes on the models' own thread count (``serve-models --threads``, default 1), set on the
worker thread that runs it (docs/providers.md#threads).
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from hindsight_pl import limits
from hindsight_pl.providers import Embedder, Reranker

log = logging.getLogger("hindsight_pg.models")


# what one part of a request may make a model read (hindsight_pl.limits.cost) before the next request's turn
# and a check that the client is still there: about two seconds of multilingual-e5-small on 2 cores
PART_COST = 8 * limits.CALL_COST


class _Invalid(Exception):
    """A refused request: its message (and a limit's hint, for a LimitError) and HTTP status."""

    status = 422

    def __init__(self, problem: str | limits.LimitError) -> None:
        hint = getattr(problem, "hint", None)
        super().__init__(f"{problem} (hint: {hint})" if hint else str(problem))


class _TooLarge(_Invalid):
    status = 413


class _Gone(Exception):
    """The client of a request of ``texts`` texts went away before its answer."""

    def __init__(self, texts: int) -> None:
        super().__init__(f"the client went away ({texts} texts)")
        self.texts = texts


def create_app(embedder: Embedder, reranker: Reranker | None = None) -> Starlette:
    """The ASGI app serving ``embedder`` (and ``reranker``, when given) over the TEI protocol."""
    lock = threading.Lock()  # one model call at a time, on the models' threads (--threads); requests take turns

    def _locked(call: Any, *args: Any) -> Any:
        with lock:
            return call(*args)

    async def _body(request: Request) -> dict[str, Any]:
        most = limits.value("request_bytes")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > most:
            raise _TooLarge(limits.refuse("request_bytes", "the body", int(declared)))
        raw = bytearray()
        async for part in request.stream():  # read no more than the limit, whatever the header said
            raw += part
            if len(raw) > most:
                raise _TooLarge(limits.refuse("request_bytes", "the body (read so far)", len(raw)))
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise _Invalid(f"the body is not JSON: {exc}") from None
        if not isinstance(body, dict):
            raise _Invalid("the body must be a JSON object")
        return body

    def _texts(value: Any, name: str, limit: str) -> list[str]:
        texts = [value] if isinstance(value, str) else value
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise _Invalid(f"{name} must be a string or a list of strings")
        if len(texts) > limits.value(limit):
            raise _Invalid(limits.refuse(limit, name, len(texts)))
        return texts

    async def _in_parts(request: Request, call: Any, texts: list[str], most: int) -> list[Any]:
        """``call(part)`` over ``texts`` a part at a time (at most 32 texts and PART_COST of what the model reads of
        them, ``most`` characters each), each part holding the model alone, so requests take turns; raises
        :class:`_Gone` when the client went away (the rest is not computed)."""
        results: list[Any] = []
        costs = [limits.cost(t[:most]) for t in texts]
        for n, part in enumerate(limits.batches(costs, PART_COST, 32)):
            if n and await request.is_disconnected():
                raise _Gone(len(texts))
            results.extend(await run_in_threadpool(_locked, call, texts[part]))
        return results

    def _handler(
        work: Callable[[Request], Awaitable[tuple[int, Response]]],
    ) -> Callable[[Request], Awaitable[Response]]:
        """The endpoint of ``work(request) -> (texts, response)``: refusals answered with their status, a request
        whose client went away with 499, one log line each."""

        async def handle(request: Request) -> Response:
            started = time.perf_counter()
            try:
                texts, response = await work(request)
            except _Invalid as exc:
                _log(request, 0, started, exc.status)
                return JSONResponse({"error": str(exc), "error_type": "Validation"}, status_code=exc.status)
            except _Gone as gone:
                _log(request, gone.texts, started, 499)
                return Response(status_code=499)
            _log(request, texts, started, response.status_code)
            return response

        return handle

    async def embed(request: Request) -> tuple[int, Response]:
        body = await _body(request)
        texts = _texts(body.get("inputs"), "inputs", "embed_texts")
        kind = body.get("prompt_name") or "passage"
        if kind not in ("query", "passage"):
            raise _Invalid("prompt_name must be query or passage")
        vectors = await _in_parts(request, lambda part: embedder.embed(part, kind).tolist(), texts,
                                  limits.value("embed_chars"))  # fmt: skip
        return len(texts), JSONResponse(vectors)

    async def rerank(request: Request) -> tuple[int, Response]:
        if reranker is None:
            return 0, JSONResponse(
                {"error": "this server has no cross-encoder: start it with --reranker-model", "error_type": "Backend"},
                status_code=424,
            )
        body = await _body(request)
        query = body.get("query")
        if not isinstance(query, str):
            raise _Invalid("query must be a string")
        texts = _texts(body.get("texts"), "texts", "rerank_texts")
        found = await _in_parts(request, lambda part: reranker.rerank(query, part).tolist(), texts,
                                limits.value("rerank_chars"))  # fmt: skip
        scores = [float(s) for s in found]
        if not body.get("raw_scores", False):
            scores = [1 / (1 + math.exp(-s)) if math.isfinite(s) else s for s in scores]
        ranked = sorted(range(len(texts)), key=lambda i: -scores[i] if math.isfinite(scores[i]) else math.inf)
        return len(texts), JSONResponse([{"index": i, "score": scores[i]} for i in ranked])

    async def health(request: Request) -> Response:
        return Response(status_code=200)

    return Starlette(
        routes=[
            Route("/embed", _handler(embed), methods=["POST"]),
            Route("/rerank", _handler(rerank), methods=["POST"]),
            Route("/health", health, methods=["GET"]),
        ]
    )


def _log(request: Request, texts: int, started: float, status: int) -> None:
    log.info(
        "%s %s: %d texts, %.1f ms, %d", request.method, request.url.path, texts, (time.perf_counter() - started) * 1000,
        status,
    )  # fmt: skip


def serve(embedder: Embedder, reranker: Reranker | None, host: str, port: int) -> None:
    """Run the server until interrupted (uvicorn, one process)."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # SIGTERM or Ctrl-C: requests in progress get 5 s to finish their current part, then the server stops
    uvicorn.run(create_app(embedder, reranker), host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)
