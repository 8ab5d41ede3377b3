"""The inspector in a real browser: Debian's chromium, headless, driven by selenium, on the demo bank
(hindsight_pg/data/team_chat.json). Every page is loaded and read as a person would see it: the
timeline's axis and chosen range, the entity graph's layout (the same on two loads, 14 px labels that do
not overlap) and a click on a node (its units in the panel beside the graph, in view), and the recall
playground asked as of the demo's last day. Each page is photographed at 1400x900 (into
$HINDSIGHT_UI_SCREENSHOTS when set, e.g. docs/images, else a temporary directory)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from _models import serve

from hindsight_pg._inputs import read_items
from hindsight_pg.cli.examples import EXAMPLE_CONVERSATION
from hindsight_pg.ui import create_app

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="chromium and chromium-driver are not installed"),
]

# each node's label box on the page (CSS pixels), from vis-network's own measure of the label it drew
LABEL_BOXES = """
const network = window.entityGraph;
return Object.keys(network.getPositions()).map((id) => {
  const node = network.body.nodes[id], size = node.labelModule.size;
  const from = network.canvasToDOM({x: size.left, y: size.top});
  const to = network.canvasToDOM({x: size.left + size.width, y: size.top + size.height});
  return {label: node.options.label, font: node.labelModule.fontOptions.size * network.getScale(),
          box: [from.x, from.y, to.x, to.y]};
});"""


@pytest.fixture
def server(db, client):
    client.create_bank("demo", name="hindsight_pg demo")
    client.retain_batch("demo", read_items(str(EXAMPLE_CONVERSATION)))
    with serve(create_app(db.info.dsn)) as url:
        yield url


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # type: ignore[assignment]
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900",
                     "--hide-scrollbars"):  # fmt: skip
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_window_size(1400, 900)
    yield driver
    driver.quit()


def test_every_page_in_chromium(server, browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    shots = Path(os.environ.get("HINDSIGHT_UI_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    wait = WebDriverWait(browser, 30)

    browser.get(server)
    assert browser.find_element(By.CSS_SELECTOR, "#banks tbody td a").text == "demo"
    browser.save_screenshot(str(shots / "ui-banks.png"))

    # the timeline: a column per month from the first to the last, empty ones too, a tick each year (the demo's
    # units are about 2019 to 2026), the chosen range in its own colour
    browser.get(f"{server}/banks/demo?by=month&start=2025-03-01&end=2025-05-31")
    bars = browser.find_elements(By.CSS_SELECTOR, "#histogram .bar")
    empty = [b for b in bars if b.get_attribute("data-units") == "0"]
    assert len(bars) >= 80 and empty and empty[0].size["width"] == bars[0].size["width"]  # an empty month is there
    ticks = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#axis .tick")]
    assert "2025" in ticks and "2024" in ticks
    chosen = [b.get_attribute("data-start") for b in bars if "chosen" in b.get_attribute("class")]
    assert chosen == ["2025-03-01", "2025-04-01", "2025-05-01"]
    colours = {b.value_of_css_property("background-color") for b in bars if b.get_attribute("data-start") in chosen}
    assert colours == {"rgba(253, 226, 196, 1)"}  # the range's band (ui.css)
    browser.save_screenshot(str(shots / "ui-timeline.png"))
    browser.get(f"{server}/banks/demo?by=week&start=2025-03-01&end=2025-08-31&chart=range")
    assert [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#axis .tick")][:2] == ["Mar 2025", "Apr"]
    browser.save_screenshot(str(shots / "ui-timeline-range.png"))

    # the entity graph: settled from one seed, so two loads draw it alike; labels 14 px at zoom 1, none over another
    def graph() -> tuple[dict, list[dict]]:
        wait.until(lambda b: b.find_element(By.ID, "graph").get_attribute("data-layout"))
        return json.loads(browser.find_element(By.ID, "graph").get_attribute("data-layout")), browser.execute_script(
            LABEL_BOXES
        )

    browser.get(f"{server}/banks/demo/entities")
    layout, labels = graph()
    browser.refresh()
    assert graph()[0] == layout and len(layout) == 20
    assert {label["font"] for label in labels} == {14}
    overlapping = [(a["label"], b["label"]) for i, a in enumerate(labels) for b in labels[i + 1 :]
                   if a["box"][0] < b["box"][2] and b["box"][0] < a["box"][2]
                   and a["box"][1] < b["box"][3] and b["box"][1] < a["box"][3]]  # fmt: skip
    assert overlapping == []
    box = browser.find_element(By.ID, "graph").rect
    xs = [label["box"][0] for label in labels] + [label["box"][2] for label in labels]
    assert max(xs) - min(xs) > 0.7 * box["width"]  # the drawing fills its box
    browser.save_screenshot(str(shots / "ui-entities.png"))

    # a click on Tom's node: his units in the panel beside the graph, in view without scrolling
    tom = next(label for label in labels if label["label"] == "Tom")
    node = browser.execute_script(
        "const n = window.entityGraph, id = Object.keys(n.getPositions()).find("
        "(i) => n.body.nodes[i].options.label === 'Tom'); return n.canvasToDOM(n.getPositions([id])[id]);"
    )
    assert tom["box"][1] > node["y"]  # the label is drawn below its node
    graph_box = browser.find_element(By.ID, "graph")
    ActionChains(browser).move_to_element_with_offset(
        graph_box, int(node["x"] - graph_box.size["width"] / 2), int(node["y"] - graph_box.size["height"] / 2)
    ).click().perform()
    wait.until(expected_conditions.url_contains("entity=Tom"))
    panel = wait.until(expected_conditions.visibility_of_element_located((By.ID, "units-panel")))
    assert panel.find_element(By.TAG_NAME, "h2").text.endswith("units that name Tom")
    assert len(panel.find_elements(By.CSS_SELECTOR, "#mentions li")) >= 20
    assert panel.rect["y"] + 100 < browser.execute_script("return window.innerHeight")  # in view
    assert panel.value_of_css_property("overflow-y") == "auto"  # it scrolls on its own
    graph()
    browser.save_screenshot(str(shots / "ui-entity-selected.png"))

    # the playground, asked as of the demo's last day (where it starts), with what it did not pack
    browser.get(f"{server}/banks/demo/recall")
    assert browser.find_element(By.ID, "as_of").get_attribute("value") == "2025-12-19"
    browser.find_element(By.ID, "q").send_keys("When did the billing database migration finish?")
    browser.find_element(By.NAME, "dropped").click()
    browser.find_element(By.ID, "run").click()
    wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "#results tbody tr")))
    first = browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")[0].find_elements(By.TAG_NAME, "td")
    assert first[0].text == "1" and "billing database migration is done" in first[1].text
    assert browser.find_element(By.ID, "asked-at").text == "2025-12-19 23:59:59 UTC"
    assert browser.find_element(By.ID, "window").text == "none"
    assert browser.find_elements(By.CSS_SELECTOR, "#results .stack .base")
    table = browser.find_element(By.ID, "results").rect
    assert table["x"] + table["width"] <= 1400  # every column in view
    assert browser.find_elements(By.CSS_SELECTOR, "#dropped tbody tr")
    browser.save_screenshot(str(shots / "ui-recall.png"))
