"""Spreading activation of the temporal arm along temporal and causal links.

From entry points (units inside the query's time window, scored by their
temporal proximity), activation flows along links for a few rounds:

    propagated = parent_score * link_weight * boost(link_type) * decay

with boost 2.0 for causes / caused_by, 1.5 for enables / prevents and 1.0 for
temporal links, decay 0.7. A reached unit scores max(its own proximity, or
0.3 when it has no date, propagated); it spreads further only while its score
is above 0.2. At most ``max_rounds`` rounds (5), the ``links_per_node``
strongest links (10) of weight >= ``min_link_weight`` (0.1) per unit, and the
walk stops once ``max_nodes`` units are scored. These are the temporal arm's
rules in Hindsight's TEMPR design.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class Link(NamedTuple):
    """An outgoing link of ``source``; ``proximity`` is the target's (None: the target has no date)."""

    source: str
    target: str
    link_type: str
    weight: float
    proximity: float | None


@dataclass(frozen=True)
class SpreadParams:
    """The constants of the spreading rule (bank config keys ``temporal_*``)."""

    max_rounds: int = 5
    links_per_node: int = 10
    min_link_weight: float = 0.1
    decay: float = 0.7
    threshold: float = 0.2
    no_date_score: float = 0.3
    boosts: Mapping[str, float] = field(
        default_factory=lambda: {"temporal": 1.0, "causes": 2.0, "caused_by": 2.0, "enables": 1.5, "prevents": 1.5}
    )

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SpreadParams:
        """Read the parameters from a bank's effective config (``hindsight.bank_config``)."""
        return cls(
            max_rounds=int(config["temporal_max_rounds"]),
            links_per_node=int(config["temporal_links_per_node"]),
            min_link_weight=float(config["temporal_min_link_weight"]),
            decay=float(config["temporal_decay"]),
            threshold=float(config["temporal_spread_threshold"]),
            no_date_score=float(config["temporal_no_date_score"]),
            boosts={k: float(v) for k, v in config["temporal_link_boosts"].items()},
        )


def spread(
    entries: Mapping[str, float],
    fetch_links: Callable[[Sequence[str]], Sequence[Link]],
    params: SpreadParams,
    max_nodes: int,
) -> dict[str, float]:
    """Scores of every unit reached from ``entries`` (unit id -> score), entries included.

    ``fetch_links(frontier)`` returns the outgoing links of the frontier's units
    (already limited to the strongest ``links_per_node`` per unit, of weight >=
    ``min_link_weight``, to units that pass the recall's filters). Entry scores
    are kept unless a link raises them. Raises ``ValueError`` when
    ``max_nodes`` < 0.
    """
    if max_nodes < 0:
        raise ValueError(f"max_nodes must be >= 0, got {max_nodes}")
    scores: dict[str, float] = {}
    for unit, score in entries.items():
        if len(scores) >= max_nodes:
            break
        scores[unit] = score
    expanded: set[str] = set()
    frontier = [u for u in scores if scores[u] > params.threshold]
    for _ in range(params.max_rounds):
        if not frontier:
            break
        expanded.update(frontier)
        grown: list[str] = []
        for link in fetch_links(frontier):
            propagated = scores[link.source] * link.weight * params.boosts.get(link.link_type, 1.0) * params.decay
            own = params.no_date_score if link.proximity is None else link.proximity
            candidate = max(own, propagated)
            if link.target in scores:
                if candidate <= scores[link.target]:
                    continue
            elif len(scores) >= max_nodes:
                continue
            scores[link.target] = candidate
            if candidate > params.threshold and link.target not in expanded and link.target not in grown:
                grown.append(link.target)
        frontier = grown
    return scores
