"""A throwaway Citus cluster on this machine: a coordinator and workers, each its own PostgreSQL 15.

Every node is a cluster in a temporary directory, listening only on a unix socket in that
directory, on a port chosen free; as root the server programs run in a user namespace mapping
root to ``postgres`` (hindsight_pg._server.pg_command), like the embedded server. The
coordinator registers the workers by socket directory and port (``citus_add_node``), so the
nodes reach each other over unix sockets.

    with CitusCluster(workers=2) as cluster:
        conn = psycopg.connect(cluster.dsn())       # the coordinator's database
        cluster.worker_dsn(0)                         # a worker's

With ``password=...`` every node asks for scram-sha-256 passwords instead of trusting every
connection (pg_hba.conf ``local all all scram-sha-256``): the superuser's is ``password``, and the nodes
find the passwords of their own connections to each other (Citus's, as the calling role) in one
``.pgpass`` file that every server reads (``PGPASSFILE``); :meth:`CitusCluster.remember_password` adds a
role's line to it (docs/scale-out.md, Authentication).

``add_database(name)`` makes another database a cluster of its own on the same nodes (Citus's node
list is per database), for a test that needs an extension version of its own.

Run ``python tests/citus/_cluster.py`` to start one and keep it until Ctrl-C (prints the DSNs);
``--password PW`` starts it with password authentication.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from hindsight_pg._server import SUPERUSER, pg_command

DATABASE = "hindsight"
NODE_SETTINGS = {
    "shared_preload_libraries": "'citus'",
    "listen_addresses": "''",
    "max_connections": "200",
    "max_prepared_transactions": "200",  # two-phase commit of multi-node writes
    "fsync": "off",  # a throwaway test cluster
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "64MB",
    "wal_level": "logical",  # citus_rebalance_start moves shards with logical replication
    "log_min_messages": "warning",
    "log_line_prefix": "'%m [%p] %u@%d '",
}


class ClusterError(RuntimeError):
    """A node would not initialise or start; the message carries the tail of its log."""


def free_port() -> int:
    """A TCP port nothing on this machine listens on (the nodes name their sockets by port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Node:
    name: str
    data: Path
    port: int
    socket_dir: Path
    password: str | None = None  # the superuser's, on a cluster with password authentication

    @property
    def log(self) -> Path:
        return self.data.parent / f"{self.name}.log"

    def dsn(self, dbname: str = DATABASE, user: str = SUPERUSER, password: str | None = None) -> str:
        """A DSN of this node's database; the superuser's password goes with the superuser."""
        if password is None and user == SUPERUSER:
            password = self.password
        extra = {"password": password} if password is not None else {}
        return psycopg.conninfo.make_conninfo(
            host=str(self.socket_dir), port=self.port, dbname=dbname, user=user, **extra
        )


class CitusCluster:
    """A coordinator and ``workers`` workers with Citus and the ``hindsight`` database on each."""

    def __init__(
        self, workers: int = 2, base: str | os.PathLike[str] | None = None, password: str | None = None
    ) -> None:
        self.base = Path(base) if base else Path(tempfile.mkdtemp(prefix="hindsight-citus-"))
        self.base.chmod(0o755)
        self.sockets = self.base / "sockets"
        self.password = password
        # the nodes' own password file (PGPASSFILE of every server): the passwords Citus connects with
        self.pgpass = self.base / "pgpass"
        names = ["coordinator", *(f"worker{i + 1}" for i in range(workers))]
        self.nodes = [Node(n, self.base / n, free_port(), self.sockets, password) for n in names]
        self._started: list[Node] = []
        if password is not None:
            self.remember_password(SUPERUSER, password)

    @property
    def coordinator(self) -> Node:
        return self.nodes[0]

    @property
    def workers(self) -> list[Node]:
        return self.nodes[1:]

    def dsn(self, dbname: str = DATABASE, user: str = SUPERUSER) -> str:
        """The coordinator's DSN."""
        return self.coordinator.dsn(dbname, user)

    def worker_dsn(self, index: int, dbname: str = DATABASE) -> str:
        return self.workers[index].dsn(dbname)

    def remember_password(self, role: str, password: str) -> None:
        """Add ``role``'s password to the nodes' password file, which every node reads when it connects to
        another (libpq reads the file at each connection: no restart)."""
        with open(self.pgpass, "a") as f:
            f.write(f"*:*:*:{_pgpass_field(role)}:{_pgpass_field(password)}\n")
        self.pgpass.chmod(0o600)  # libpq ignores a password file others may read

    def start(self) -> CitusCluster:
        self.sockets.mkdir(parents=True, exist_ok=True)
        for node in self.nodes:
            self._start_node(node)
        self._register(DATABASE)
        return self

    def add_database(self, name: str, citus: bool = True) -> None:
        """Create database ``name`` on every node, with Citus in it and this cluster's nodes registered
        (:meth:`enable_citus`): a cluster of its own beside ``hindsight`` (Citus keeps its node list per
        database). ``citus=False`` leaves it a plain database on each node (a single-node database that
        becomes the coordinator's later)."""
        for node in self.nodes:
            with psycopg.connect(node.dsn("postgres"), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
        if citus:
            self.enable_citus(name)

    def enable_citus(self, name: str) -> None:
        """``CREATE EXTENSION citus`` in database ``name`` on every node, and the nodes registered in it."""
        for node in self.nodes:
            with psycopg.connect(node.dsn(name), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION citus")
        self._register(name)

    def stop_node(self, node: Node, mode: str = "fast") -> None:
        """Stop one node's server (``mode``: smart, fast or immediate, as pg_ctl); :meth:`start_node` starts
        it again with its data."""
        self._pg_ctl(node, "stop", "--wait", "-m", mode, "--timeout=30")

    def start_node(self, node: Node) -> None:
        self._pg_ctl(node, "start", "--wait", "--timeout=60", "-l", str(node.log))

    def _register(self, dbname: str) -> None:
        with psycopg.connect(self.dsn(dbname), autocommit=True) as conn:
            conn.execute("SELECT citus_set_coordinator_host(%s, %s)", (str(self.sockets), self.coordinator.port))
            for node in self.workers:
                conn.execute("SELECT citus_add_node(%s, %s)", (str(self.sockets), node.port))

    def add_worker(self) -> Node:
        """Start one more worker and add it to the cluster (shards move to it with citus_rebalance_start)."""
        name = f"worker{len(self.nodes)}"
        node = Node(name, self.base / name, free_port(), self.sockets, self.password)
        self.nodes.append(node)
        self._start_node(node)
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute("SELECT citus_add_node(%s, %s)", (str(self.sockets), node.port))
        return node

    def stop(self) -> None:
        """Stop every node (fast shutdown, then immediate) and remove the directory."""
        for node in reversed(self._started):
            try:
                self._pg_ctl(node, "stop", "--wait", "-m", "fast", "--timeout=30")
            except ClusterError:
                with contextlib.suppress(ClusterError):
                    self._pg_ctl(node, "stop", "--wait", "-m", "immediate", "--timeout=30")
        self._started.clear()
        shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> CitusCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- internals -----------------------------------------------------------------

    def _initdb(self, node: Node) -> None:
        auth = ["--auth=trust"]
        if self.password is not None:  # pg_hba.conf: scram-sha-256 for every connection
            pwfile = self.base / f"{node.name}.pw"
            pwfile.write_text(self.password + "\n")
            pwfile.chmod(0o644)  # read by initdb as the postgres user
            auth = ["--auth=scram-sha-256", f"--pwfile={pwfile}"]
        self._run(
            node,
            "initdb",
            "-D",
            str(node.data),
            "-U",
            SUPERUSER,
            *auth,
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            what="initialise",
        )
        if self.password is not None:
            pwfile.unlink()
        settings = dict(NODE_SETTINGS, port=str(node.port), unix_socket_directories=f"'{node.socket_dir}'")
        # how a node reaches itself (shard moves subscribe over it): the socket, not localhost's TCP
        settings["citus.local_hostname"] = f"'{node.socket_dir}'"
        with open(node.data / "postgresql.conf", "a") as conf:
            conf.write("\n# hindsight_pg test cluster (tests/citus/_cluster.py)\n")
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())

    def _start_node(self, node: Node) -> None:
        self._initdb(node)
        self._pg_ctl(node, "start", "--wait", "--timeout=60", "-l", str(node.log))
        self._started.append(node)
        with psycopg.connect(node.dsn("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        with psycopg.connect(node.dsn(), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION citus")

    def _pg_ctl(self, node: Node, *args: str) -> None:
        self._run(node, "pg_ctl", "-D", str(node.data), *args, what=args[0])

    def _run(self, node: Node, program: str, *args: str, what: str) -> None:
        env = dict(os.environ, LC_ALL="C.UTF-8")
        if self.password is not None:
            env["PGPASSFILE"] = str(self.pgpass)  # the server's own connections to the other nodes
        done = subprocess.run(pg_command(program, *args), capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            tail = node.log.read_text(errors="replace").splitlines()[-20:] if node.log.exists() else []
            raise ClusterError(
                f"could not {what} the {node.name} ({node.data}): {(done.stderr or done.stdout).strip()}\n"
                + "\n".join(tail)
            )


def _pgpass_field(value: str) -> str:
    """A value as a .pgpass field: backslash and colon escaped."""
    return value.replace("\\", "\\\\").replace(":", "\\:")


def worker_of(conn: psycopg.Connection[Any], bank_id: str) -> int:
    """The port of the worker holding a bank's shards (every table is colocated with banks)."""
    row = conn.execute(
        "SELECT nodeport FROM pg_catalog.pg_dist_shard_placement"
        " WHERE shardid = get_shard_id_for_distribution_column('hindsight.banks', %s::text)",
        (bank_id,),
    ).fetchone()
    assert row is not None, bank_id
    return int(row[0])


class Sent:
    """The commands a coordinator session sends to nodes while open (citus.log_remote_commands), as
    (command, port). Local execution on the coordinator is not a remote command.

        with Sent(conn) as sent:
            conn.execute("SELECT hindsight.recall_json(...)")
        sent.commands  # [("SELECT hindsight.recall_json(...)", 5433)]
    """

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn, self.commands = conn, []

    def _notice(self, diag: Any) -> None:  # a Diagnostic is valid only inside the callback
        if (diag.message_primary or "").startswith("issuing "):
            port = int(re.search(r":(\d+) connectionId", diag.message_detail or "").group(1))
            self.commands.append((diag.message_primary.removeprefix("issuing "), port))

    def __enter__(self) -> Sent:
        self.conn.add_notice_handler(self._notice)
        self.conn.execute("SET citus.log_remote_commands = on")
        self.conn.execute("SET client_min_messages = log")
        self.commands.clear()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.conn.remove_notice_handler(self._notice)
        self.conn.execute("RESET client_min_messages")
        self.conn.execute("RESET citus.log_remote_commands")


if __name__ == "__main__":
    import sys

    given = sys.argv[sys.argv.index("--password") + 1] if "--password" in sys.argv else None
    with CitusCluster(password=given) as c:
        print("coordinator:", c.dsn())
        for i in range(len(c.workers)):
            print(f"worker{i + 1}:", c.worker_dsn(i))
        print("Ctrl-C stops the cluster and removes", c.base)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
