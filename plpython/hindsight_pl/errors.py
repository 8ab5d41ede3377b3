"""The errors hindsight_pl raises, each with the SQLSTATE a SQL function raises it as.

=====================  ========  =========================================================
class                  SQLSTATE  raised when
=====================  ========  =========================================================
:class:`InputError`    22023     an argument or a piece of content is refused
:class:`ProviderError` HS502     an embedding model, cross-encoder or model server failed
:class:`LLMError`      HS503     a language model call failed
=====================  ========  =========================================================

Inside the database, :func:`hindsight_pl.pipeline.in_database.raised` turns one into
``plpy.error(message, sqlstate=..., hint=...)``; the driver turns it into its own class
(``hindsight_pg._errors``: InvalidInputError, ProviderError, ExtractionError).
"""

from __future__ import annotations


class HindsightPlError(Exception):
    """Base class: a message, the ``sqlstate`` SQL raises it with, and a ``hint`` (or None) on what to do."""

    sqlstate: str | None = "XX000"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class InputError(HindsightPlError, ValueError):
    """An argument or a piece of content was refused; nothing was written (SQLSTATE 22023)."""

    sqlstate: str | None = "22023"


class ProviderError(HindsightPlError):
    """A model provider could not be configured or did not answer; the message names the model or URL
    (SQLSTATE HS502)."""

    sqlstate: str | None = "HS502"


class LLMError(HindsightPlError):
    """A language model call failed: the endpoint erred, or answered twice with something that is not
    JSON of the schema, or wrote nothing usable. The message names the model; ``hint`` says what to do
    (SQLSTATE HS503)."""

    sqlstate: str | None = "HS503"
