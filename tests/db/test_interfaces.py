"""Recall's arguments and result columns are defined once and every entry point agrees: the SQL
functions' signatures (the catalogue), the pipeline's statements (hindsight_pl.pipeline.recall) and
the driver's Client.recall and RecallResult."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

from hindsight_pg import Client
from hindsight_pg._rows import _SCORE_COLUMNS
from hindsight_pg._types import RecallResult
from hindsight_pl.pipeline import recall as pipeline

HEAD = {"bank_id": "text", "query": "text", "query_embedding": "vector"}
JSON_EXTRAS = {"include_chunks": ("bool", False), "max_chunk_tokens": ("int", 8192)}
# SQL's alone, last: the driver gives every packed result (it passes NULL; Client.recall has no such argument)
SQL_ONLY = {"max_results": ("int", 10)}
# last of what a caller that embeds the query itself calls (recall_candidates, recall_json): the config it chose its
# embedder with, which the database checks (hindsight.recall has none: it embeds in the database)
SEEN = {"config_seen": ("jsonb", None)}


def _sql_default(value, kind: str) -> str:
    if value is None:
        return f"NULL::{kind}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return f"'{value}'::text"


def _signature(db, names: list[str], types: dict[str, str], defaults: dict[str, object]) -> str:
    """What pg_get_function_arguments prints for these arguments (types in the catalogue's spelling)."""
    parts = []
    for name in names:
        (kind,) = db.execute("SELECT %s::regtype::text", (types[name],)).fetchone()
        text = f"{name} {kind}"
        if name in defaults:
            text += f" DEFAULT {_sql_default(defaults[name], kind)}"
        parts.append(text)
    return ", ".join(parts)


def _arguments(db, function: str) -> str:
    (text,) = db.execute(
        "SELECT pg_get_function_arguments(p.oid) FROM pg_proc p WHERE p.oid = %s::regproc", (function,)
    ).fetchone()
    return text


def test_recall_entry_points_take_the_arguments_the_pipeline_defines(db):
    types = {
        **HEAD,
        **pipeline.CANDIDATE_ARGUMENTS,
        **pipeline.FINISH_ARGUMENTS,
        **{k: t for k, (t, _) in SEEN.items()},
    }
    defaults = {"query_embedding": None, **pipeline.DEFAULTS, **{k: d for k, (_, d) in SEEN.items()}}
    candidates = [*HEAD, *pipeline.CANDIDATE_ARGUMENTS]
    assert _arguments(db, "hindsight.recall_candidates") == _signature(db, candidates + list(SEEN), types, defaults)
    types |= {k: t for k, (t, _) in SQL_ONLY.items()}
    defaults |= {k: d for k, (_, d) in SQL_ONLY.items()}
    assert _arguments(db, "hindsight.recall") == _signature(
        db, candidates + list(pipeline.FINISH_ARGUMENTS) + list(SQL_ONLY), types, defaults
    )
    json_names = [*candidates, "passthrough", *JSON_EXTRAS, "prefer_observations", "min_relevance", *SQL_ONLY, *SEEN]
    json_types = {**types, **{k: t for k, (t, _) in JSON_EXTRAS.items()}}
    json_defaults = {**defaults, **{k: d for k, (_, d) in JSON_EXTRAS.items()}}
    assert _arguments(db, "hindsight.recall_json") == _signature(db, json_names, json_types, json_defaults)
    # the rest of the recall travels in the state recall_candidates returns (its budget, query, trace, ...)
    head = "state recall_state, rerank_scores double precision[] DEFAULT NULL::double precision[]"
    with db.transaction():
        db.execute("SET LOCAL search_path = hindsight, public")
        assert _arguments(db, "hindsight.recall_finish") == (
            head + ", " + _signature(db, list(pipeline.FINISH_ARGUMENTS), types, defaults)
        )
        assert _arguments(db, "hindsight.texts_to_rerank") == (
            "state recall_state, " + _signature(db, ["passthrough"], types, defaults)
        )


def test_the_driver_takes_the_same_arguments_with_the_same_defaults():
    parameters = dict(inspect.signature(Client.recall).parameters)
    assert list(parameters)[:3] == ["self", "bank_id", "query"]
    driver = {name: p.default for name, p in list(parameters.items())[3:]}
    assert driver == pipeline.DEFAULTS


def test_recall_and_recall_finish_return_the_one_result_type_the_driver_reads(db):
    returns = dict(db.execute(
        "SELECT p.proname, p.prorettype::regtype::text FROM pg_proc p"
        " WHERE p.pronamespace = 'hindsight'::regnamespace AND p.proname IN ('recall', 'recall_finish')"
    ).fetchall())  # fmt: skip
    assert returns == {"recall": "hindsight.recall_result", "recall_finish": "hindsight.recall_result"}
    columns = [r[0] for r in db.execute(
        "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = 'hindsight.recall_result'::regclass"
        " AND a.attnum > 0 ORDER BY a.attnum"
    )]  # fmt: skip
    driver = [f.name for f in dataclasses.fields(RecallResult) if f.name != "scores"] + list(_SCORE_COLUMNS)
    # trace: the recall's trace on the rank-1 row, which the driver reads as the response's trace
    assert sorted(columns) == sorted([*driver, "trace"]) and len(columns) == 29


REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "reference.md"
HEADING_CALL = re.compile(r"`hindsight\.(\w+)\(([^`]*?)\)(?: → [^`]*)?`")


def _split(arguments: str) -> list[str]:
    """Top-level comma-separated parts (commas inside quotes or parentheses stay)."""
    parts, depth, quoted, current = [], 0, False, ""
    for ch in arguments:
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return [p for p in [*parts, current.strip()] if p]


def _argument(db, text: str) -> tuple[str, str | None, str | None]:
    """(name, type in the catalogue's spelling or None, default without casts or None) of one argument."""
    head, _, default = text.partition(" DEFAULT ")
    name, _, kind = head.partition(" ")
    if kind:
        (kind,) = db.execute("SELECT %s::regtype::text", (kind,)).fetchone()
    default = re.sub(r"::[\w ]+(\[\])?", "", default) if default else None
    return name, kind or None, default


def test_the_reference_documents_every_public_sql_function_as_the_catalogue_has_it(db):
    """docs/reference.md's `### hindsight.f(...)` headings: every public function of the catalogue has
    one, every one names a function that exists, and a heading that spells out the arguments gives
    their names, types and defaults as the catalogue does."""
    section = REFERENCE.read_text().split("## SQL functions", 1)[1].split("\n## ", 1)[0]
    documented: dict[str, str] = {}
    for line in section.splitlines():
        if line.startswith("### "):
            documented.update(HEADING_CALL.findall(line))
    catalogue = dict(db.execute(
        "SELECT p.proname, pg_get_function_arguments(p.oid) FROM pg_proc p"
        " WHERE p.pronamespace = 'hindsight'::regnamespace AND p.proname !~ '^_'"
    ).fetchall())  # fmt: skip
    assert sorted(documented) == sorted(catalogue)
    checked = 0
    for name, written in documented.items():
        if "..." in written:
            continue
        given = [_argument(db, a) for a in _split(written)]
        actual = [_argument(db, a) for a in _split(catalogue[name])]
        assert [a[0] for a in given] == [a[0] for a in actual], name
        for (arg, kind, default), (_, real_kind, real_default) in zip(given, actual, strict=True):
            assert kind is None or kind == real_kind, f"{name}({arg}): {kind} != {real_kind}"
            assert default == real_default, f"{name}({arg}): DEFAULT {default} != {real_default}"
        checked += 1
    assert checked >= 20


def _documented_keys(comment: str) -> set[str]:
    return set(re.findall(r'"(\w+)"\??[:,\s]', comment))


def test_retains_item_shape_is_the_one_the_pipeline_builds_and_the_database_checks(db, embedder):
    """The item shape is written once, in hindsight.retain's comment: every key the pipeline puts in an
    item or a unit is documented there, and every documented key is read by retain's SQL."""
    from datetime import UTC, datetime

    from hindsight_pl.pipeline.retain import prepare
    from hindsight_pl.retain import units
    from hindsight_pl.retain.dedupe import Deduplicator
    from hindsight_pl.retain.extract import OfflineExtractor

    item = prepare("Ana: I moved to Lisbon last May. Bruno helped because he has a van.",
                   timestamp=datetime(2025, 6, 1, tzinfo=UTC), document_id="d", context="chat", tags=["t"],
                   metadata={"k": 1}, entities=["Ana"], speaker="Ana")  # fmt: skip
    (made,) = units.fill_units([item], extractor=OfflineExtractor(), embed=lambda t: embedder.embed(t, kind="passage"),
                               dedupe=Deduplicator(0.95), stored={})  # fmt: skip
    payload = item.payload(made)
    built = set(payload) | {key for unit in payload["units"] for key in unit}
    (comment,) = db.execute("SELECT obj_description('hindsight.retain(text, jsonb, jsonb)'::regprocedure)").fetchone()
    documented = _documented_keys(comment)
    assert built - {"merged"} <= documented and "merged" in documented and payload["units"]
    (source,) = db.execute(
        "SELECT string_agg(prosrc, ' ') FROM pg_proc WHERE pronamespace = 'hindsight'::regnamespace"
        " AND proname IN ('retain', '_check_retain_items', '_retain_units', '_update_document')"
    ).fetchone()
    read = set(re.findall(r"->>?'(\w+)'", source)) | set(re.findall(r"\? '(\w+)'", source))
    assert documented <= read | {"item_index", "reason", "similarity"}  # a merged record's own fields


def test_one_rule_for_a_units_date(db):
    """Only hindsight._effective_date spells out which of a unit's times is its date; the proximity
    point (hindsight._best_date: the midpoint of the occurred span, else that date) is used only for
    temporal proximity."""
    bodies = dict(db.execute(
        "SELECT proname, prosrc FROM pg_proc WHERE pronamespace = 'hindsight'::regnamespace"
    ).fetchall())  # fmt: skip
    rule = r"coalesce\(\s*(\w+\.)?occurred_start,\s*(\w+\.)?(occurred_end,\s*(\w+\.)?)?mentioned_at"
    spelled = [name for name, body in bodies.items() if re.search(rule, body)]
    assert spelled == ["_effective_date"]
    proximity = sorted(name for name, body in bodies.items() if "_best_date(" in body)
    assert all("_proximity(hindsight._best_date(" in bodies[n].replace("\n", " ") for n in proximity)


def test_time_span_is_each_time_a_unit_is_about(db):
    """hindsight._time_span (the GiST index's expression, written as one inlinable expression) equals the
    multirange of the occurred range (or the one end there is) and the mention, for every mix of NULLs."""
    db.execute("SET TimeZone = 'UTC'")
    rows = db.execute(
        """SELECT s, o_start, o_end, m, hindsight._time_span(o_start, o_end, m)::text
           FROM (VALUES (1, NULL::timestamptz, NULL::timestamptz, NULL::timestamptz),
                        (2, '2024-03-01', NULL, NULL), (3, NULL, '2024-03-05', NULL), (4, NULL, NULL, '2024-04-01'),
                        (5, '2024-03-01', '2024-03-05', NULL), (6, '2024-03-01', NULL, '2024-04-01'),
                        (7, '2024-03-01', '2024-03-05', '2024-03-03'), (8, '2024-03-01', '2024-03-05', '2024-04-01'))
                AS v(s, o_start, o_end, m) ORDER BY s"""
    ).fetchall()
    spans = {s: str(span) for s, _, _, _, span in rows}
    assert spans[1] == "{}"
    assert spans[2] == '{["2024-03-01 00:00:00+00","2024-03-01 00:00:00+00"]}'
    assert spans[3] == '{["2024-03-05 00:00:00+00","2024-03-05 00:00:00+00"]}'
    assert spans[4] == '{["2024-04-01 00:00:00+00","2024-04-01 00:00:00+00"]}'
    assert spans[5] == '{["2024-03-01 00:00:00+00","2024-03-05 00:00:00+00"]}'
    assert (
        spans[6]
        == '{["2024-03-01 00:00:00+00","2024-03-01 00:00:00+00"],["2024-04-01 00:00:00+00","2024-04-01 00:00:00+00"]}'
    )
    assert spans[7] == spans[5]  # a mention inside the occurred range adds nothing
    assert (
        spans[8]
        == '{["2024-03-01 00:00:00+00","2024-03-05 00:00:00+00"],["2024-04-01 00:00:00+00","2024-04-01 00:00:00+00"]}'
    )
