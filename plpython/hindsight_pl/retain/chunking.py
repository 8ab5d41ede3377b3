"""Splitting content into chunks of bounded size."""

from __future__ import annotations

import re

DEFAULT_MAX_CHARS = 3000

# Coarser boundaries first: paragraphs, then sentences, then words. A piece
# still too long after words (a single huge token, or unspaced CJK text) is
# cut at max_chars.
_LEVELS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\n[ \t]*\n\s*"), "\n\n"),
    (re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*"), " "),
    (re.compile(r"\s+"), " "),
]


def chunk_text(text: str, max_chars: int = DEFAULT_MAX_CHARS) -> list[str]:
    """Split ``text`` into chunks of at most ``max_chars`` characters.

    Splits on paragraph boundaries (blank lines), then sentence ends, then
    whitespace, and packs neighbouring pieces back together greedily while
    they fit, so a chunk is as long as it can be without breaking a coarser
    boundary than needed. Leading and trailing whitespace is dropped; blank
    text gives no chunks. Raises ``ValueError`` when ``max_chars < 1``.
    """
    if max_chars < 1:
        raise ValueError(f"max_chars must be >= 1, got {max_chars}")
    text = text.strip()
    return _split(text, max_chars, 0) if text else []


def _split(text: str, max_chars: int, level: int) -> list[str]:
    if len(text) <= max_chars:
        return [text]
    if level == len(_LEVELS):
        return [text[i : i + max_chars] for i in range(0, len(text), max_chars)]
    pattern, joiner = _LEVELS[level]
    chunks: list[str] = []
    current = ""
    for piece in pattern.split(text):
        piece = piece.strip()
        if not piece:
            continue
        for part in _split(piece, max_chars, level + 1):
            joined = f"{current}{joiner}{part}" if current else part
            if len(joined) <= max_chars:
                current = joined
            else:
                chunks.append(current)
                current = part
    if current:
        chunks.append(current)
    return chunks
