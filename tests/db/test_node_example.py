"""The Node example (examples/node): ``npm ci`` into a copy outside the checkout, then ``node example.js`` against
the test's database, and what it prints checked against the database itself.

Node and npm come from Debian (``make node-packages``, which ``make test`` runs); without them the test fails and
says so rather than being skipped."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "node"
BANK = "node-test"


@pytest.fixture(scope="module")
def installed_example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of examples/node with its locked packages installed (``npm ci``): the folder."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found: `make node-packages` (run by `make test`) installs Debian's "
                    "nodejs and npm")  # fmt: skip
    folder = tmp_path_factory.mktemp("node-example")
    for name in ("package.json", "package-lock.json", "example.js"):
        shutil.copy(EXAMPLE / name, folder / name)
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=folder, capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return folder


def test_the_lock_pins_what_package_json_names():
    """package.json pins pg exactly, and the lock holds that version."""
    package = json.loads((EXAMPLE / "package.json").read_text())
    lock = json.loads((EXAMPLE / "package-lock.json").read_text())
    assert package["dependencies"] == {"pg": "8.23.1"}
    assert lock["packages"][""]["dependencies"] == package["dependencies"]
    assert lock["packages"]["node_modules/pg"]["version"] == "8.23.1"


def test_node_example_creates_retains_recalls_and_embeds(db, installed_example):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PG", "DATABASE_URL"))}
    env.update(PGHOST=db.info.host, PGPORT=str(db.info.port), PGUSER=db.info.user, PGDATABASE=db.info.dbname)
    before = subprocess.run(["git", "status", "--porcelain", "--ignored", "examples/node"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    done = subprocess.run(["node", "example.js", BANK], cwd=installed_example, env=env, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()

    assert lines[0] == f"bank: {BANK}"
    assert lines[1:4] == ["retained: standup -> 1 unit(s)", "retained: billing -> 1 unit(s)",
                          "retained: editor -> 1 unit(s)"]  # fmt: skip
    stored = db.execute(
        "SELECT document_id, text FROM hindsight.memory_units WHERE bank_id = %s ORDER BY document_id", (BANK,)
    ).fetchall()
    assert [d for d, _ in stored] == ["billing", "editor", "standup"]

    # recall: three ranked lines, the standup fact first, as SQL recalls it here
    assert lines[4] == "recall: What time is the standup?"
    recalled = [re.fullmatch(r"  (\d)\. (.*) \(score (\d\.\d{3})\)", line) for line in lines[5:8]]
    assert all(recalled), lines[5:8]
    assert [m.group(1) for m in recalled] == ["1", "2", "3"]  # type: ignore[union-attr]
    standup = dict(stored)["standup"]
    assert "9:30" in standup
    assert recalled[0].group(2) == standup  # type: ignore[union-attr]
    sql_first = db.execute(
        "SELECT text, score FROM hindsight.recall(%s, 'What time is the standup?', max_tokens => 1024) WHERE rank = 1",
        (BANK,),
    ).fetchone()
    assert sql_first is not None and sql_first[0] == standup
    assert float(recalled[0].group(3)) == pytest.approx(sql_first[1], abs=0.0015)  # type: ignore[union-attr]

    # embed: the vector[] parsed through its text form is the database's 384-number unit vector
    embedded = re.fullmatch(r"embed: (\d+) dimensions, norm (\d\.\d{3}), first \[(.*)\]", lines[8])
    assert embedded, lines[8]
    assert embedded.group(1) == "384" and embedded.group(2) == "1.000"
    (vectors,) = db.execute(
        "SELECT hindsight.embed(%s, ARRAY['What time is the standup?'], 'query')", (BANK,)
    ).fetchone()  # type: ignore[misc]
    expected = np.asarray(vectors[0].to_numpy())
    assert expected.shape == (384,)
    printed = [float(x) for x in embedded.group(3).split(", ")]
    assert printed == pytest.approx(expected[:3].tolist(), abs=2e-6)
    assert any(abs(x) > 1e-3 for x in printed)  # real numbers, not zeros

    # the vector sent back as recall's query_embedding finds the same first fact
    assert lines[9] == f"recall with that embedding: 1. {standup}"
    assert len(lines) == 10

    after = subprocess.run(["git", "status", "--porcelain", "--ignored", "examples/node"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert after == before  # nothing (node_modules) written into the checkout
