"""What the commands print: results, traces, mental models, progress bars; and the reading of
``--at``. Standard output holds results (a memory is one line, also when piped); progress and
messages go to standard error."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .._client import Client
from .._errors import InvalidInputError
from .._types import MemoryItem, MentalModel, RecallResponse, RetainResult, describe_when
from .._unit_dates import unit_dates

out = Console(highlight=False, soft_wrap=True)  # a memory is one line, also when piped
err = Console(stderr=True, highlight=False)


def progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    )


def retain_with_progress(
    client: Client, bank: str, items: Sequence[MemoryItem], label: str, *, create_bank: bool = False
) -> RetainResult:
    with progress() as bar:
        task = bar.add_task(label, total=len(items))
        return client.retain_batch(bank, items, progress=lambda n: bar.advance(task, n), create_bank=create_bank)


def merged(result: RetainResult) -> str:
    """The summary's account of the facts stored as another unit (docs/retain.md): none is lost unsaid."""
    return f"{len(result.merged)} repeated fact(s) merged into kept units"


def print_trace(trace: dict[str, Any]) -> None:
    out.print(f"[dim]recall budget {trace['recall_budget']}, {trace['total_ms']:.1f} ms in all[/dim]")
    for arm, info in trace["arms"].items():
        state = f"{len(info['hits'])} hits, {info['ms'] or 0:.1f} ms" if info["ran"] else "did not run"
        out.print(f"[dim]  {arm:<9}{state}[/dim]")
    prefilter = trace["prefilter"]
    out.print(f"[dim]  fused    {trace['fusion']['fused']} units, {prefilter['kept']} kept for scoring[/dim]")
    packing = trace["packing"]
    out.print(f"[dim]  packed   {packing['kept']} of {packing['candidates']} ({packing['tokens']} tokens)[/dim]")


def json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def at(value: str | None) -> datetime | None:
    """``--at`` as a datetime (naive: UTC, as the driver reads it), or a usage error naming the option."""
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInputError(f"--at: {value!r} is not an ISO 8601 date-time", hint="e.g. 2025-06-27T09:00") from None


def print_results(response: RecallResponse, indent: str = "", time_zone: str = "UTC", ids: bool = False) -> None:
    """One line per result: rank, final score, its dates (:func:`hindsight_pg._types.describe_when`, in days of
    ``time_zone``, the bank's), the text, its relevance and the arms that found it; with ``ids``, the memory's id
    after them."""
    if not response.results:
        out.print(f"{indent}(no memories)")
    for r in response.results:
        arms = ", ".join(
            f"{arm} #{rank}"
            for arm, rank in (("semantic", r.scores.semantic_rank), ("keyword", r.scores.keyword_rank))
            if rank is not None
        )
        if r.relevance is not None:
            arms = f"relevance {r.relevance:.2f}" + (f"; {arms}" if arms else "")
        kind = "observation: " if r.fact_type == "observation" else ""
        when = r.describe_when(time_zone)
        memory = f"  {r.id}" if ids else ""
        out.print(f"{indent}{r.rank:>2}. \\[{r.scores.final:.3f}] {when}  {kind}{escape(r.text)}  [dim]({arms})[/dim]"
                  f"{memory}")  # fmt: skip


def unit_whens(client: Client, bank: str, ids: Sequence[str], time_zone: str) -> dict[str, str]:
    """The dates (:func:`hindsight_pg._types.describe_when`) of the bank's memory units among ``ids`` (uuid
    text), by id; an id that is no unit of the bank (a mental model, a source) has none."""
    return {unit: describe_when(*when, time_zone) for unit, when in unit_dates(client, bank, ids).items()}


def print_model(model: MentalModel) -> None:
    when = model.last_refreshed_at.isoformat(timespec="seconds") if model.last_refreshed_at else "never refreshed"
    out.print(f"[bold]{escape(model.name)}[/bold] ({when}): {escape(model.source_query)}")
    if model.content is not None:
        out.print(f"  {escape(model.content)}")
