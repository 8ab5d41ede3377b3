"""Released versions stay as they were released: their install and upgrade scripts and their in-database Python
(releases/<version>/) are frozen files, checked by their SHA-256 in releases/SHA256SUMS (never parsed), and the build
copies them instead of rebuilding them from sql/."""

from __future__ import annotations

import hashlib
import re
import subprocess
from itertools import pairwise
from pathlib import Path

import hindsight_pl

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ROOT / "releases"
PYTHON_LIB_ROOT = "/usr/local/lib/hindsight_pg/python"  # the Makefile's default


def frozen_files() -> list[str]:
    files = (p for p in RELEASES.rglob("*") if p.is_file() and p.name != "SHA256SUMS")
    return sorted(str(p.relative_to(ROOT)) for p in files if "__pycache__" not in p.parts)


def released_versions() -> list[str]:
    return sorted((p.name for p in RELEASES.iterdir() if p.is_dir()), key=lambda v: tuple(map(int, v.split("."))))


def requirement_names(path: Path) -> set[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return {re.split(r"[=<>!~\[; ]", line, maxsplit=1)[0].lower() for line in lines if line}


def test_frozen_files_are_as_released():
    listed = {}
    for line in (RELEASES / "SHA256SUMS").read_text().splitlines():
        if line and not line.startswith("#"):
            digest, path = line.split(maxsplit=1)
            listed[path] = digest
    # a file changed after its release, or a frozen file not recorded by `make freeze`
    assert sorted(listed) == frozen_files()
    changed = [p for p, digest in listed.items() if hashlib.sha256((ROOT / p).read_bytes()).hexdigest() != digest]
    assert changed == []


def test_each_release_has_its_scripts_and_python():
    versions = released_versions()
    assert versions[:2] == ["0.1.0", "0.2.0"] and hindsight_pl.__version__ not in versions
    assert (RELEASES / versions[0] / f"hindsight_pg--{versions[0]}.sql").exists()
    for old, new in pairwise(versions):
        assert {p.name for p in (RELEASES / new).glob("*.sql")} == {f"hindsight_pg--{new}.sql",
                                                                   f"hindsight_pg--{old}--{new}.sql"}  # fmt: skip
    for version in versions:
        package = RELEASES / version / "hindsight_pl"
        assert f'\n__version__ = "{version}"\n' in (package / "__init__.py").read_text()
        # a released version's Python shares the current dependency directory: what it needs is still there
        assert requirement_names(RELEASES / version / "requirements.txt") <= requirement_names(
            ROOT / "plpython" / "requirements.txt"
        ), version
    for script in RELEASES.glob("*/*.sql"):
        text = script.read_text()
        assert PYTHON_LIB_ROOT not in text and "@PYTHON_LIB_DIR@" in text, script.name  # the place is filled in by make


def test_the_build_copies_released_scripts():
    """Nothing of sql/schema or sql/functions reaches a released version's scripts: make copies them,
    filling in the Python directory of the version each installs or leads to."""
    subprocess.run(["make", "-s", "extension"], cwd=ROOT, check=True, capture_output=True)
    for script in RELEASES.glob("*/*.sql"):
        target = script.parent.name
        built = (ROOT / "build" / script.name).read_text()
        assert built == script.read_text().replace("@PYTHON_LIB_DIR@", f"{PYTHON_LIB_ROOT}/{target}"), script.name
