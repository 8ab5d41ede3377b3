"""The recall playground's explanation of a recall: each result's score parts, the reader's rank, what moved it, the
candidates left out, and the SQL call that gives the same recall (docs/ui.md, "Recall playground")."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def explain(response: Any, time_zone: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each result with its dates (``when``: :func:`describe_when` in days of ``time_zone``), its place by final
    score (``position``: packing skips what does not fit, so the n-th packed result may be further down), its score
    parts (the final score split into the rerank score and what the boosts, or the fusion with the reader's rank,
    added or took) and, when a cross-encoder read it, its rank among what it read and its raw score (from the
    trace), and why updates-win or the window rule moved it (``moves``: "moved below “…”: superseded by it"); and
    every scored candidate that was not packed, by final score (its ``position``)."""
    scored = (response.trace or {}).get("scoring", {}).get("results", [])
    by_id = {x["id"]: x for x in scored}
    texts = {str(r.id): r.text for r in response.results}
    rows = []
    for r in response.results:
        s, traced = r.scores, by_id.get(str(r.id), {})
        base = max(min(s.rerank, s.final), 0.0)
        rows.append({"result": r, "when": r.describe_when(time_zone), "base": base, "position": traced.get("position"),
                     "gain": max(s.final - s.rerank, 0.0), "loss": max(s.rerank - s.final, 0.0),
                     "reader": traced if traced.get("rerank_raw") is not None else None,
                     "moves": [_move(m, texts) for m in traced.get("moved") or []]})  # fmt: skip
    kept = {str(r.id) for r in response.results}
    dropped = [x for x in scored if x["id"] not in kept]
    return rows, dropped


def _move(move: dict[str, Any], texts: dict[str, str]) -> str:
    """One line on a move of the trace's ``moved`` (recall_finish): by updates-win next to the unit that supersedes
    it (or that it supersedes), or by the window rule."""
    places = f"(#{move['from']} → #{move['to']})"
    if move["by"] == "window":
        return f"moved up {places}: dated in the time window"
    other = texts.get(move["next_to"], move["next_to"])
    other = other if len(other) <= 60 else other[:59] + "…"
    if move["to"] > move["from"]:
        return f"moved below “{other}” {places}: superseded by it"
    return f"moved above “{other}” {places}: it supersedes that"


def sql_call(bank_id: str, query: str, budget: str, max_tokens: int, types: list[str], tags: list[str] | None,
              as_of: datetime | None, window: tuple[datetime, datetime] | None) -> str:  # fmt: skip
    """The hindsight.recall call a SQL user would write for the same recall (literals quoted): every packed
    result (max_results => NULL, as the page lists them), asked as of ``as_of`` (None: now)."""

    def literal(value: str) -> str:
        return "'" + value.replace("'", "''") + "'"

    parts = [literal(bank_id), literal(query), f"budget => {literal(budget)}", f"max_tokens => {max_tokens}"]
    if types:
        parts.append("types => ARRAY[" + ", ".join(map(literal, types)) + "]")
    if tags:
        parts.append("tags => ARRAY[" + ", ".join(map(literal, tags)) + "]")
    if as_of:
        parts.append(f"query_timestamp => {literal(as_of.isoformat())}")
    if window:
        parts.append(f"temporal_window => tstzrange({literal(window[0].isoformat())}, "
                     f"{literal(window[1].isoformat())}, '[]')")  # fmt: skip
    parts.append("max_results => NULL")
    return "SELECT * FROM hindsight.recall(" + ", ".join(parts) + ");"
