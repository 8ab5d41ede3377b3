"""A read-only web inspector of banks and recall traces (``hindsight-pg ui``; docs/ui.md).

Pages: the banks with their counts; a bank's timeline (units per week or month on a time axis with
every period, empty ones too, and a chosen range's units, paginated); its entities (mention counts,
co-occurrences, drawn with vis-network, bundled at build time, in a layout that is the same on every
load, and a chosen entity's units beside the graph); a recall playground, asked as of a chosen day
(every arm's rank and score, fusion, the rerank or passthrough score, each boost, the final score as
a stacked bar, the time window, milliseconds per phase, the candidates that did not make it, and the
equivalent SQL call). Every page reads through the driver as the connecting role, so row-level
security decides what it shows; nothing writes. Jinja2 escapes every value (bank ids, memory text,
queries).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import psycopg
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from psycopg.rows import dict_row
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .._client import DEFAULT_ENTITY_LIMIT, Client
from .._connect import connect
from .._errors import (
    BankNotFoundError,
    ConnectionLostError,
    HindsightError,
    InvalidInputError,
    ProviderError,
    from_database,
)
from .._types import describe_when
from .._unit_dates import bank_time_zone
from . import queries
from .explanation import explain, sql_call
from .timeline import MAX_PERIODS, chart, midnight

HERE = Path(__file__).parent
PAGE_SIZE = 50
MAX_ENTITIES = 100  # the most nodes the entity graph draws (the page's "entities" control)
EDGES_PER_ENTITY = 4  # the graph's edges: the strongest co-occurrences, up to this many times the nodes
GRAPH_SEED = 7  # the seed of the graph's layout (vis-network's layout.randomSeed): the same picture on every load
MENTIONS = 100  # the units listed for a chosen entity, latest first
DROPPED = 50  # the scored but not packed candidates the playground lists, best first
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
TYPES = ("world", "experience", "observation")

_templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))


def _safe_json(text: str) -> Markup:
    """JSON for a <script type="application/json"> block: no "</script>" (or any tag) can end it early."""
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


_templates.filters["safe_json"] = _safe_json


def create_app(dsn: str | None = None, allowed_hosts: Sequence[str] = LOOPBACK) -> Starlette:
    """The inspector as an ASGI app on the database ``dsn`` (default: as :func:`hindsight_pg.connect`).
    Requests whose Host header is not one of ``allowed_hosts`` are refused (400), so a web page elsewhere
    cannot reach it through DNS rebinding; ``["*"]`` allows any."""

    kept: list[Client] = []  # one connection, reused: a new session would import the in-database Python again

    @contextmanager
    def client() -> Iterator[Client]:
        # the handlers run one at a time on the event loop (their database calls block it), so one
        # connection serves them all; a broken one is dropped and the next request connects again
        if kept and (kept[0].conn.closed or kept[0].conn.broken):
            kept.clear()
        if not kept:
            kept.append(connect(dsn))
        try:
            yield kept[0]
        except ConnectionLostError:
            kept.clear()
            raise

    def page(request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        html = _templates.get_template(template).render(request=request, **values)
        return HTMLResponse(html, status_code=status)

    async def failure(request: Request, exc: Exception) -> Response:
        """The error page of an exception a handler raised (the app's exception handler)."""
        if isinstance(exc, psycopg.Error):
            exc = from_database(exc)
        elif isinstance(exc, ValueError) and not isinstance(exc, HindsightError):
            exc = InvalidInputError(str(exc))
        if isinstance(exc, BankNotFoundError):
            return page(request, "error.html", 404, title="Unknown bank", message=str(exc.args[0]),
                        hint="The bank does not exist, or this role may not read it.")  # fmt: skip
        if isinstance(exc, InvalidInputError):
            return page(request, "error.html", 400, title="Bad input", message=str(exc.args[0]), hint=exc.hint)
        if isinstance(exc, ProviderError):
            return page(request, "error.html", 502, title="The embedding model failed", message=str(exc.args[0]),
                        hint="The bank's embedding_model could not be loaded (docs/providers.md).")  # fmt: skip
        return page(request, "error.html", 503, title="The database did not answer", message=str(exc.args[0]),
                    hint="Is the server running, and is the DSN right? (hindsight-pg server status)")  # fmt: skip

    async def banks(request: Request) -> Response:
        with client() as c, c.conn.cursor(row_factory=dict_row) as cursor:
            rows = cursor.execute(queries.BANKS).fetchall()
        listed = []
        for values in rows:
            defaults = values.pop("defaults")
            values["changed"] = {k: v for k, v in (values.pop("config") or {}).items() if defaults.get(k) != v}
            listed.append(values)
        return page(request, "banks.html", banks=listed)

    async def timeline(request: Request) -> Response:
        bank_id = request.path_params["bank_id"]
        args = request.query_params
        grain = "week" if args.get("by") == "week" else "month"
        start, end = _day(args.get("start")), _day(args.get("end"))
        if start and end and end < start:
            raise InvalidInputError(f"the range ends ({end}) before it starts ({start})")
        offset = (_page(args.get("page")) - 1) * PAGE_SIZE
        with client() as c:
            c.get_bank(bank_id)  # HS404 for an unknown bank
            buckets = c.conn.execute(queries.UNITS_BY_PERIOD, {"g": grain, "b": bank_id}).fetchall()
            bind = {"b": bank_id, "s": start, "e": end, "n": PAGE_SIZE, "o": offset}
            total = c.conn.execute(queries.COUNT_IN_RANGE, bind).fetchone()[0]  # type: ignore[index]
            zone = bank_time_zone(c, bank_id)
            units = [(describe_when(said, start, finish, zone), *rest)
                     for said, start, finish, *rest in c.conn.execute(queries.UNITS_IN_RANGE, bind)]  # fmt: skip
        zoom = args.get("chart") == "range" and bool(start or end)
        charted, periods = chart(buckets, grain, start, end, zoom)
        peak = max((p["units"] for p in periods), default=0)
        return page(request, "timeline.html", bank_id=bank_id, grain=grain, charted=charted, periods=periods, peak=peak,
                    zoom=zoom, max_periods=MAX_PERIODS, units=units, total=total, start=start, end=end,
                    page_number=offset // PAGE_SIZE + 1, pages=max(1, -(-total // PAGE_SIZE)))  # fmt: skip

    async def entities(request: Request) -> Response:
        bank_id = request.path_params["bank_id"]
        limit = _whole(request.query_params.get("limit"), "the number of entities", DEFAULT_ENTITY_LIMIT, MAX_ENTITIES)
        with client() as c:
            top = [(e.id, e.canonical_name, e.mention_count, e.first_seen, e.last_seen)
                   for e in c.list_entities(bank_id, limit=limit)]  # fmt: skip
            ids = [row[0] for row in top]
            edges = c.conn.execute(queries.COOCCURRENCES, (bank_id, ids, EDGES_PER_ENTITY * limit)).fetchall()
            chosen = request.query_params.get("entity")
            zone = bank_time_zone(c, bank_id)
            mentions = [(text, describe_when(said, start, end, zone)) for text, said, start, end
                        in c.conn.execute(queries.MENTIONS, (bank_id, chosen, MENTIONS))] if chosen else []  # fmt: skip
        graph = {
            "nodes": [{"id": str(i), "label": name, "value": count} for i, name, count, _, _ in top],
            "edges": [{"from": str(a), "to": str(b), "value": n, "title": f"{n} together"} for a, b, n in edges],
            "chosen": next((str(i) for i, name, *_ in top if name == chosen), None),
        }
        return page(request, "entities.html", bank_id=bank_id, top=top, graph=json.dumps(graph), chosen=chosen,
                    mentions=mentions, mentions_cap=MENTIONS, limit=limit, limits=sorted({10, 20, 30, 50, limit}),
                    seed=GRAPH_SEED)  # fmt: skip

    async def playground(request: Request) -> Response:
        bank_id = request.path_params["bank_id"]
        form = request.query_params
        query, budget, tokens = form.get("q", ""), form.get("budget", "mid"), form.get("max_tokens", "1024")
        types, tags_text = form.getlist("types"), form.get("tags", "")
        start_text, end_text, show_dropped = form.get("start", ""), form.get("end", ""), form.get("dropped") == "on"
        as_of_text = form.get("as_of")
        response = sql = None
        zone = "UTC"
        with client() as c:
            c.get_bank(bank_id)
            if as_of_text is None:  # not in the form yet: the day of the bank's latest memory (empty: now)
                latest = c.conn.execute(queries.LATEST_MENTION, (bank_id,)).fetchone()[0]  # type: ignore[index]
                as_of_text = latest.astimezone(UTC).date().isoformat() if latest else ""
            as_of_day = _day(as_of_text)
            as_of = midnight(as_of_day, last=True) if as_of_day else None
            # a query past query_chars (2,000) is refused by the driver before any model reads it: a 400 page
            if query.strip():
                window = None
                if start_text or end_text:
                    start, end = _day(start_text), _day(end_text)
                    if start is None or end is None:
                        raise InvalidInputError("a time window needs both a start and an end day")
                    if end < start:
                        raise InvalidInputError(f"the time window ends ({end}) before it starts ({start})")
                    window = (midnight(start), midnight(end, last=True))
                tags = [t.strip() for t in tags_text.split(",") if t.strip()] or None
                if not tokens.strip().isdigit():
                    raise InvalidInputError(f"max tokens must be a whole number, not {tokens!r}")
                max_tokens = int(tokens)
                response = c.recall(bank_id, query, budget=budget, max_tokens=max_tokens, types=types or None,
                                    tags=tags, query_timestamp=as_of, temporal_window=window, max_results=None,
                                    trace=True)  # fmt: skip
                zone = bank_time_zone(c, bank_id)
                sql = sql_call(bank_id, query, budget, max_tokens, types, tags, as_of, window)
        rows, dropped = explain(response, zone) if response is not None else ([], [])
        unpacked = len(dropped)
        if show_dropped and dropped:
            with client() as c:
                units = {i: {"text": text, "tokens": tokens} for i, text, tokens in c.conn.execute(
                    queries.UNITS_BY_ID, (bank_id, [d["id"] for d in dropped[:DROPPED]]))}  # fmt: skip
            dropped = [{**d, **units.get(d["id"], {"text": "", "tokens": None})} for d in dropped[:DROPPED]]
        asked_at = None
        if response is not None and response.trace:
            asked_at = datetime.fromisoformat(response.trace["scoring"]["query_timestamp"]).astimezone(UTC)
        values = {"q": query, "budget": budget, "max_tokens": tokens, "types": types, "tags": tags_text,
                  "start": start_text, "end": end_text, "as_of": as_of_text, "dropped": show_dropped}  # fmt: skip
        return page(request, "recall.html", bank_id=bank_id, values=values, types=TYPES, response=response,
                    rows=rows, dropped=dropped if show_dropped else None, unpacked=unpacked, sql=sql,
                    asked_at=f"{asked_at:%Y-%m-%d %H:%M:%S} UTC" if asked_at else "")  # fmt: skip

    handlers = {HindsightError: failure, psycopg.Error: failure, ValueError: failure}
    return Starlette(middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))],
                     exception_handlers=handlers, routes=[
        Route("/", banks),
        Route("/banks/{bank_id:path}/entities", entities),
        Route("/banks/{bank_id:path}/recall", playground),
        Route("/banks/{bank_id:path}", timeline),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ])  # fmt: skip


def _day(text: str | None) -> date | None:
    """A day written YYYY-MM-DD, or None for an empty field; InvalidInputError otherwise."""
    if not text:
        return None
    try:
        return date.fromisoformat(text) if len(text) == 10 else date.fromisoformat("")
    except ValueError:
        raise InvalidInputError(f"a day is written YYYY-MM-DD, not {text[:40]!r}") from None


def _page(text: str | None) -> int:
    """A page number from 1 to 1,000,000 (an absent, zero or negative one is the first page)."""
    if not text:
        return 1
    if not text.lstrip("-").isdigit() or len(text) > 8:
        raise InvalidInputError(f"a page is a whole number up to 1,000,000, not {text[:40]!r}")
    return min(max(int(text), 1), 1_000_000)


def _whole(text: str | None, what: str, default: int, most: int) -> int:
    """A whole number from 1 to ``most`` (``default`` when absent); InvalidInputError otherwise."""
    if not text:
        return default
    if not text.isdigit() or not 1 <= int(text[:9]) <= most:
        raise InvalidInputError(f"{what} is a whole number from 1 to {most}, not {text[:40]!r}")
    return int(text)
