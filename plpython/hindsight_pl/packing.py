"""Token-budget packing of ranked results."""

from __future__ import annotations

from collections.abc import Sequence


def pack_by_tokens(token_counts: Sequence[int], max_tokens: int) -> list[int]:
    """Choose which ranked results fit in a token budget.

    ``token_counts[i]`` is the size of the result ranked ``i + 1`` (best first).
    Walking in rank order, a result is kept when it fits in what is left of
    ``max_tokens`` and skipped otherwise (later, smaller results may still fit).
    When no result fits at all, the top result is kept whole, so a recall never
    comes back empty because its best memory is long. ``max_tokens == 0`` keeps
    nothing. This is the packing rule of Hindsight's recall.

    Returns the 1-based positions kept, ascending. Raises ``ValueError`` for a
    negative budget or a negative count.
    """
    if max_tokens < 0:
        raise ValueError(f"max_tokens must be >= 0, got {max_tokens}")
    if max_tokens == 0 or not token_counts:
        return []
    kept: list[int] = []
    left = max_tokens
    for position, count in enumerate(token_counts, start=1):
        if count < 0:
            raise ValueError(f"token count at position {position} is negative: {count}")
        if count <= left:
            kept.append(position)
            left -= count
    return kept or [1]
