"""The benchmark pages state what docs/benchmarks.json holds: every generated table of docs/benchmarks.md and
docs/temporal.md is what bench/report.py makes from the JSON alone, and the docs name no commit, issue or round of
work (history goes to CHANGELOG.md)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"<!-- generated: (.+?) -->\n(.*?)<!-- end generated -->", re.S)


def _report():
    spec = importlib.util.spec_from_file_location("report", ROOT / "bench" / "report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_generated_table_is_what_the_json_holds():
    made = _report().render(json.loads((ROOT / "docs" / "benchmarks.json").read_text()))
    for page in ("benchmarks.md", "temporal.md"):
        found = dict(BLOCK.findall((ROOT / "docs" / page).read_text()))
        assert set(found) == set(made.get(page, {})), page  # no block without figures, no figures without a block
        for name, text in found.items():
            assert text == made[page][name] + "\n", f"{page}: table {name!r} is not the JSON's (run bench/report.py)"


def test_the_docs_state_the_present():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text()
        for pattern in (r"\bissue \d+", r"\bthis round\b", r"\blast round\b", r"\bcommit [0-9a-f]{7,40}\b"):
            found = re.search(pattern, text, re.I)
            assert found is None, f"{path.name} says {found.group(0)!r}: history goes to CHANGELOG.md"
