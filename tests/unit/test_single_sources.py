"""Defaults stated once: each has one source, and every other place that writes it is checked against it
here (tests/db/test_catalogue.py checks the database's own values).

- the embedding dimension: ``hindsight_pl.providers.DIMENSIONS``, against every ``vector(N)``, "N
  dimensions", "N numbers" and dimension check of the SQL, the Python and the docs;
- the default model: ``hindsight_pl.providers.E5`` (``DEFAULT_EMBEDDING``), against the CLI's default and
  every model name the sources write;
- the in-database Python's dependencies: ``plpython/requirements.txt`` (the exact versions ``make
  install`` puts in the database), against ``pyproject.toml``'s ranges, which must admit each.
"""

from __future__ import annotations

import inspect
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

from hindsight_pg.cli import services
from hindsight_pl import providers

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    {
        *ROOT.glob("sql/schema/*.sql"),
        *ROOT.glob("sql/functions/**/*.sql"),
        *ROOT.glob("sql/upgrades/*.sql"),
        *ROOT.glob("docs/*.md"),
        ROOT / "README.md",
        *ROOT.glob("hindsight_pg/**/*.py"),
        *ROOT.glob("plpython/hindsight_pl/**/*.py"),
    }
)

# every way the sources write the embedding dimension (a number of three or more digits)
DIMENSION = re.compile(
    r"vector\((\d+)\)"
    r"|(?<![\d,.])(\d{3,})(?:[- ](?:dim\b|dimensions?\b|dimensional\b|wide\b|numbers\b))"
    r"|dimensions, expected (\d+)"
    r"|(?:vector_dims\(query_embedding\)|jsonb_array_length\(v->'embedding'\)) <> (\d+)"
    r"|float32\[n, (\d+)\]"
)
MODEL_NAME = re.compile(r"multilingual-e5-[\w-]+|all-MiniLM-L\d+-v\d+")


def written(pattern: re.Pattern[str]) -> list[tuple[str, int, str]]:
    """(file, line, what the pattern found) for every match in the sources."""
    found = []
    for path in SOURCES:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in pattern.finditer(line):
                value = next((g for g in match.groups() if g is not None), match.group(0))
                found.append((str(path.relative_to(ROOT)), number, value))
    return found


def test_every_written_dimension_is_the_providers_one():
    found = written(DIMENSION)
    assert len(found) >= 25  # the schema, the checks, the comments, the docs: the pattern still reads them
    assert [f for f in found if int(f[2]) != providers.DIMENSIONS] == []


def test_the_dimension_pattern_reads_each_form():
    for text in ("embedding vector(7)", "a 777-dim vector", "[777 numbers]", "777-dimensional", "has %s dimensions, "
                 "expected 777", "vector_dims(query_embedding) <> 777", "float32[n, 777]"):  # fmt: skip
        assert DIMENSION.search(text), text
    assert not DIMENSION.search("2,000 numbers") and not DIMENSION.search("top 10 numbers")


def test_every_model_name_written_is_a_known_model():
    names = {f[2] for f in written(MODEL_NAME)}
    assert names == {providers.E5, providers.MINILM}


def test_the_default_model_is_the_providers_default():
    assert providers.DEFAULT_EMBEDDING == {"kind": "local", "model": providers.E5}
    serve = inspect.signature(services.serve_models).parameters["embedding_model"]
    assert serve.default == providers.E5


def requirements() -> dict[str, str]:
    """plpython/requirements.txt: package name (normalised) -> its pinned version."""
    pins = {}
    for line in (ROOT / "plpython/requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            (spec,) = requirement.specifier
            assert spec.operator == "==", f"{line}: the in-database Python pins exact versions"
            pins[requirement.name.lower()] = spec.version
    return pins


def test_the_drivers_dependencies_admit_the_in_database_pins():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    ranges = {r.name.lower(): r for r in map(Requirement, pyproject["project"]["dependencies"])}
    pins = requirements()
    assert len(pins) >= 10
    # torch: installed first as the local CPU build (the Makefile), a bare requirement would pull CUDA
    missing = sorted(set(pins) - set(ranges) - {"torch"})
    assert missing == [], "in plpython/requirements.txt but not in pyproject.toml's dependencies"
    refused = {name: (pins[name], str(ranges[name].specifier)) for name in set(pins) & set(ranges)
               if pins[name] not in ranges[name].specifier}  # fmt: skip
    assert refused == {}, "pyproject.toml's range refuses the version the database runs"
