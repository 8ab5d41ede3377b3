"""The web inspector's pages against the real database (starlette's test client): an empty bank, a
LoCoMo conversation, the timeline's axis, the playground's as-of day and what it did not pack, an unknown
bank, a database that is down, and HTML in ids, memories and queries."""

from __future__ import annotations

import html
import json
import re

import anyio
import pytest
from _helpers import locomo_file, vec
from starlette.testclient import TestClient
from typer.testing import CliRunner

from hindsight_pg import cli
from hindsight_pg._inputs import load_locomo
from hindsight_pg._mcp import build_server
from hindsight_pg.ui import create_app

LOCOMO = locomo_file()
PAGES = ["", "/entities", "/recall", "/recall?q=What+did+Caroline+research%3F&dropped=on"]


@pytest.fixture
def ui(db):
    return TestClient(create_app(db.info.dsn), base_url="http://127.0.0.1")


def cells(page: str, table: str) -> list[list[str]]:
    """The text of each body row's cells of table ``table`` (tags stripped, entities decoded)."""
    body = re.search(rf'<table id="{table}">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, f"no table {table}"

    def text(cell: str) -> str:
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", cell)).split())

    return [[text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)]  # fmt: skip


def test_every_page_of_an_empty_bank(ui, client):
    client.create_bank("empty")
    banks = ui.get("/")
    assert banks.status_code == 200
    (row,) = cells(banks.text, "banks")
    assert row[0] == "empty" and row[1:8] == ["0"] * 7 and row[8:10] == ["", ""]
    for path in PAGES:
        page = ui.get(f"/banks/empty{path}")
        assert page.status_code == 200, path
    assert "0 units" in ui.get("/banks/empty").text
    recall = ui.get("/banks/empty/recall?q=anything")
    assert "0 results" in recall.text and cells(recall.text, "results") == []


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not found (set HINDSIGHT_LOCOMO)")
def test_every_page_of_a_locomo_conversation(ui, client):
    (conv,) = [c for c in load_locomo(LOCOMO) if c.sample_id == "conv-26"]
    client.create_bank("conv-26", config={"extractor": "verbatim"})
    client.retain_batch("conv-26", conv.items[:60])  # sessions 1-4, May and June 2023
    (row,) = cells(ui.get("/").text, "banks")
    assert row[:2] == ["conv-26", "60"] and row[7] == "60"  # units, documents
    assert row[8:10] == ["2023-05-08", "2023-06-27"]
    timeline = ui.get("/banks/conv-26?by=month").text
    assert len(re.findall(r'class="bar[ "]', timeline)) == 2  # May and June 2023
    assert "60 units" in timeline
    may = ui.get("/banks/conv-26?by=month&start=2023-05-01&end=2023-05-31").text
    assert re.search(r"(\d+) units from 2023-05-01 to 2023-05-31", may)
    entities = ui.get("/banks/conv-26/entities").text
    names = [r[0] for r in cells(entities, "entities")]
    assert set(names[:2]) == {"Caroline", "Melanie"}  # the speakers are the most mentioned
    graph = graph_of(entities)
    assert {n["label"] for n in graph["nodes"]} == set(names) and graph["edges"] and graph["chosen"] is None
    assert graph == graph_of(ui.get("/banks/conv-26/entities").text)  # the same data, in the same order, each load
    assert 'data-seed="7"' in entities  # and the same layout seed (its drawing: test_ui_browser.py)
    three = ui.get("/banks/conv-26/entities?limit=3").text
    assert [r[0] for r in cells(three, "entities")] == names[:3] and len(graph_of(three)["nodes"]) == 3
    caroline = ui.get("/banks/conv-26/entities?entity=Caroline").text
    panel = re.search(r'<aside id="units-panel">(.*?)</aside>', caroline, re.S)[1]  # beside the graph
    assert re.search(r"<h2>\d+ units that name Caroline</h2>", panel) and panel.count("<li>") >= 10
    chosen = next(n["id"] for n in graph_of(caroline)["nodes"] if n["label"] == "Caroline")
    assert graph_of(caroline)["chosen"] == chosen  # selected in the graph
    recall = ui.get("/banks/conv-26/recall?q=When+did+Caroline+go+to+the+LGBTQ+support+group%3F&dropped=on").text
    results = cells(recall, "results")
    assert results and results[0][0] == "1" and "support group" in results[0][1]
    assert 'id="window"' in recall and "SELECT * FROM hindsight.recall(&#39;conv-26&#39;" in recall
    assert 'id="dropped"' in recall
    # the copied SQL runs and gives what the page lists: every packed result, asked as of the same time (the end
    # of the day of the bank's latest memory, in UTC)
    sql = sql_of(recall)
    ((latest,),) = client.conn.execute("SELECT max(mentioned_at) AT TIME ZONE 'UTC' FROM hindsight.memory_units")
    assert f"query_timestamp => '{latest:%Y-%m-%d}T23:59:59.999999+00:00'" in sql and "max_results => NULL" in sql
    assert [row[2] for row in client.conn.execute(sql)] == [row[1] for row in results] and len(results) > 10


def graph_of(page: str) -> dict:
    """The entity graph's data in an entities page."""
    return json.loads(html.unescape(re.search(r'<script id="graph-data"[^>]*>(.*?)</script>', page, re.S)[1]))


def sql_of(page: str) -> str:
    """The SQL call a playground page offers to copy."""
    return html.unescape(re.search(r'<textarea id="sql"[^>]*>(.*?)</textarea>', page, re.S)[1])


def bars(page: str) -> list[tuple[str, int, bool]]:
    """The timeline's columns: (first day, units, in the chosen range)."""
    return [(start, int(units), "chosen" in classes) for classes, start, units in
            re.findall(r'<a class="bar([^"]*)" data-start="([^"]+)" data-units="(\d+)"', page)]  # fmt: skip


def ticks(page: str) -> list[tuple[str, str]]:
    """The timeline's axis labels: (the first day of the period, label)."""
    return re.findall(r'<span class="tick" data-start="([^"]+)">([^<]+)</span>', page)


def retain_dated(db, bank: str, dated: list[tuple[str, str]]) -> None:  # type: ignore[no-untyped-def]
    """Units (text, the day each was said and is about) into ``bank``, each with an embedding of its own."""
    items = [{"content": text, "timestamp": f"{day}T12:00Z", "units": [
        {"text": text, "embedding": vec(**{f"d{i}": 1}), "occurred_start": f"{day}T00:00Z",
         "occurred_end": f"{day}T23:59:59Z"}]} for i, (text, day) in enumerate(dated)]  # fmt: skip
    db.execute("SELECT count(*) FROM hindsight.retain(%s, %s::jsonb)", (bank, json.dumps(items)))


def test_the_timeline_has_a_time_axis(ui, db, client):
    """Every period from the first to the last, empty ones too, ticks at regular periods, the chosen range marked."""
    client.create_bank("t")
    retain_dated(db, "t", [("Falcon beta.", "2025-01-10"), ("Falcon launch.", "2025-01-20"), ("Retro.", "2025-05-20")])
    months = ui.get("/banks/t?by=month").text
    assert bars(months) == [("2025-01-01", 2, False), ("2025-02-01", 0, False), ("2025-03-01", 0, False),
                            ("2025-04-01", 0, False), ("2025-05-01", 1, False)]  # fmt: skip
    assert ticks(months) == [("2025-01-01", "Jan 2025"), ("2025-02-01", "Feb"), ("2025-03-01", "Mar"),
                             ("2025-04-01", "Apr"), ("2025-05-01", "May")]  # fmt: skip
    chosen = ui.get("/banks/t?by=month&start=2025-02-15&end=2025-03-31").text
    assert [start for start, _, marked in bars(chosen) if marked] == ["2025-02-01", "2025-03-01"]
    assert "0 units from 2025-02-15 to 2025-03-31" in chosen and 'id="zoom"' in chosen
    # 20 weeks (Monday January 6 to Monday May 19): a tick at the first week that starts in each month
    weeks = ui.get("/banks/t?by=week").text
    assert len(bars(weeks)) == 20 and sum(units for _, units, _ in bars(weeks)) == 3
    assert ticks(weeks) == [("2025-01-06", "Jan 2025"), ("2025-02-03", "Feb"), ("2025-03-03", "Mar"),
                            ("2025-04-07", "Apr"), ("2025-05-05", "May")]  # fmt: skip
    # the chart of the range alone: its months, though the bank has nothing before January
    zoomed = ui.get("/banks/t?by=month&start=2024-11-15&end=2025-01-31&chart=range").text
    assert bars(zoomed) == [("2024-11-01", 0, False), ("2024-12-01", 0, False), ("2025-01-01", 2, False)]
    # a unit about 1969 makes 675 months: charted by year, a tick every five
    retain_dated(db, "t", [("The moon landing.", "1969-07-20")])
    years = ui.get("/banks/t?by=month").text
    assert len(bars(years)) == 57 and bars(years)[0] == ("1969-01-01", 1, False) and bars(years)[-1][1] == 3
    assert ticks(years)[:2] == [("1970-01-01", "1970"), ("1975-01-01", "1975")]
    assert "every year of the bank's span, empty ones too (by year: more than 600 months)" in " ".join(years.split())


def test_the_playground_asks_as_of_a_day(ui, db, client):
    """The as-of day starts at the bank's latest memory, changes the recall's recency, and the copied SQL
    carries it; what was scored but not packed is numbered by its place in the final order."""
    client.create_bank("p")
    words = "the checkout rewrite and its rollout plan " * 6
    retain_dated(db, "p", [(f"Falcon note {i}: {words[: 8 + 37 * (i % 4)]}", f"2025-0{1 + i % 6}-1{i}")
                           for i in range(10)])  # fmt: skip
    assert 'name="as_of" id="as_of" value="2025-06-15"' in ui.get("/banks/p/recall").text  # the latest memory's day
    first = ui.get("/banks/p/recall?q=Falcon+checkout+rollout").text  # no as_of in the URL: that day
    later = ui.get("/banks/p/recall?q=Falcon+checkout+rollout&as_of=2026-06-15").text
    assert re.search(r'id="asked-at">(.*?)<', first)[1] == "2025-06-15 23:59:59 UTC"
    assert "query_timestamp => '2025-06-15T23:59:59.999999+00:00'" in sql_of(first)
    assert "query_timestamp => '2026-06-15T23:59:59.999999+00:00'" in sql_of(later)
    recency = {row[1]: float(row[7]) for row in cells(first, "results")}
    a_year_on = {row[1]: float(row[7]) for row in cells(later, "results")}
    assert recency.keys() == a_year_on.keys() and len(recency) == 10
    assert all(a_year_on[text] < recency[text] for text in recency)  # a year older each
    now = ui.get("/banks/p/recall?q=Falcon&as_of=").text  # an empty day: now
    assert "query_timestamp" not in sql_of(now) and 'id="as_of" value=""' in now
    assert "a day is written YYYY-MM-DD" in ui.get("/banks/p/recall?q=Falcon&as_of=June").text

    # a budget that packing cannot fill in score order: the list of what it did not pack starts at the first
    # place by final score that it skipped, and a packed result below a skipped one shows its own place
    def recall(max_tokens: int) -> dict:
        return db.execute(
            "SELECT hindsight.recall_json('p', 'Falcon checkout rollout', max_tokens => %s, trace => true,"
            " query_timestamp => '2025-06-15T23:59:59.999999Z', max_results => NULL)", (max_tokens,),
        ).fetchone()[0]  # fmt: skip

    order = [x["id"] for x in recall(4096)["trace"]["scoring"]["results"]]  # by final score; max_tokens packs alone
    tokens = dict(db.execute("SELECT id::text, token_count FROM hindsight.memory_units WHERE bank_id = 'p'").fetchall())
    # the first unit longer than the next: a budget of the ones above it and the next skips it
    i = next(i for i in range(len(order) - 1) if tokens[order[i]] > tokens[order[i + 1]])
    max_tokens = sum(tokens[u] for u in order[:i]) + tokens[order[i + 1]]
    page = ui.get("/banks/p/recall", params={"q": "Falcon checkout rollout", "max_tokens": max_tokens,
                                             "dropped": "on", "as_of": "2025-06-15"}).text  # fmt: skip
    answer = recall(max_tokens)
    packed = {r["id"] for r in answer["results"]}
    place = {x["id"]: x["position"] for x in answer["trace"]["scoring"]["results"]}
    skipped = i + 1
    assert order[i] not in packed and order[i + 1] in packed and place[order[i]] == skipped
    dropped = cells(page, "dropped")
    assert int(dropped[0][0]) == skipped and dropped[0][2].startswith("did not fit")
    assert [int(row[0]) for row in dropped] == sorted(place[i] for i in place if i not in packed)
    shown = [row[0] for row in cells(page, "results")]
    expected = [str(rank) + ("" if place[r["id"]] == rank else f" score #{place[r['id']]}")
                for rank, r in enumerate(answer["results"], start=1)]  # fmt: skip
    assert shown == expected and any("score #" in s for s in shown)


def test_an_unknown_bank_and_bad_input_have_pages_of_their_own(ui):
    for path in PAGES:
        page = ui.get(f"/banks/nobody{path}")
        assert page.status_code == 404 and 'unknown bank "nobody"' in html.unescape(page.text), path
    bad = ui.get("/banks/nobody?start=yesterday")
    assert bad.status_code == 400 and "a day is written YYYY-MM-DD, not &#39;yesterday&#39;" in bad.text
    assert ui.post("/").status_code == 405  # read-only: nothing but GET


def test_bad_input_gets_a_400_page_not_a_500(ui, client):
    client.create_bank("b")
    expected = {
        "/banks/b?page=abc": "a page is a whole number up to 1,000,000",
        "/banks/b?page=999999999999999999999": "a page is a whole number up to 1,000,000",
        "/banks/b?start=2025-9-1": "a day is written YYYY-MM-DD",
        "/banks/b?start=2025-03-31&end=2025-03-01": "the range ends (2025-03-01) before it starts (2025-03-31)",
        "/banks/b/entities?entity=a%00b": "NUL",
        "/banks/b%00": "NUL",
        "/banks/b/recall?q=x&start=2025-03-31&end=2025-03-01": "the time window ends",
        "/banks/b/recall?q=x&max_tokens=abc": "max tokens must be a whole number",
        "/banks/b/recall?q=x&as_of=2025-13-01": "a day is written YYYY-MM-DD, not '2025-13-01'",
        "/banks/b/entities?limit=0": "the number of entities is a whole number from 1 to 100, not '0'",
        "/banks/b/entities?limit=101": "the number of entities is a whole number from 1 to 100",
        "/banks/b/entities?limit=-5": "the number of entities is a whole number from 1 to 100",
        "/banks/b?start=1000-01-01&end=2025-01-01&chart=range": "a range charted alone spans at most 600 years",
        "/banks/b/recall?q=" + "x" * 2001: "query has 2,001 characters, more than the 2,000 allowed (query_chars)",
    }
    for path, message in expected.items():
        page = ui.get(path)
        assert page.status_code == 400 and message in html.unescape(page.text), (path, page.status_code)
    # past the last page: the range's true count, no rows
    client.retain("b", "Ana adopted a cat.")
    assert "1 units" in ui.get("/banks/b?page=9").text
    # the calendar's last week, charted alone
    assert len(bars(ui.get("/banks/b?by=week&start=9999-12-20&end=9999-12-31&chart=range").text)) == 2


def test_another_host_name_is_refused(db):
    app = TestClient(create_app(db.info.dsn), base_url="http://evil.example")
    assert app.get("/").status_code == 400  # DNS rebinding: the Host header must name this server


def test_a_database_that_is_down_has_a_page():
    down = TestClient(create_app("host=127.0.0.1 port=1 dbname=x connect_timeout=2"), base_url="http://localhost")
    page = down.get("/")
    assert page.status_code == 503 and "The database did not answer" in page.text and "cannot connect" in page.text


def test_html_in_bank_ids_memories_and_queries_is_escaped(ui, client):
    bank = "<b>\"bank\" & 'co'</b>"
    client.create_bank(bank)
    client.retain(bank, "Dana: <script>alert('memory')</script> moved to Lyon & Co.", entities=["</script><i>x"])
    everything = [ui.get("/").text] + [ui.get(f"/banks/{bank}{p}").text for p in PAGES]
    everything.append(ui.get(f"/banks/{bank}/recall", params={"q": "<img src=x onerror=alert(1)> Lyon"}).text)
    everything.append(ui.get(f"/banks/{bank}/entities", params={"entity": "</script><i>x"}).text)
    for page in everything:
        assert "<b>" not in page and "<script>alert" not in page and "<img src=x" not in page and "<i>x" not in page
    assert "&lt;b&gt;&#34;bank&#34; &amp; &#39;co&#39;&lt;/b&gt;" in everything[0]
    assert "&lt;script&gt;alert(&#39;memory&#39;)&lt;/script&gt;" in everything[1]
    assert "&lt;img src=x onerror=alert(1)&gt; Lyon" in everything[-2]
    # the entity graph's JSON cannot close its script block
    graph = re.search(r'<script id="graph-data"[^>]*>(.*?)</script>', everything[2], re.S)[1]
    assert "</script>" not in graph and "\\u003c/script\\u003e\\u003ci\\u003ex" in graph


# Units of a bank in Los Angeles: (text, said, first instant and last instant of the days it is about, or None
# when undated), and the dates every interface shows for each (docs/reference.md#a-units-dates), in Los Angeles
# days (UTC-8 until 2025-03-09, UTC-7 after).
DATED = [
    ("Falcon ships on April 1.", "2025-02-26T18:00Z", "2025-04-01T07:00Z", "2025-04-02T06:59:59.999999Z",
     "said 2025-02-26, about 2025-04-01"),  # said one day about another
    ("Priya fixed the login bug today.", "2025-03-04T03:00Z", "2025-03-03T08:00Z", "2025-03-04T07:59:59.999999Z",
     "2025-03-03"),  # 19:00 on 03-03 in Los Angeles, about that day: one date (in UTC it would be two)
    ("Tom goes bouldering on Saturdays.", "2025-01-24T17:05Z", None, None, "said 2025-01-24"),  # undated
    ("The offsite is planned for October.", "2025-02-26T18:00Z", "2025-10-01T07:00Z", "2025-11-01T06:59:59.999999Z",
     "said 2025-02-26, about 2025-10"),  # a whole month
    ("Ana was in Lisbon on Nov 28 and 29.", "2025-12-01T00:30Z", "2025-11-28T08:00Z", "2025-11-30T07:59:59.999999Z",
     "said 2025-11-30, about 2025-11-28..2025-11-29"),  # said on the evening of the 30th in Los Angeles
]  # fmt: skip


def test_a_units_dates_read_the_same_in_every_interface(ui, db, client):
    """The CLI, the MCP recall tool and the inspector's timeline, recall playground and entity page show each
    unit's dates as the same text, the one rule (hindsight_pg._types.describe_when) in the bank's time zone."""
    client.create_bank("team", config={"time_zone": "America/Los_Angeles"})
    items = [{"content": text, "timestamp": said, "units": [
        {"text": text, "embedding": vec(**{f"d{i}": 1}), "occurred_start": start, "occurred_end": end,
         "entities": ["Priya", "Falcon"]}]} for i, (text, said, start, end, _) in enumerate(DATED)]  # fmt: skip
    db.execute("SELECT count(*) FROM hindsight.retain('team', %s::jsonb)", (json.dumps(items),))
    expected = {text: when for text, *_, when in DATED}
    query = "Falcon Priya Tom offsite Lisbon"

    timeline = {row[2]: row[0] for row in cells(ui.get("/banks/team").text, "units")}
    assert timeline == expected
    playground = {row[1]: row[2] for row in cells(ui.get(f"/banks/team/recall?q={query}").text, "results")}
    assert playground == expected
    priya = ui.get("/banks/team/entities?entity=Priya").text
    mentions = re.findall(r'<li><span class="date">(.*?)</span> (.*?)</li>', priya)
    assert {html.unescape(text): when for when, text in mentions} == expected

    runner = CliRunner()
    printed = runner.invoke(cli.app, ["recall", "team", query, "--dsn", db.info.dsn], env={"COLUMNS": "200"})
    assert printed.exit_code == 0, printed.output
    lines = [re.fullmatch(r" ?\d+\. \[[\d.]+\] (.+?)  (.+?)  \(.*\)", line) for line in printed.output.splitlines()]
    assert {m[2]: m[1] for m in lines if m} == expected and len(lines) == len(DATED)
    printed = runner.invoke(cli.app, ["recall", "team", query, "--json", "--dsn", db.info.dsn])
    assert {r["text"]: r["when"] for r in json.loads(printed.output)["results"]} == expected

    async def recall() -> list[dict]:
        result = await build_server(lambda: client).call_tool("recall", {"bank_id": "team", "query": query})
        return result.structured_content["result"]

    recalled = anyio.run(recall)
    assert {r["text"]: r["when"] for r in recalled} == expected
    falcon = next(r for r in recalled if r["text"] == DATED[0][0])  # the machine-readable fields beside the text
    assert [falcon[k] for k in ("said", "about_start", "about_end")] == [
        "2025-02-26T18:00:00+00:00", "2025-04-01T07:00:00+00:00", "2025-04-02T06:59:59.999999+00:00"]  # fmt: skip


def test_the_playground_says_what_updates_win_moved(ui, client):
    # the revision is linked to what it revises (retain's update judge, a confident link): the page says the older
    # one moved below it, and the trace holds the move
    client.create_bank("u")
    client.retain("u", "Lena: A switch from Stripe to Adyen is planned for the checkout.", timestamp="2025-11-18")
    client.retain(
        "u", "Lena: Porto is cancelled, the checkout moved to Adyen instead of Stripe.", timestamp="2025-11-25"
    )
    client.conn.execute("UPDATE hindsight.memory_links SET weight = 1 WHERE bank_id = 'u' AND link_type = 'supersedes'")
    response = client.recall("u", "A switch from Stripe to Adyen is planned for the checkout", trace=True,
                             query_timestamp="2025-11-28", max_tokens=1000)  # fmt: skip
    moved = {r["id"]: r["moved"] for r in response.trace["scoring"]["results"]}
    older = next(r for r in response.results if "planned" in r.text)
    newer = next(r for r in response.results if "instead" in r.text)
    assert newer.rank < older.rank
    assert moved[str(older.id)] == [{"by": "updates-win", "from": 1, "to": 2, "next_to": str(newer.id)}]
    page = ui.get("/banks/u/recall", params={"q": "A switch from Stripe to Adyen is planned for the checkout",
                                             "as_of": "2025-11-28"}).text  # fmt: skip
    rows = {re.split(r" (?=moved (?:above|below) “)", row[1])[0]: row[1] for row in cells(page, "results")}
    assert "it supersedes that" in rows["Lena: Porto is cancelled, the checkout moved to Adyen instead of Stripe."]
    row = rows["Lena: A switch from Stripe to Adyen is planned for the checkout."]
    assert row.endswith(
        "moved below “Lena: Porto is cancelled, the checkout moved to Adyen inste…” (#1 → #2): superseded by it"
    )
