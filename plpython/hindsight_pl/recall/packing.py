"""Token-budget packing of ranked results."""

from __future__ import annotations

from collections.abc import Sequence

from .. import tokens


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


def pack_chunks(texts: Sequence[str], max_tokens: int) -> list[tuple[int, str, int, bool]]:
    """Pack source chunks, in the order given, into ``max_tokens`` cl100k_base tokens.

    A chunk that fits is kept whole; the first that does not is cut to the
    tokens left (when any are left) and marked truncated, and nothing follows
    it. Returns ``(position (1-based), text, tokens, truncated)`` per kept chunk.
    Raises ``ValueError`` for a negative budget.
    """
    if max_tokens < 0:
        raise ValueError(f"max_tokens must be >= 0, got {max_tokens}")
    packed: list[tuple[int, str, int, bool]] = []
    left = max_tokens
    for position, chunk in enumerate(texts, start=1):
        ids = tokens.encode(chunk)
        if len(ids) <= left:
            packed.append((position, chunk, len(ids), False))
            left -= len(ids)
            continue
        if left > 0:
            packed.append((position, tokens.decode(ids[:left]), left, True))
        break
    return packed
