"""Static check for distribution by bank (Citus): every statement of the built extension script that
joins bank-keyed tables also equates their bank_id. Parsed with pglast (PostgreSQL's own parser),
function bodies included: SQL bodies, PL/pgSQL statements and expressions, and the SQL text that
PL/pgSQL runs with EXECUTE."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pglast

ROOT = Path(__file__).resolve().parents[2]
BANK_TABLES = {
    "banks", "bank_members", "documents", "chunks", "memory_units", "entities", "unit_entities", "memory_links",
    "_bank_counts", "_bm25_terms", "_bm25_postings", "_entity_cooccurrences", "observation_sources", "mental_models",
}  # fmt: skip


def built_script() -> str:
    """The scripts make builds from sql/ (this version's and the open upgrade), as one text. The released versions'
    frozen scripts are checked by their checksums (tests/unit/test_releases.py), not parsed again."""
    subprocess.run(["make", "-s", "extension"], cwd=ROOT, check=True, capture_output=True)
    frozen = {p.name for p in (ROOT / "releases").glob("*/*.sql")}
    scripts = sorted(p for p in (ROOT / "build").glob("hindsight_pg--*.sql") if p.name not in frozen)
    assert len(scripts) == 2
    return "\n".join(
        line for script in scripts for line in script.read_text().splitlines() if not line.startswith("\\echo")
    )


def sql_texts(script: str) -> Iterator[tuple[str, str]]:
    """(where, SQL text) for every top-level statement and every SQL text inside a function body."""
    for raw in pglast.parser.split(script):
        yield "script", raw
        tree = pglast.parser.parse_sql_json(raw)
        stmt = json.loads(tree)["stmts"][0]["stmt"]
        create = stmt.get("CreateFunctionStmt")
        if not create:
            continue
        name = ".".join(n["String"]["sval"] for n in create["funcname"])
        options = {o["DefElem"]["defname"]: o["DefElem"]["arg"] for o in create.get("options", [])}
        language = options["language"]["String"]["sval"]
        body = options["as"]["List"]["items"][0]["String"]["sval"]
        if language == "sql":
            yield name, body
        elif language == "plpgsql":
            yield from ((name, text) for text in plpgsql_texts(raw))


def plpgsql_texts(create_function: str) -> Iterator[str]:
    # pglast's PL/pgSQL parser resolves only pg_catalog and public names (types in DECLARE):
    # read the body with the schema renamed, and name it back in the SQL it yields
    renamed = create_function.replace("hindsight.", "public.")
    # and it cannot resolve the extension's own types, which do not matter here: call them text
    own_types = r"public\.(_arm_hit|_fused_hit|_boosted_candidate|_scored_candidate|recall_candidate|retained_unit)\b"
    renamed = re.sub(own_types, "text", renamed)
    # a table's row type (RETURNS hindsight.mental_models, a variable of it) ends its line; the table itself does not
    renamed = re.sub(r"public\.mental_models(?=;?$)", "text", renamed, flags=re.MULTILINE)
    # and arrays of a table's rows (the triggers' variables, sql/functions/common/_derived.sql; recall_finish's units)
    renamed = re.sub(r"public\.(_bm25_postings|unit_entities|memory_units)(?=\[\])", "text", renamed)
    renamed = re.sub(r"\bvector\b", "text", renamed)  # pgvector's type, unknown to pglast too
    for query in _plpgsql_texts(renamed):
        yield query.replace("public.", "hindsight.")


def _plpgsql_texts(create_function: str) -> Iterator[str]:
    for node in walk(pglast.parse_plpgsql(create_function)):
        if not isinstance(node, dict):
            continue
        if "PLpgSQL_stmt_dynexecute" in node:
            # EXECUTE: the statement is a string constant of the expression
            query = "SELECT " + node["PLpgSQL_stmt_dynexecute"]["query"]["PLpgSQL_expr"]["query"]
            for const in walk(json.loads(pglast.parser.parse_sql_json(query))):
                text = const.get("A_Const", {}).get("sval", {}).get("sval", "") if isinstance(const, dict) else ""
                if re.match(r"\s*(SELECT|WITH|INSERT|UPDATE|DELETE|CREATE|DROP)\b", text, re.IGNORECASE):
                    yield text
        expr = node.get("PLpgSQL_expr")
        if expr:
            query, mode = expr["query"], expr.get("parseMode", 0)
            if mode in (3, 4, 5):  # assignment: "target := expression" (4, 5: to a field of a record)
                query = "SELECT " + query.split(":=", 1)[1]
            elif mode == 2:  # expression
                query = "SELECT " + query
            yield query


def walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def _without_locations(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_locations(v) for k, v in value.items() if k != "location"}
    if isinstance(value, list):
        return [_without_locations(v) for v in value]
    return value


class Scope:
    """The bank-keyed relations of one FROM clause and the bank_id equalities among them."""

    def __init__(self) -> None:
        self.relations: list[str] = []
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            key = self.parent[key]
        return key

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)

    def add_from(self, node: Any, quals: list[Any]) -> list[str]:
        """Bank relations of a FROM item; JOIN conditions go to quals, USING (bank_id) joins directly."""
        if not isinstance(node, dict):
            return []
        if "RangeVar" in node:
            rv = node["RangeVar"]
            if rv.get("schemaname") == "hindsight" and rv["relname"] in BANK_TABLES:
                key = "rel:" + (rv.get("alias", {}).get("aliasname") or rv["relname"])
                self.relations.append(key)
                self.find(key)
                return [key]
            return []
        if "JoinExpr" in node:
            join = node["JoinExpr"]
            left = self.add_from(join["larg"], quals)
            right = self.add_from(join["rarg"], quals)
            if join.get("quals"):
                quals.append(join["quals"])
            using = [u["String"]["sval"] for u in join.get("usingClause", [])]
            if "bank_id" in using:
                for a in left:
                    for b in right:
                        self.union(a, b)
            return left + right
        return []

    def key_of(self, expr: Any) -> str:
        ref = expr.get("ColumnRef") if isinstance(expr, dict) else None
        if ref:
            fields = [f["String"]["sval"] for f in ref["fields"] if "String" in f]
            if len(fields) == 2 and fields[1] == "bank_id" and "rel:" + fields[0] in self.relations:
                return "rel:" + fields[0]
            if fields == ["bank_id"] and len(self.relations) == 1:
                return self.relations[0]
        return "anchor:" + json.dumps(_without_locations(expr), sort_keys=True)  # a parameter, an argument, ...

    def add_equalities(self, qual: Any) -> None:
        if not isinstance(qual, dict):
            return
        if "BoolExpr" in qual and qual["BoolExpr"]["boolop"] == "AND_EXPR":
            for arg in qual["BoolExpr"]["args"]:
                self.add_equalities(arg)
        elif "A_Expr" in qual:
            expr = qual["A_Expr"]
            names = [n["String"]["sval"] for n in expr.get("name", [])]
            if expr.get("kind") == "AEXPR_OP" and names == ["="]:
                left, right = self.key_of(expr["lexpr"]), self.key_of(expr["rexpr"])
                if left.startswith("rel:") or right.startswith("rel:"):
                    self.union(left, right)

    def connected(self) -> bool:
        return len({self.find(r) for r in self.relations}) <= 1


def unjoined(sql: str) -> list[list[str]]:
    """For every SELECT / UPDATE / DELETE in sql joining bank tables without equating bank_id: its relations."""
    problems = []
    for node in walk(json.loads(pglast.parser.parse_sql_json(sql))):
        if not isinstance(node, dict):
            continue
        scope, quals = Scope(), []
        if "SelectStmt" in node:
            stmt = node["SelectStmt"]
            for item in stmt.get("fromClause", []):
                scope.add_from(item, quals)
            quals.append(stmt.get("whereClause"))
        elif "UpdateStmt" in node or "DeleteStmt" in node:
            stmt = node.get("UpdateStmt") or node["DeleteStmt"]
            scope.add_from({"RangeVar": stmt["relation"]}, quals)
            for item in stmt.get("fromClause", []) + stmt.get("usingClause", []):
                scope.add_from(item, quals)
            quals.append(stmt.get("whereClause"))
        else:
            continue
        for qual in quals:
            scope.add_equalities(qual)
        if len(scope.relations) > 1 and not scope.connected():
            problems.append(scope.relations)
    return problems


def test_every_join_of_bank_tables_equates_bank_id():
    texts = list(sql_texts(built_script()))
    assert len(texts) > 200  # the script, its SQL bodies and its PL/pgSQL statements were all read
    problems, templates = [], 0
    for where, sql in texts:
        try:
            problems += [(where, relations, sql[:200]) for relations in unjoined(sql)]
        except pglast.parser.ParseError:
            assert "%" in sql, (where, sql)  # only format() templates (%I, %L) are not SQL as they stand
            templates += 1
    assert problems == []
    assert templates < 30  # a few per script


def test_the_check_finds_a_join_without_bank_id():
    bad = "SELECT 1 FROM hindsight.memory_units u JOIN hindsight.unit_entities ue ON ue.unit_id = u.id"
    assert unjoined(bad) == [["rel:u", "rel:ue"]]
    good = bad + " AND ue.bank_id = u.bank_id"
    assert unjoined(good) == []
    through_an_argument = (
        "SELECT 1 FROM hindsight.memory_units u, hindsight.entities e"
        " WHERE u.bank_id = f.bank_id AND e.bank_id = f.bank_id"
    )
    assert unjoined(through_an_argument) == []
    using = "SELECT 1 FROM hindsight.memory_units u JOIN hindsight.chunks c USING (bank_id, chunk_id)"
    assert unjoined(using) == []
    update = (
        "UPDATE hindsight.entities e SET mention_count = 0 FROM hindsight.unit_entities ue WHERE ue.entity_id = e.id"
    )
    assert unjoined(update) == [["rel:e", "rel:ue"]]
