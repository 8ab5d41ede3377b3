"""The driver's side of the boundary: the SQL it sends names only public objects of schema hindsight
(no ``hindsight._name``), the extension's internals stay free to change. The driver is hindsight_pg
and the pipeline modules it runs over psycopg; ``pipeline/in_database.py`` runs inside the database
only, as the extension's own code, and may call its internals."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hindsight_pg import ExtensionError, ExtensionVersionError

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = ROOT / "plpython/hindsight_pl/pipeline"
DRIVER_FILES = sorted(
    [*ROOT.glob("hindsight_pg/**/*.py"), *(p for p in PIPELINE.glob("*.py") if p.name != "in_database.py")]
)
PRIVATE = re.compile(r"\bhindsight\._\w+")
# a statement that writes a table of the extension: every write goes through a public function
TABLE_WRITE = re.compile(r"\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE|COPY)\s+hindsight\.\w+", re.IGNORECASE)

# What the driver still calls of the extension's internals, each with why: nothing (an entry is
# ("path", "hindsight._name"): "why", and test_every_allowed_private_call_is_still_made keeps the list true).
ALLOWED: dict[tuple[str, str], str] = {}


def sql_strings(path: Path) -> list[str]:
    """Every string constant of ``path`` (f-strings' literal parts included) but its docstrings."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def private_calls() -> set[tuple[str, str]]:
    return {
        (str(path.relative_to(ROOT)), name)
        for path in DRIVER_FILES
        for text in sql_strings(path)
        for name in PRIVATE.findall(text)
    }


def test_the_driver_files_are_found():
    names = {str(p.relative_to(ROOT)) for p in DRIVER_FILES}
    assert {"hindsight_pg/_client.py", "plpython/hindsight_pl/pipeline/reflect.py"} <= names
    assert "plpython/hindsight_pl/pipeline/in_database.py" not in names


def test_the_pattern_finds_a_private_name_in_sql_and_not_in_a_docstring(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""Calls ``hindsight._doc``."""\nQ = f"SELECT hindsight._inner({1}) FROM hindsight.banks"\n')
    assert [name for text in sql_strings(sample) for name in PRIVATE.findall(text)] == ["hindsight._inner"]


def test_the_driver_calls_only_public_sql():
    assert private_calls() - ALLOWED.keys() == set()


def test_the_driver_writes_no_table_itself():
    writes = {(str(path.relative_to(ROOT)), m.group(0)) for path in DRIVER_FILES for text in sql_strings(path)
              for m in TABLE_WRITE.finditer(text)}  # fmt: skip
    assert writes == set()


def test_the_write_pattern_finds_a_write_and_not_a_read(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('A = "DELETE FROM hindsight.mental_models WHERE x"\nB = "SELECT * FROM hindsight.banks"\n')
    assert [m.group(0) for text in sql_strings(sample) for m in TABLE_WRITE.finditer(text)] == [
        "DELETE FROM hindsight.mental_models"
    ]


def test_every_allowed_private_call_is_still_made():
    # an entry whose call went is removed, so the list says what remains
    assert ALLOWED.keys() - private_calls() == set()


def test_a_newer_extension_asks_for_a_newer_driver():
    # connect's other case (tests/db/test_error_classes.py has an older extension, in a real database)
    error = ExtensionVersionError("0.10.0", "0.3.0")  # by number: 0.10 is newer than 0.3
    assert isinstance(error, ExtensionError)
    assert str(error) == (
        "the database's hindsight_pg extension is 0.10.0, newer than this driver (0.3.0) "
        "(hint: Upgrade the driver to hindsight_pg 0.10.0 (pip install 'hindsight-pg==0.10.0').)"
    )
