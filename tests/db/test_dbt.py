"""The dbt example (examples/dbt) built against the test database."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.fresh_database]  # dbt builds its models in the database

ROOT = Path(__file__).resolve().parents[2]
DBT = ROOT / ".venv-dbt" / "bin" / "dbt"

DOCUMENTS = {
    "falcon-lead": "Priya is the tech lead of Project Falcon.",
    "billing-done": "The billing database migration finished on March 14.",
    "lena-orion": "Lena works on Orion, the warehouse robot.",
    "tom-climbing": "Tom goes bouldering on Saturdays to relax.",
    "lunch": "The cafeteria serves soup on Mondays.",
    "plants": "The office plants need water twice a week.",
}


def test_dbt_build(client, db, tmp_path):
    assert DBT.exists(), "make install creates .venv-dbt with dbt-core and dbt-postgres"
    client.create_bank("team")
    client.retain_batch("team", [{"content": text, "document_id": doc} for doc, text in DOCUMENTS.items()])
    info = db.info
    env = {
        **os.environ, "HINDSIGHT_PG_HOST": info.host, "HINDSIGHT_PG_PORT": str(info.port),
        "HINDSIGHT_PG_USER": info.user, "HINDSIGHT_PG_DATABASE": info.dbname,
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
    }  # fmt: skip
    project = ROOT / "examples" / "dbt"
    done = subprocess.run(
        [str(DBT), "build", "--project-dir", str(project), "--profiles-dir", str(project),
         "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs")],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]

    overview = db.execute(
        "SELECT bank_id, units, documents, units_per_document FROM analytics.bank_overview"
    ).fetchall()
    assert [(b, u, d, float(r)) for b, u, d, r in overview] == [("team", 6, 6, 1.0)]

    # the model's Recall@5, checked against the same recall run here question by question
    questions = db.execute("SELECT question, gold_document_id FROM analytics.eval_questions").fetchall()
    found = 0
    for question, gold in questions:
        top = db.execute(
            "SELECT document_id FROM hindsight.recall('team', %s, NULL::vector, max_tokens => 4096) WHERE rank <= 5",
            (question,),
        ).fetchall()
        found += gold in {t[0] for t in top}
    (row,) = db.execute("SELECT bank_id, k, questions, found, recall_at_k FROM analytics.retrieval_eval").fetchall()
    assert row[:4] == ("team", 5, 4, found)
    assert float(row[4]) == round(found / 4, 3)
    assert found >= 3  # keyword recall alone finds most of these
