"""The inspector in a real browser: Debian's chromium, headless, driven by selenium. The recall
playground is loaded, a query typed and submitted, and the result table read; each page is
photographed (into $HINDSIGHT_UI_SCREENSHOTS when set, e.g. docs/images, else a temporary
directory)."""

from __future__ import annotations

import os
import shutil
import time
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
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def test_the_playground_in_chromium(server, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    shots = Path(os.environ.get("HINDSIGHT_UI_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    wait = WebDriverWait(browser, 30)

    browser.get(server)
    assert browser.find_element(By.CSS_SELECTOR, "#banks tbody td a").text == "demo"
    browser.save_screenshot(str(shots / "ui-banks.png"))

    browser.get(f"{server}/banks/demo?by=month")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#histogram .bar")) >= 12  # a year of months
    browser.save_screenshot(str(shots / "ui-timeline.png"))

    browser.get(f"{server}/banks/demo/entities")
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#graph canvas"))  # vis-network drew the graph
    time.sleep(2)  # let the layout settle for the picture
    assert {"Tom", "Priya"} <= {e.text for e in browser.find_elements(By.CSS_SELECTOR, "#entities tbody td a")}
    browser.save_screenshot(str(shots / "ui-entities.png"))

    browser.get(f"{server}/banks/demo/recall")
    box = browser.find_element(By.ID, "q")
    box.send_keys("When did the billing database migration finish?")
    browser.find_element(By.ID, "run").click()
    wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "#results tbody tr")))
    first = browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")[0].find_elements(By.TAG_NAME, "td")
    assert first[0].text == "1" and "billing database migration is done" in first[1].text
    assert browser.find_element(By.ID, "window").text == "none"
    assert browser.find_elements(By.CSS_SELECTOR, "#results .stack .base")
    browser.save_screenshot(str(shots / "ui-recall.png"))
