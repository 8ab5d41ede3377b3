"""Input hygiene for memory text: cleaning and validation.

PostgreSQL text cannot hold NUL bytes and must be valid UTF-8, so content is
cleaned before it reaches the database; content with no letter or digit is
rejected because it can be neither embedded meaningfully nor searched.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from . import tokens

# Longer unit texts are refused by the database: chunk them first (the driver
# splits content into chunks of at most 3,000 characters). A tsvector holds at
# most 1 MB, so this also keeps search_vector well within its limit.
MAX_UNIT_CHARS = 100_000


class InvalidText(ValueError):
    """A text that cannot be stored as a memory. ``hint`` says what to do."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


def clean_text(text: str) -> str:
    """Strip NUL characters and replace lone UTF-16 surrogates with U+FFFD.

    Surrogate pairs that arrive as two code points (e.g. from JSON written by a
    UTF-16 program) are joined into the character they encode.
    """
    text = text.replace("\x00", "")
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def is_meaningful(text: str) -> bool:
    """True when the text holds at least one letter or digit (in any script)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in text)


def check_text(text: str | None, label: str = "text") -> None:
    """Raise :class:`InvalidText` when ``text`` cannot be a memory.

    Blank, punctuation-only, NUL-containing and over-long texts (more than
    ``MAX_UNIT_CHARS`` characters) are refused, naming ``label``.
    """
    if text is None:
        raise InvalidText(f"{label}: text is missing", "Give every memory unit a text.")
    if "\x00" in text:
        raise InvalidText(f"{label}: text contains a NUL byte", "Clean it with hindsight_pl.text.clean_text.")
    if not is_meaningful(text):
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise InvalidText(
            f"{label}: content is blank or has only punctuation: {shown!r}",
            "Retain text that has at least one letter or digit.",
        )
    if len(text) > MAX_UNIT_CHARS:
        raise InvalidText(
            f"{label}: text has {len(text):,} characters, more than the {MAX_UNIT_CHARS:,} one memory unit holds",
            "Split it into chunks first; the hindsight_pg driver chunks content at 3,000 characters.",
        )


def validate_and_count(texts: Sequence[str | None], labels: Sequence[str] | None = None) -> list[int]:
    """Check every text (see :func:`check_text`) and return their cl100k_base token counts."""
    for i, text in enumerate(texts):
        check_text(text, labels[i] if labels else f"text {i + 1}")
    return tokens.count_many(t for t in texts if t is not None)
