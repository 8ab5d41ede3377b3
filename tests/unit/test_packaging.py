"""A wheel carries every package: pyproject.toml lists each directory of hindsight_pg and hindsight_pl
that holds an __init__.py (a subpackage left out is missing only once installed from a wheel)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_lists_every_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = set()
    for name, folder in config["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                found.add(".".join([name, *init.parent.relative_to(ROOT / folder).parts]))
    assert found == set(config["packages"]) and "hindsight_pl.pipeline" in found
