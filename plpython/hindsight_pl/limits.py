"""Bounded work: the limit on every input, and the checkpoints that keep long work cancellable.

Every entry point (SQL, the driver, the CLI, MCP, the model server, the inspector) takes its limits
from ``limits.json`` beside this module, the one definition: Python reads it into :data:`LIMITS`, the
build writes it into SQL's ``hindsight.limits()``, and docs/reliability.md lists them ("Bounded work",
checked against it by a test). An input past a
limit that would be refused is refused with :class:`LimitError` (SQLSTATE 54000,
program_limit_exceeded, with a hint naming the limit) before any work; an input past a limit that
is cut (what a model reads) is cut by characters before any tokenizer sees it.

Inside the database a PL/Python function cannot be cancelled while Python or native code runs: only
a call back into PostgreSQL checks for a pending cancel (``statement_timeout``,
``pg_cancel_backend``, ``pg_terminate_backend``). So long work calls :func:`checkpoint` between its
native calls (model batches, extraction chunks, token counts) and waits for network answers in
slices (:func:`wait`); the extension installs a checkpoint that runs a prepared empty ``SELECT``
(about 1 µs) once per session (``hindsight._load``). Each native call between two checkpoints is
kept under about 0.7 s on one core by its input's size (:data:`CALL_COST`; bench/bounded.py). Outside
the database the checkpoint does nothing and :func:`wait` calls straight through.
"""

from __future__ import annotations

import concurrent.futures
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .errors import InputError

T = TypeVar("T")


@dataclass(frozen=True)
class Limit:
    """One limit: its ``value`` in ``unit``, whether a larger input is ``refused`` or cut, what it bounds, and
    ``advice`` on what to do instead (the hint of a refusal, after "Send at most ...")."""

    name: str
    value: int
    unit: str
    refused: bool
    bounds: str
    advice: str


# limits.json, beside this file, is the one definition: the build puts it into hindsight.limits() too
LIMITS: dict[str, Limit] = {
    row["name"]: Limit(**row) for row in json.loads((Path(__file__).parent / "limits.json").read_text("utf-8"))
}

# What one native model call may read between two checkpoints, in cost units (:func:`cost`): at most about 500
# model tokens whatever the script; multilingual-e5-small reads it in 0.4-0.7 s on one core here (bench/bounded.py).
CALL_COST = 2_000
SEE = "SELECT * FROM hindsight.limits(); docs/reliability.md"  # where a refusal's hint points


def value(name: str) -> int:
    """The value of limit ``name``; KeyError for an unknown name."""
    return LIMITS[name].value


class LimitError(InputError):
    """An input is larger than a limit (:data:`LIMITS`); nothing was done (SQLSTATE 54000)."""

    sqlstate: str | None = "54000"


def refuse(name: str, what: str, size: int) -> LimitError:
    """The :class:`LimitError` for ``what`` of ``size`` past limit ``name``; its hint says what to do (the same
    message and hint as SQL's ``hindsight._check_limit``)."""
    limit = LIMITS[name]
    advice = f": {limit.advice}" if limit.advice else ""
    return LimitError(
        f"{what} has {size:,} {limit.unit}, more than the {limit.value:,} allowed ({name})",
        hint=f"Send at most {limit.value:,} {limit.unit}{advice} ({SEE}).",
    )


def check_query(query: str, what: str = "query") -> str:
    """``query`` when it has at most ``query_chars`` characters; else :class:`LimitError`."""
    if len(query) > value("query_chars"):
        raise refuse("query_chars", what, len(query))
    return query


def check_count(name: str, what: str, count: int) -> None:
    """:class:`LimitError` when ``count`` is past limit ``name``."""
    if count > value(name):
        raise refuse(name, what, count)


def check_json(document: Any, what: str) -> None:
    """:class:`LimitError` when ``document`` (parsed JSON) nests deeper than ``json_depth`` or its JSON text
    is longer than ``json_bytes``; depth is checked first, without recursion."""
    stack = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > value("json_depth"):
                raise refuse("json_depth", what, depth)
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    size = len(json.dumps(document, ensure_ascii=False).encode())
    if size > value("json_bytes"):
        raise refuse("json_bytes", what, size)


def load_json(document: str, what: str) -> Any:
    """``document`` (JSON text) parsed; one nested past Python's recursion limit is refused as too deep rather
    than failing the parser (the rest of :func:`check_json` is its reader's to call)."""
    try:
        return json.loads(document)
    except RecursionError:
        raise refuse("json_depth", what, _text_depth(document)) from None


def _text_depth(document: str) -> int:
    """How deep the arrays and objects of JSON text ``document`` nest (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in document:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def cost(text: str) -> int:
    """What a model pays to read ``text``, in the units of :data:`CALL_COST`: twice its UTF-8 bytes less its
    characters, so 1 per ASCII character, 3 per two-byte one (Cyrillic, Greek, accented letters) and 5 per CJK
    character (an English word is about four characters a token, a CJK character about one). Computed at C
    speed, whatever the text's size."""
    return 2 * len(text.encode("utf-8", "surrogatepass")) - len(text)


def windows(text: str, window_cost: int, max_chars: int) -> list[str]:
    """``text`` cut to ``max_chars`` characters, then split (paragraphs, sentences, words:
    :func:`hindsight_pl.retain.chunking.chunk_text`) into windows of about ``window_cost`` each; a text that fits
    is one window, and a blank one is one empty window."""
    from .retain.chunking import chunk_text

    text = text[:max_chars]
    spent = cost(text)
    if spent <= window_cost:
        return [text]
    return chunk_text(text, max(1, window_cost * len(text) // spent)) or [text[:window_cost]]


def batches(costs: Sequence[int], budget: int = CALL_COST, size: int = 32) -> Iterator[slice]:
    """Consecutive slices of ``costs`` whose sum is at most ``budget`` (a single larger one alone) and whose
    length is at most ``size``: the native calls of a batch of model inputs."""
    start = 0
    while start < len(costs):
        end, spent = start, 0
        while end < len(costs) and end - start < size and (end == start or spent + costs[end] <= budget):
            spent += costs[end]
            end += 1
        yield slice(start, end)
        start = end


_checkpoint: Callable[[], Any] | None = None
WAIT_SLICE = 0.2  # seconds between two checkpoints while a network answer is awaited


def set_checkpoint(check: Callable[[], Any] | None) -> None:
    """Install the function :func:`checkpoint` calls (inside the database: a prepared empty SELECT, which
    raises the pending cancel as an error); None removes it."""
    global _checkpoint
    _checkpoint = check


def checkpoint() -> None:
    """Let a pending cancel or timeout take effect (raises its error); nothing outside the database."""
    if _checkpoint is not None:
        _checkpoint()


def start(call: Callable[..., T], *args: Any, **kwargs: Any) -> concurrent.futures.Future[T]:
    """``call(*args, **kwargs)`` begun: in a thread of its own when a checkpoint is installed (inside the
    database), so that :func:`result` can wait for it in slices; else run here, done when this returns. The call
    must not touch the database. A call whose waiter was cancelled runs on in its thread to its end."""
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        try:
            future.set_result(call(*args, **kwargs))
        except BaseException as exc:  # handed to the waiting thread, which raises it
            future.set_exception(exc)

    if _checkpoint is None:
        run()
    else:
        threading.Thread(target=run, name="hindsight-wait", daemon=True).start()
    return future


def result(future: concurrent.futures.Future[T]) -> T:
    """The future's result, with a checkpoint every :data:`WAIT_SLICE` seconds until it is there."""
    while True:
        try:
            return future.result(timeout=WAIT_SLICE)
        except concurrent.futures.TimeoutError:
            checkpoint()


def wait(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)`` (a network request, a model load), with a checkpoint every :data:`WAIT_SLICE`
    seconds while it runs, so a cancel takes effect while it is awaited (:func:`start`, :func:`result`); a
    cancelled call's thread ends with the call's own timeout and never delays another call."""
    return result(start(call, *args, **kwargs))
