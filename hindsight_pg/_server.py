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
import os
import pwd
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

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
        return self.dsn

    def stop(self) -> bool:
        """Stop the server (fast shutdown). Returns False when it was not running."""
        with self._lock():
            if self._running_pid() is None:
                return False
            self._run("pg_ctl", "stop", "--wait", "-m", "fast", "-D", str(self.data), what="stop the server")
            return True

    # -- internals -----------------------------------------------------------------

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
