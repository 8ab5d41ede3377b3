"""Every ```sql block of README.md and docs/*.md runs as written against a database that holds the demo bank
(retained as ``make demo`` retains it: hindsight_pg/data/team_chat.json into bank 'demo'), each in a transaction
rolled back. The blocks that cannot run are listed in SKIPPED with the reason; a listed block that no longer exists
fails, so the list stays accurate."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

DEMO_DAY = "2025-12-19"  # the last day of hindsight_pg/data/team_chat.json, which the demo asks as of
ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```sql\n(.*?)^```", re.MULTILINE | re.DOTALL)

# (file, text the block holds) -> why it cannot run against the demo bank alone
SKIPPED: dict[tuple[str, str], str] = {
    ("docs/observations.md", "SELECT * FROM hindsight.consolidate('ana');"): (
        "bank 'ana' and a placeholder observation id ('1f0c...')"
    ),
    ("docs/providers.md", "SELECT rank, text, score FROM hindsight.recall('support',"): (
        "bank 'support', which the block above creates"
    ),
    ("docs/recall.md", "hindsight.recall_candidates('alice', 'Who leads Falcon?', :'q'),"): (
        "a psql variable (:'q', the query's embedding) and bank 'alice'"
    ),
    ("docs/recall.md", "ORDER BY u.embedding <=> $query LIMIT $recall_budget"): (
        "the semantic arm's query as a formula, with placeholders ($query, <types>), not SQL to run"
    ),
    ("docs/reflect.md", "FROM hindsight.reflect('ana', 'What pet does Ana have?', budget => 'low');"): (
        "bank 'ana' and an LLM endpoint"
    ),
    ("docs/scale-out.md", "SELECT citus_add_node('worker-3', 5432);"): "Citus only (a coordinator and workers)",
    ("docs/scale-out.md", "SELECT p.nodename, p.nodeport FROM pg_dist_shard_placement p"): "Citus only",
    ("docs/scale-out.md", "INSERT INTO pg_dist_authinfo (nodeid, rolename, authinfo)"): "Citus only",
    ("docs/security.md", "SELECT * FROM hindsight.recall('alice-assistant', 'What did I plan for Friday?', $1);"): (
        "a bind parameter ($1, the application's query embedding) and a password placeholder"
    ),
}


@dataclass(frozen=True)
class Block:
    file: str  # relative to the repository root
    line: int  # 1-based line of the opening fence
    sql: str

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def sql_blocks() -> list[Block]:
    """The ```sql blocks of README.md and docs/*.md, in file order."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    blocks = []
    for path in files:
        text = path.read_text()
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            blocks.append(Block(str(path.relative_to(ROOT)), line, match.group(1)))
    return blocks


def skip_reason(block: Block) -> str | None:
    for (file, held), reason in SKIPPED.items():
        if file == block.file and held in block.sql:
            return reason
    return None


def test_the_skip_list_names_existing_blocks_once():
    blocks = sql_blocks()
    assert len(blocks) >= 15, [b.id for b in blocks]
    for file, held in SKIPPED:
        holders = [b.id for b in blocks if b.file == file and held in b.sql]
        assert len(holders) == 1, f"skip-list entry {file}: {held!r} matches {holders or 'no block'}"


def test_the_readme_block_is_not_skipped():
    readme = [b for b in sql_blocks() if b.file == "README.md"]
    assert readme and all(skip_reason(b) is None for b in readme)


def test_recall_against_the_demo_bank_asks_as_of_the_demo():
    """The demo asks as of its conversation's last day (``hindsight-pg demo``); a recall of the docs that asks as
    of today disagrees with it and gives every demo memory the same small recency boost."""
    for block in sql_blocks():
        if skip_reason(block) is None and "'demo'" in block.sql:
            calls = len(re.findall(r"hindsight\.recall(?:_json)?\(", block.sql))
            assert block.sql.count(f"query_timestamp => '{DEMO_DAY}'") >= calls, block.id


def test_every_sql_block_runs_against_the_demo_bank(db, demo):
    (last,) = db.execute("SELECT max(mentioned_at) FROM hindsight.memory_units WHERE bank_id = 'demo'").fetchone()
    assert f"{last:%Y-%m-%d}" == DEMO_DAY  # the day the demo asks as of
    runnable = [b for b in sql_blocks() if skip_reason(b) is None]
    assert len(runnable) >= 8, [b.id for b in runnable]
    failures = []
    for block in runnable:
        try:
            with db.transaction(force_rollback=True):
                db.execute("SET LOCAL statement_timeout = '120s'")
                db.execute(block.sql)  # no parameters: every statement of the block, as psql sends it
        except psycopg.Error as error:
            failures.append(f"{block.id}: {type(error).__name__}: {str(error).splitlines()[0]}")
    assert not failures, "\n".join(failures)
    # the README's recall answers from the demo bank, as of the demo's date
    rows = db.execute(
        "SELECT text, relevance FROM hindsight.recall('demo', 'billing database migration', max_tokens => 100,"
        " query_timestamp => '2025-12-19') ORDER BY rank"
    ).fetchall()
    assert len(rows) >= 1 and all("billing" in text for text, _ in rows)
    # a spare budget is not filled with what is plainly unrelated (a one-word message, relevance 0.0002, was)
    assert min(relevance for _, relevance in rows) >= 0.001
