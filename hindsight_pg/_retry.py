"""The driver's errors and retries: the database's and the pipeline's errors as :class:`HindsightError` classes,
and the decorators that run a client's call again after a conflict with another session, a Citus worker's failure
or a bank's config that went stale (docs/reliability.md)."""

from __future__ import annotations

import contextlib
import functools
import random
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import psycopg

from hindsight_pl import errors
from hindsight_pl.pipeline.banks import CONFIG_CHANGED

from ._errors import HindsightError, InvalidInputError, WorkerError, from_database, from_pipeline

if TYPE_CHECKING:
    from ._client import Client

T = TypeVar("T")


@contextlib.contextmanager
def _errors() -> Iterator[None]:
    """The database's errors (psycopg) and the pipeline's (hindsight_pl, a model's failure among them) as the
    driver's :class:`HindsightError` classes; a ValueError of the pipeline as :class:`InvalidInputError`."""
    try:
        yield
    except HindsightError:
        raise
    except psycopg.Error as exc:
        raise from_database(exc) from exc
    except errors.HindsightPlError as exc:
        raise from_pipeline(exc) from exc
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from exc


# Transactions that fail because of another session (serialization failure 40001,
# deadlock 40P01) are run again, at most this many times in all, after a random
# pause that grows with each attempt (docs/reliability.md).
RETRY_ATTEMPTS = 5
RETRY_SQLSTATES = frozenset({"40001", "40P01"})


def _config_changed(self: Client, exc: HindsightError, outer: bool, again: bool) -> bool:
    """Whether a call that raised ``exc`` runs again because a kept config went stale: the kept configs are
    dropped either way, so the caller's own retry (inside a transaction of its own, or the second time) reads
    them afresh."""
    if exc.sqlstate != CONFIG_CHANGED:
        return False
    self._configs.clear()
    return not outer and again


def _retried(method: Callable[..., T]) -> Callable[..., T]:
    """Run a client method again when its transaction failed with 40001 or 40P01, up to
    ``RETRY_ATTEMPTS`` times in all, sleeping ``uniform(0, 0.05 * 2**attempt)`` seconds between
    attempts, and once at once when a bank's kept config went stale (HS412). Only when the client is not inside a
    transaction of the caller's own (which the failure has aborted, so the caller must retry it); the last error is
    raised as it came."""

    @functools.wraps(method)
    def run(self: Client, *args: Any, **kwargs: Any) -> T:
        # a one-shot iterator (retain_batch's items) must be there for a second attempt too
        args = tuple(list(a) if isinstance(a, Iterator) else a for a in args)
        kwargs = {k: list(v) if isinstance(v, Iterator) else v for k, v in kwargs.items()}
        stale = False
        for attempt in range(1, RETRY_ATTEMPTS + 1):
            outer = self.conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE
            try:
                return method(self, *args, **kwargs)
            except HindsightError as exc:
                if _config_changed(self, exc, outer, again=not stale):
                    stale = True
                    continue
                if outer or exc.sqlstate not in RETRY_SQLSTATES or attempt == RETRY_ATTEMPTS:
                    raise
                self.retries += 1
                time.sleep(random.uniform(0, 0.05 * 2**attempt))
        raise AssertionError("unreachable")

    return run


# A read that failed because a Citus worker did (WorkerError: not reachable, lost mid-call) is run again,
# at most this many times in all, WORKER_RETRY_PAUSE seconds times the attempt apart: a worker that
# restarts or fails over is back within them; one that stays down raises the last WorkerError.
WORKER_RETRY_ATTEMPTS = 3
WORKER_RETRY_PAUSE = 0.5


def _read_retried(method: Callable[..., T]) -> Callable[..., T]:
    """Run a client method that only reads again when it raised :class:`WorkerError`, up to
    ``WORKER_RETRY_ATTEMPTS`` times in all (counted in ``Client.retries``), and once at once when a bank's kept
    config went stale (HS412); not inside a transaction of the caller's own (which the failure has aborted)."""

    @functools.wraps(method)
    def run(self: Client, *args: Any, **kwargs: Any) -> T:
        stale = False
        for attempt in range(1, WORKER_RETRY_ATTEMPTS + 1):
            outer = self.conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE
            try:
                return method(self, *args, **kwargs)
            except WorkerError:
                if outer or attempt == WORKER_RETRY_ATTEMPTS:
                    raise
                self.retries += 1
                time.sleep(WORKER_RETRY_PAUSE * attempt)
            except HindsightError as exc:
                if not _config_changed(self, exc, outer, again=not stale):
                    raise
                stale = True
        raise AssertionError("unreachable")

    return run
