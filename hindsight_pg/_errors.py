"""The exception hierarchy of hindsight_pg.

Every error the driver raises is a :class:`HindsightError`. Errors raised by
the extension's SQL functions carry a SQLSTATE that selects the subclass:

=========  ==========================
SQLSTATE   exception
=========  ==========================
HS404      :class:`BankNotFoundError`
22xxx      :class:`InvalidInputError`
23505      :class:`BankExistsError` (from ``create_bank``)
HS502      :class:`ProviderError` (an in-database model provider failed)
HS503      :class:`ExtractionError` (an in-database language model call failed)
=========  ==========================
"""

from __future__ import annotations

import re

import psycopg

from hindsight_pl import llm, providers

# PL/Python puts its exception class before an error's message ("plpy.Error: ...",
# "spiexceptions.InsufficientPrivilege: ..."); hindsight._raise removes the same in SQL.
PL_PYTHON_PREFIX = re.compile(r"^(plpy\.\w*Error|spiexceptions\.\w+): ")


class HindsightError(Exception):
    """Base class of every hindsight_pg error. ``sqlstate`` is set when the database raised it."""

    def __init__(self, message: str, *, sqlstate: str | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate
        self.hint = hint

    def __str__(self) -> str:
        text = super().__str__()
        return f"{text} (hint: {self.hint})" if self.hint else text


class BankNotFoundError(HindsightError):
    """The bank does not exist. The message names it."""


class BankExistsError(HindsightError):
    """``create_bank`` was asked to create a bank that already exists."""


class InvalidInputError(HindsightError, ValueError):
    """An argument or a piece of content was refused; nothing was written."""


class ServerError(HindsightError):
    """The embedded PostgreSQL server could not be initialised, started or stopped."""


class ExtractionError(HindsightError, llm.LLMError):
    """A language model call failed (fact extraction, observation writing, reflect): the endpoint erred
    or answered off-schema. Nothing was written."""


class ProviderError(HindsightError, providers.ProviderError):
    """A model provider (embedding model, cross-encoder, model server) failed; the message names it."""


class ExtensionError(HindsightError):
    """The hindsight_pg extension (or its in-database Python) is missing or of the wrong version."""


def from_database(exc: psycopg.Error) -> HindsightError:
    """Translate a psycopg error raised by the extension into the matching :class:`HindsightError`."""
    diag = exc.diag
    sqlstate = exc.sqlstate or ""
    message = diag.message_primary or str(exc).strip()
    message = PL_PYTHON_PREFIX.sub("", message)
    hint = diag.message_hint
    cls: type[HindsightError]
    if sqlstate == "HS404":
        cls = BankNotFoundError
    elif sqlstate == "23505" and "bank" in message:
        cls = BankExistsError
    elif sqlstate.startswith("22"):
        cls = InvalidInputError
    elif sqlstate == "HS502":
        cls = ProviderError
    elif sqlstate == "HS503":
        cls = ExtractionError
    elif sqlstate in ("58P01", "0A000", "42883", "3F000"):
        cls = ExtensionError
    else:
        cls = HindsightError
    # the database's hints speak SQL; say the same in the driver's words
    if cls is BankNotFoundError:
        hint = "Create it first: client.create_bank(bank_id), or hindsight-pg config BANK --create."
    elif cls is BankExistsError:
        hint = "Pass exist_ok=True to reuse it."
    return cls(message, sqlstate=sqlstate or None, hint=hint)
