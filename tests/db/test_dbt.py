"""The dbt example (examples/dbt), built as its README says: the README's ``sh`` block run as written, on an
embedded server of the test's own (``$HINDSIGHT_PG_HOME`` in a temporary folder), twice."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import psycopg
import pytest

from hindsight_pg import EmbeddedServer

pytestmark = pytest.mark.slow  # an embedded server of its own and dbt in a subprocess: about a minute

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "dbt"


def readme_commands() -> str:
    """The README's one ``sh`` block, as written."""
    (block,) = re.findall(r"```sh\n(.*?)```", (EXAMPLE / "README.md").read_text(), flags=re.DOTALL)
    return block


def test_readme_names_the_pinned_dbt():
    commands = readme_commands()
    assert ".venv-dbt/bin/dbt build --project-dir examples/dbt --profiles-dir examples/dbt" in commands
    makefile = (ROOT / "Makefile").read_text()
    assert "'dbt-core==1.10.*' 'dbt-postgres==1.9.*'" in makefile  # the pins the README explains


def test_dbt_build_as_the_readme_says(tmp_path):
    assert (ROOT / ".venv-dbt" / "bin" / "dbt").exists(), "make install creates .venv-dbt (dbt-core, dbt-postgres)"
    home, scratch = tmp_path / "home", tmp_path / "tmp"
    scratch.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("HINDSIGHT_PG_", "DBT_"))}
    env.update(HINDSIGHT_PG_HOME=str(home), TMPDIR=str(scratch))
    before = subprocess.run(["git", "status", "--porcelain", "--ignored", "examples/dbt"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    try:
        for _ in range(2):  # a second build leaves the same memories (retaining a document id replaces it)
            done = subprocess.run(["bash", "-e", "-c", readme_commands()], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
            assert "Warning" not in done.stderr  # no seed's column_types names a column it lacks ("k" ...)
            assert "Done. PASS=13 WARN=0 ERROR=0" in done.stdout  # 3 seeds, 3 models, 7 data tests
        with psycopg.connect(EmbeddedServer(home).dsn) as conn:
            overview = conn.execute(
                "SELECT bank_id, units, documents, units_per_document FROM analytics.bank_overview"
            ).fetchall()
            # six one-sentence documents, one fact each
            assert [(b, u, d, float(r)) for b, u, d, r in overview] == [("team", 6, 6, 1.0)]

            # the model's Recall@5, checked against the same recall run here question by question
            questions = conn.execute("SELECT question, gold_document_id FROM analytics.eval_questions").fetchall()
            found = 0
            for question, gold in questions:
                top = conn.execute(
                    "SELECT document_id FROM hindsight.recall('team', %s, NULL::vector, max_tokens => 4096)"
                    " WHERE rank <= 5",
                    (question,),
                ).fetchall()
                found += gold in {t[0] for t in top}
            (row,) = conn.execute(
                "SELECT bank_id, k, questions, found, recall_at_k FROM analytics.retrieval_eval"
            ).fetchall()
            assert row[:4] == ("team", 5, 4, found)
            assert float(row[4]) == round(found / 4, 3)
            assert found >= 3  # recall finds most of these
    finally:
        EmbeddedServer(home).stop()
    # dbt's compiled SQL and logs went to $TMPDIR, nothing into the checkout
    assert (scratch / "hindsight-dbt" / "target" / "manifest.json").exists()
    assert (scratch / "hindsight-dbt" / "logs" / "dbt.log").exists()
    after = subprocess.run(["git", "status", "--porcelain", "--ignored", "examples/dbt"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert after == before
