"""The embedded default server: a private PostgreSQL cluster under $HINDSIGHT_PG_HOME.

When no DSN is given (no ``dsn=`` and no ``HINDSIGHT_PG_DSN``), the driver and
the CLI start, or reuse, a cluster in ``$HINDSIGHT_PG_HOME`` (default
``~/.local/share/hindsight-pg``). It listens only on a unix socket in that
directory (mode 0700, so only its owner can connect), holds a database
``hindsight`` with the extension created, and keeps running between commands
until ``hindsight-pg server stop``.

PostgreSQL refuses to run as root. When the caller is root, every server
program runs inside a user namespace that maps root to the ``postgres`` user:
the server sees itself as ``postgres`` while its files stay the caller's.
A file lock serialises starts, so two processes never start two servers.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from hindsight_pl.providers import E5, READER

from ._errors import ServerError

DEFAULT_HOME = "~/.local/share/hindsight-pg"
DEFAULT_BINDIR = "/usr/lib/postgresql/15/bin"


def shared_buffers_mb() -> int:
    """The embedded cluster's ``shared_buffers`` in MB: a quarter of physical memory, within [128, 8192]."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return max(128, min(8192, total // 4 // 2**20))


PORT = 5432  # only names the socket file; nothing listens on TCP
DATABASE = "hindsight"
SUPERUSER = "postgres"
MODELS_PORT = 8081  # the model server's port: `hindsight-pg serve-models` and `server start --models` (127.0.0.1)
MODELS = (E5, READER)  # its embedding model and cross-encoder


def pg_bindir() -> Path:
    """Directory of the PostgreSQL server programs: $HINDSIGHT_PG_BINDIR or PostgreSQL 15's."""
    return Path(os.environ.get("HINDSIGHT_PG_BINDIR", DEFAULT_BINDIR))


def pg_command(program: str, *args: str) -> list[str]:
    """The argv that runs a PostgreSQL server program (``pg_ctl``, ``initdb``, ...) as a non-root user.

    For root, the program runs in a new user namespace mapping root to the
    ``postgres`` user (``unshare --user --map-user``); otherwise as is.
    Raises :class:`ServerError` when root has no ``postgres`` user or no ``unshare``.
    """
    argv = [str(pg_bindir() / program), *args]
    if os.geteuid() != 0:
        return argv
    try:
        account = pwd.getpwnam(SUPERUSER)
    except KeyError:
        raise ServerError(
            "PostgreSQL refuses to run as root and there is no 'postgres' user to run it as",
            hint="Install the postgresql-15 Debian package (it creates the user), or run as a non-root user.",
        ) from None
    unshare = shutil.which("unshare")
    if unshare is None:
        raise ServerError("PostgreSQL refuses to run as root and `unshare` (util-linux) is missing")
    return [unshare, "--user", f"--map-user={account.pw_uid}", f"--map-group={account.pw_gid}", *argv]


@dataclass(frozen=True)
class ServerStatus:
    """What ``hindsight-pg server status`` reports."""

    home: Path
    initialized: bool
    running: bool
    pid: int | None
    dsn: str


class EmbeddedServer:
    """A private PostgreSQL 15 cluster with the hindsight_pg extension, reached over a unix socket.

    ``home`` defaults to ``$HINDSIGHT_PG_HOME`` or ``~/.local/share/hindsight-pg``;
    it holds ``data/`` (the cluster), ``server.log``, ``server.lock`` and the socket.
    """

    def __init__(self, home: str | os.PathLike[str] | None = None) -> None:
        self.home = Path(home or os.environ.get("HINDSIGHT_PG_HOME") or DEFAULT_HOME).expanduser().resolve()
        self.data = self.home / "data"
        self.log = self.home / "server.log"

    @property
    def dsn(self) -> str:
        """libpq connection string of the ``hindsight`` database."""
        return psycopg.conninfo.make_conninfo(host=str(self.home), port=PORT, dbname=DATABASE, user=SUPERUSER)

    def status(self) -> ServerStatus:
        """Whether the cluster exists and is running (read from ``pg_ctl status``)."""
        initialized = (self.data / "PG_VERSION").exists()
        pid = self._running_pid() if initialized else None
        return ServerStatus(self.home, initialized, pid is not None, pid, self.dsn)

    def ensure_running(self) -> str:
        """Initialise and start the cluster if needed, create the extension, and return the DSN.

        Safe to call from several processes at once. Raises :class:`ServerError`
        with the tail of the server log when PostgreSQL fails to start.
        """
        with self._lock():
            if not (self.data / "PG_VERSION").exists():
                self._initdb()
            if self._running_pid() is None:
                self._run(
                    "pg_ctl",
                    "start",
                    "--wait",
                    "--timeout=60",
                    "-D",
                    str(self.data),
                    "-l",
                    str(self.log),
                    "-o",
                    f"-c listen_addresses='' -c unix_socket_directories='{self.home}' -p {PORT}",
                    what="start the server",
                )
            self._create_database()
            if (self.home / "models.pid").exists() and self._models_pid() is None:
                self._set_providers(None)  # the model server of start_models is gone (a reboot): models in-session
                self._stop_models()
        return self.dsn

    def start_models(self, port: int = MODELS_PORT, timeout: float = 300) -> str:
        """Start the model server beside the running cluster and point the database at it; return its URL.

        Runs ``hindsight-pg serve-models`` (multilingual-e5-small and the packaged reader, on 127.0.0.1:``port``)
        in the background, its pid in ``models.pid`` and its log in ``models.log``, waits until it answers
        ``/health``, then sets the database-wide ``embedding_provider`` and ``reranker_provider`` to it, so every
        session holds an HTTP client instead of its own copy of the models (docs/providers.md#many-short-sessions).
        A model server already started here is reused. :meth:`stop` stops it and sets the providers back; so
        does :meth:`ensure_running` when it finds the model server gone. Call :meth:`ensure_running` first.
        Raises :class:`ServerError` when the model server exits or does not answer within ``timeout`` seconds.
        """
        url = f"http://127.0.0.1:{port}"
        with self._lock():
            running = self._models_pid() is not None
            if not running or not _healthy(url):
                if running:
                    self._stop_models()
                self._spawn_models(port, url, timeout)
            self._set_providers(url)
        return url

    def models_url(self) -> str | None:
        """The URL of the model server :meth:`start_models` started, while it runs; else None."""
        pid = self._models_pid()
        if pid is None:
            return None
        return (self.home / "models.url").read_text().strip() or None

    def stop(self) -> bool:
        """Stop the server (fast shutdown), and the model server of :meth:`start_models` with the database's
        providers set back to the sessions' own models. Returns False when the cluster was not running."""
        with self._lock():
            if self._running_pid() is None:
                self._stop_models()
                return False
            if (self.home / "models.pid").exists():
                self._set_providers(None)
                self._stop_models()
            self._run("pg_ctl", "stop", "--wait", "-m", "fast", "-D", str(self.data), what="stop the server")
            return True

    # -- internals -----------------------------------------------------------------

    def _models_pid(self) -> int | None:
        """The pid in ``models.pid`` while that process lives; else None."""
        try:
            pid = int((self.home / "models.pid").read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if _alive(pid) else None

    def _spawn_models(self, port: int, url: str, timeout: float) -> None:
        embedding, reranker = MODELS
        argv = [sys.executable, "-c", "from hindsight_pg.cli import main; main()", "serve-models",
                "--host", "127.0.0.1", "--port", str(port),
                "--embedding-model", embedding, "--reranker-model", reranker]  # fmt: skip
        log = self.home / "models.log"
        with log.open("ab") as out:
            # its own session: it outlives this process, as the cluster does
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True)  # fmt: skip
        (self.home / "models.pid").write_text(f"{proc.pid}\n")
        (self.home / "models.url").write_text(f"{url}\n")
        deadline = time.monotonic() + timeout
        while not _healthy(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                self._stop_models()
                tail = "\n".join(log.read_text(errors="replace").splitlines()[-10:])
                state = f"exited with {proc.returncode}" if proc.returncode is not None else f"timed out ({timeout} s)"
                raise ServerError(
                    f"the model server on {url} {state}; its log ({log}):\n{tail}",
                    hint=f"Is port {port} taken? `hindsight-pg server start --models --models-port N`.",
                )
            time.sleep(0.2)

    def _stop_models(self) -> None:
        pid = self._models_pid()
        if pid is not None:
            os.kill(pid, signal.SIGTERM)
            for _ in range(100):  # up to 10 s, then for good
                if not _alive(pid):
                    break
                time.sleep(0.1)
            else:
                os.kill(pid, signal.SIGKILL)
        for name in ("models.pid", "models.url"):
            (self.home / name).unlink(missing_ok=True)

    def _set_providers(self, url: str | None) -> None:
        """Point the database-wide providers at the model server ``url``, or back to the sessions' own (None)."""
        embedding = {"kind": "http", "url": url, "model": MODELS[0]} if url else None
        reranker = {"kind": "http", "url": url} if url else None
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            for name, value in (("embedding_provider", embedding), ("reranker_provider", reranker)):
                conn.execute("SELECT hindsight.set_setting(%s, %s)", (name, json.dumps(value) if value else None))

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        try:
            self.home.mkdir(parents=True, exist_ok=True, mode=0o700)
            handle = open(self.home / "server.lock", "w")  # noqa: SIM115 (held for the block)
        except OSError as exc:
            raise ServerError(
                f"cannot use {self.home} as the embedded server's home: {exc.strerror}",
                hint="Set HINDSIGHT_PG_HOME to a writable directory, or HINDSIGHT_PG_DSN to a database.",
            ) from None
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _run(self, program: str, *args: str, what: str) -> str:
        argv = pg_command(program, *args)
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ServerError(f"could not {what}: {exc}") from exc
        if done.returncode != 0:
            raise ServerError(
                f"could not {what} in {self.home}: {(done.stderr or done.stdout).strip()}{self._log_tail()}"
            )
        return done.stdout

    def _running_pid(self) -> int | None:
        if not (self.data / "postmaster.pid").exists():
            return None
        done = subprocess.run(
            pg_command("pg_ctl", "status", "-D", str(self.data)), capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            return None
        first = (self.data / "postmaster.pid").read_text().split("\n", 1)[0]
        return int(first) if first.isdigit() else None

    def _initdb(self) -> None:
        self.home.chmod(0o700)
        if self.data.exists():
            shutil.rmtree(self.data)  # a half-made cluster from an interrupted initdb
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            what="initialise the cluster",
        )
        # PostgreSQL's own default (128 MB) holds neither the vectors nor the HNSW index of a bank of
        # 100,000 units (215 MB each); the usual guidance is a quarter of the memory.
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"\n# hindsight_pg: a quarter of this machine's memory\nshared_buffers = {shared_buffers_mb()}MB\n"
            )

    def _create_database(self) -> None:
        maintenance = psycopg.conninfo.make_conninfo(self.dsn, dbname="postgres")
        try:
            with psycopg.connect(maintenance, autocommit=True) as conn:
                if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone() is None:
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
            with psycopg.connect(self.dsn, autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS hindsight_pg CASCADE")
                # a newer version installed by `make install`: take the memories forward
                conn.execute(
                    "DO $$ BEGIN IF (SELECT extversion FROM pg_extension WHERE extname = 'hindsight_pg')"
                    " <> (SELECT default_version FROM pg_available_extensions WHERE name = 'hindsight_pg')"
                    " THEN ALTER EXTENSION hindsight_pg UPDATE; END IF; END $$"
                )
        except psycopg.Error as exc:
            raise ServerError(
                f"the embedded server in {self.home} is running but the extension could not be created: "
                f"{str(exc).strip()}",
                hint="Run `make install` as root in the hindsight_pg source tree.",
            ) from exc

    def _log_tail(self, lines: int = 15) -> str:
        try:
            tail = self.log.read_text(errors="replace").splitlines()[-lines:]
        except OSError:
            return ""
        return "\nserver log (" + str(self.log) + "):\n" + "\n".join(tail) if tail else ""


def _healthy(url: str) -> bool:
    """Whether a model server answers ``GET url/health`` with 200 within a second."""
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists and has not exited (a zombie, exited but not yet reaped, has)."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc: trust the signal
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
