"""A throwaway Citus cluster on this machine: a coordinator and workers, each its own PostgreSQL 15.

Every node is a cluster in a temporary directory, listening only on a unix socket in that
directory, on a port chosen free; as root the server programs run in a user namespace mapping
root to ``postgres`` (hindsight_pg._server.pg_command), like the embedded server. The
coordinator registers the workers by socket directory and port (``citus_add_node``), so the
nodes reach each other over unix sockets.

    with CitusCluster(workers=2) as cluster:
        conn = psycopg.connect(cluster.dsn())       # the coordinator's database
        cluster.worker_dsn(0)                         # a worker's

Run ``python tests/citus/_cluster.py`` to start one and keep it until Ctrl-C (prints the DSNs).
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

    @property
    def log(self) -> Path:
        return self.data.parent / f"{self.name}.log"

    def dsn(self, dbname: str = DATABASE, user: str = SUPERUSER) -> str:
        return psycopg.conninfo.make_conninfo(host=str(self.socket_dir), port=self.port, dbname=dbname, user=user)


class CitusCluster:
    """A coordinator and ``workers`` workers with Citus and the ``hindsight`` database on each."""

    def __init__(self, workers: int = 2, base: str | os.PathLike[str] | None = None) -> None:
        self.base = Path(base) if base else Path(tempfile.mkdtemp(prefix="hindsight-citus-"))
        self.base.chmod(0o755)
        self.sockets = self.base / "sockets"
        names = ["coordinator", *(f"worker{i + 1}" for i in range(workers))]
        self.nodes = [Node(n, self.base / n, free_port(), self.sockets) for n in names]
        self._started: list[Node] = []

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

    def start(self) -> CitusCluster:
        self.sockets.mkdir(parents=True, exist_ok=True)
        for node in self.nodes:
            self._start_node(node)
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute("SELECT citus_set_coordinator_host(%s, %s)", (str(self.sockets), self.coordinator.port))
            for node in self.workers:
                conn.execute("SELECT citus_add_node(%s, %s)", (str(self.sockets), node.port))
        return self

    def add_worker(self) -> Node:
        """Start one more worker and add it to the cluster (shards move to it with citus_rebalance_start)."""
        name = f"worker{len(self.nodes)}"
        node = Node(name, self.base / name, free_port(), self.sockets)
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
        self._run(
            node,
            "initdb",
            "-D",
            str(node.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            what="initialise",
        )
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
        done = subprocess.run(pg_command(program, *args), capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            tail = node.log.read_text(errors="replace").splitlines()[-20:] if node.log.exists() else []
            raise ClusterError(
                f"could not {what} the {node.name} ({node.data}): {(done.stderr or done.stdout).strip()}\n"
                + "\n".join(tail)
            )


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
    with CitusCluster() as c:
        print("coordinator:", c.dsn())
        for i in range(len(c.workers)):
            print(f"worker{i + 1}:", c.worker_dsn(i))
        print("Ctrl-C stops the cluster and removes", c.base)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
