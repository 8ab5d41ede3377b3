"""Input hygiene for memory text: cleaning and validation.

PostgreSQL text cannot hold NUL bytes and must be valid UTF-8, so content is
cleaned before it reaches the database; content with no letter or digit is
rejected because it can be neither embedded meaningfully nor searched.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from . import tokens
from .errors import InputError


class InvalidText(InputError):
    """A text that cannot be stored as a memory. ``hint`` says what to do."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message, hint=hint)


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


def latin_script(text: str) -> bool:
    """True when every letter of ``text`` is a Latin one (English, French, German, ...; also a text without
    letters): what a reranker trained on English reads. Chinese, Japanese, Cyrillic, Greek, Arabic, ... are not."""
    return all(not ch.isalpha() or ch.isascii() or unicodedata.name(ch, "").startswith("LATIN") for ch in set(text))


def check_text(text: str | None, label: str = "text") -> None:
    """Raise :class:`InvalidText` when ``text`` cannot be a memory.

    Blank, punctuation-only and NUL-containing texts are refused, naming ``label``. (Their length
    is bounded before: ``unit_chars`` of :mod:`hindsight_pl.limits`, checked by ``hindsight.retain``.)
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


def validate_and_count(texts: Sequence[str | None], labels: Sequence[str] | None = None) -> list[int]:
    """Check every text (see :func:`check_text`) and return their cl100k_base token counts."""
    for i, text in enumerate(texts):
        check_text(text, labels[i] if labels else f"text {i + 1}")
    return tokens.count_many(t for t in texts if t is not None)
