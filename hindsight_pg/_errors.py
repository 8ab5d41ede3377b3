"""The exception hierarchy of hindsight_pg.

Every error the driver raises is a :class:`HindsightError`. Errors raised by
the extension's SQL functions carry a SQLSTATE that selects the subclass:

=========  ==========================
SQLSTATE   exception
=========  ==========================
HS404      :class:`BankNotFoundError`
P0002      :class:`MemoryNotFoundError` (``update_memory`` of a memory the bank does not hold)
22xxx      :class:`InvalidInputError`
54000      :class:`LimitExceededError` (an input past a limit of ``hindsight.limits()``)
23505      :class:`BankExistsError` (from ``create_bank``, or a row of hindsight.banks written twice)
HS409      :class:`EmbeddingModelError` (the bank's vectors are another model's)
HS412      :class:`HindsightError` (a bank's config changed since the client kept it; the client reads it again and
           runs the call again, except inside a transaction of the caller's own)
HS425      :class:`HindsightError` (reembed_finish while a unit lacks its new vector; ``Client.reembed`` retries)
HS502      :class:`ProviderError` (an in-database model provider failed)
HS503      :class:`ExtractionError` (an in-database language model call failed)
58P01      :class:`ExtensionError` (also 0A000, 42883, 3F000 when the extension itself raised them)
0A000      :class:`NotSupportedError` (PostgreSQL or Citus cannot do this here)
08xxx      :class:`WorkerError` when the server reported it (it lost a connection of its own: a Citus worker),
           also Citus's XX000 of a commit that failed on a worker
(none)     :class:`ConnectionLostError` (the connection broke: server stopped, backend terminated)
=========  ==========================

A class is chosen by the SQLSTATE and the error's fields (severity: whether the server reported it;
the source file that raised it; the table of a unique violation), never by the message's words.
"""

from __future__ import annotations

import re

import psycopg

from hindsight_pl import errors, limits

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


class MemoryNotFoundError(HindsightError, LookupError):
    """The bank holds no memory of that id (never had one, or it was deleted). The message names both."""


class BankExistsError(HindsightError):
    """``create_bank`` was asked to create a bank that already exists."""


class InvalidInputError(HindsightError, ValueError):
    """An argument or a piece of content was refused; nothing was written."""


class LimitExceededError(InvalidInputError, limits.LimitError):
    """An input is larger than one of the limits every interface shares (``hindsight_pl.limits.LIMITS``, SQL
    ``hindsight.limits()``; docs/reliability.md, Bounded work): a query over 2,000 characters, content over
    1,000,000, more than 10,000 items, ... The message names the limit; nothing was done (SQLSTATE 54000)."""


class ServerError(HindsightError):
    """The embedded PostgreSQL server could not be initialised, started or stopped."""


class EmbeddingModelError(HindsightError):
    """The bank's vectors are made with another model than the embedder at hand (a query embedded with it would
    be compared with vectors of another space). The message names both; ``hindsight-pg reembed`` moves a bank to
    another model."""


class ExtractionError(HindsightError, errors.LLMError):
    """A language model call failed (fact extraction, observation writing, reflect): the endpoint erred
    or answered off-schema. Nothing was written."""


class ProviderError(HindsightError, errors.ProviderError):
    """A model provider (embedding model, cross-encoder, model server) failed; the message names it."""


class ConnectionLostError(HindsightError):
    """The connection to the database broke during a call (the server stopped or restarted, or the
    backend was terminated). The call's transaction was rolled back by the server: nothing of it was
    kept. Connect again and retry."""


class ExtensionError(HindsightError):
    """The hindsight_pg extension (or its in-database Python) is missing or of the wrong version."""


class ExtensionVersionError(ExtensionError):
    """The database's hindsight_pg extension is another version than this driver's: ``installed`` and
    ``driver`` (version strings). An older extension is updated with ``ALTER EXTENSION hindsight_pg
    UPDATE``; a newer one needs this driver upgraded (the message says which)."""

    def __init__(self, installed: str, driver: str) -> None:
        older = _version_key(installed) < _version_key(driver)
        if older:
            message = f"the database's hindsight_pg extension is {installed}, older than this driver ({driver})"
            hint = "Run ALTER EXTENSION hindsight_pg UPDATE; as a superuser (docs/integrations.md, Upgrades)."
        else:
            message = f"the database's hindsight_pg extension is {installed}, newer than this driver ({driver})"
            hint = f"Upgrade the driver to hindsight_pg {installed} (pip install 'hindsight-pg=={installed}')."
        super().__init__(message, hint=hint)
        self.installed, self.driver = installed, driver


def _version_key(version: str) -> tuple[int, ...]:
    """``"0.10.2"`` as ``(0, 10, 2)``, so versions compare by number; a part that is not a number counts 0."""
    return tuple(int(part) if part.isdigit() else 0 for part in version.split("."))


class NotSupportedError(HindsightError):
    """PostgreSQL or Citus cannot do this in this setting (SQLSTATE 0A000, feature_not_supported, raised by the
    server, not by the extension), e.g. Citus's ``COPY FROM not supported with row-level security``. Nothing of
    the call was kept."""


class WorkerError(HindsightError):
    """A Citus worker failed during the call while the client's own connection to the coordinator is fine: the
    coordinator could not reach the node holding the data, lost it mid-call, or could not commit there.
    ``sqlstate`` is the database's (08006, or XX000 for a failed commit); ``node`` is the worker as
    ``host:port`` when the database named it, else None. A read (``recall``) is run again by the driver
    (``WORKER_RETRY_ATTEMPTS``); a write is not: a write raised at commit may have been kept on some
    nodes (Citus recovers its two-phase commits), so look before writing it again."""

    def __init__(
        self, message: str, *, sqlstate: str | None = None, hint: str | None = None, node: str | None = None
    ) -> None:
        super().__init__(message, sqlstate=sqlstate, hint=hint)
        self.node = node


def from_pipeline(exc: errors.HindsightPlError) -> HindsightError:
    """An error of hindsight_pl (raised in this process) as the matching :class:`HindsightError`."""
    if isinstance(exc, HindsightError):
        return exc
    cls: type[HindsightError] = HindsightError
    if isinstance(exc, limits.LimitError):
        cls = LimitExceededError
    elif isinstance(exc, errors.InputError):
        cls = InvalidInputError
    elif isinstance(exc, errors.LLMError):
        cls = ExtractionError
    elif isinstance(exc, errors.ProviderError):
        cls = ProviderError
    return cls(str(exc), hint=exc.hint)


# Citus's source files that report a commit that failed on another node as XX000 (the error's source_file
# field, Citus 13); not remote_commands.c, which also relays a worker's own errors with their SQLSTATE
CITUS_COMMIT_SOURCES = frozenset({"placement_connection.c", "remote_transaction.c", "transaction_management.c"})
# the node in Citus's connection messages: "connection to the remote node user@host:port failed ..."
CITUS_NODE = re.compile(r"remote node (?:[^@\s]+@)?(\S+:\d+)")
# where the extension's own RAISE comes from: PL/pgSQL (hindsight._raise too) and PL/Python
EXTENSION_SOURCES = frozenset({"pl_exec.c", "plpy_elog.c"})


def _worker_failure(exc: psycopg.Error) -> bool:
    """Whether the server reported that a connection of its own to another node failed (08xxx from the
    server, not from the client's libpq), or Citus that a commit on a worker failed (XX000 from Citus's
    transaction files). Decided by the SQLSTATE, the severity and the source file."""
    diag = exc.diag
    # no severity: the client's libpq said it; FATAL or PANIC: the server ended the client's own session
    if (diag.severity_nonlocalized or diag.severity) != "ERROR":
        return False
    sqlstate = exc.sqlstate or ""
    if sqlstate.startswith("08"):
        return True
    return sqlstate == "XX000" and (diag.source_file or "") in CITUS_COMMIT_SOURCES


def _worker_error(exc: psycopg.Error, message: str) -> WorkerError:
    found = CITUS_NODE.search(message)
    node = found.group(1) if found else None
    where = f"worker {node}" if node else "a worker node"
    return WorkerError(
        f"{where} failed during this call: {message}",
        sqlstate=exc.sqlstate,
        node=node,
        hint="The connection to the coordinator is fine; the worker holding the data is down, restarting or "
        "unreachable. A read is retried by the driver; see docs/scale-out.md (Errors from the cluster).",
    )


def from_database(exc: psycopg.Error) -> HindsightError:
    """Translate a psycopg error raised by the extension into the matching :class:`HindsightError`."""
    if _worker_failure(exc):
        message = PL_PYTHON_PREFIX.sub("", exc.diag.message_primary or str(exc).strip())
        return _worker_error(exc, message)
    if isinstance(exc, psycopg.OperationalError) and (exc.sqlstate is None or exc.sqlstate.startswith(("08", "57P"))):
        # no SQLSTATE (the server did not answer), a connection exception (08), or the server ending the
        # session (57P01 terminated, 57P02 crash of another backend, 57P03 starting up or shutting down)
        return ConnectionLostError(
            f"lost the connection to the database: {str(exc).strip().splitlines()[0]}; the transaction was rolled "
            "back, nothing of this call was kept",
            hint="The server stopped or the backend was terminated. Connect again (hindsight_pg.connect) and retry.",
        )
    if isinstance(exc, psycopg.DataError) and exc.sqlstate is None:
        # refused by psycopg before it reached the server, e.g. a NUL character, which PostgreSQL cannot hold
        return InvalidInputError(str(exc).strip().splitlines()[0], hint="Remove NUL (0x00) characters.")
    diag = exc.diag
    sqlstate = exc.sqlstate or ""
    message = diag.message_primary or str(exc).strip()
    message = PL_PYTHON_PREFIX.sub("", message)
    hint = diag.message_hint
    cls: type[HindsightError]
    if sqlstate == "HS404":
        cls = BankNotFoundError
    elif sqlstate == "P0002":
        cls = MemoryNotFoundError
    elif sqlstate == "23505" and diag.table_name == "banks" and diag.schema_name == "hindsight":
        cls = BankExistsError
    elif sqlstate.startswith("22"):
        cls = InvalidInputError
    elif sqlstate == "54000":
        cls = LimitExceededError
    elif sqlstate == "HS409":
        cls = EmbeddingModelError
    elif sqlstate == "HS502":
        cls = ProviderError
    elif sqlstate == "HS503":
        cls = ExtractionError
    elif sqlstate == "0A000" and (diag.source_file or "") not in EXTENSION_SOURCES:
        cls = NotSupportedError  # the server's (or Citus's) feature_not_supported, not the extension's own
    elif sqlstate in ("58P01", "0A000", "42883", "3F000"):
        cls = ExtensionError
    else:
        cls = HindsightError
    # the database's hints speak SQL; say the same in the driver's words
    if cls is BankNotFoundError:
        hint = "Create it first: client.create_bank(bank_id), or hindsight-pg config BANK --create."
    elif cls is MemoryNotFoundError:
        hint = "Recall gives each memory's id (RecallResult.id); a deleted memory is gone."
    elif cls is BankExistsError:
        hint = "Pass exist_ok=True to reuse it."
    return cls(message, sqlstate=sqlstate or None, hint=hint)
