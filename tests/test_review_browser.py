"""Issue 25, item 5: the review page in a real browser. Debian's Chromium, headless, driven through Debian's
chromedriver (selenium, given both paths, downloads nothing): load the page from file://, click a claim, and
check that its source line scrolled into view and is highlighted; load pages built from hostile KB text and a
hostile brief JSON, and check that no script ran and the text shows as text.

Without Chromium the tests skip with the reason, except under CI (``CI`` set), where they fail: CI installs
Chromium in ``.ci/run`` and must never pass by skipping them.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLE_MANIFEST, MakeKB
from e1prep.brief.review import render_review
from e1prep.kb.loading import load_kb
from e1prep.pipeline import draft_brief
from test_review import HOSTILE_NOTE

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: flags that keep a headless Chromium off the network (no updates, sync, QUIC probes or first-run pages)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,800",
)


def _missing() -> str:
    """Why the browser test cannot run here, or "" when it can."""
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.access(tool, os.X_OK):
            return f"{tool} is not installed (apt-get install chromium chromium-driver; .ci/run does)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    return ""


def require_browser() -> None:
    """Skip with the reason when the browser cannot run here; under CI, fail instead."""
    why = _missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"the review page's browser test cannot run under CI: {why}")
        pytest.skip(why)


def test_without_chromium_it_skips_locally_and_fails_under_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no-chromium is not installed"):
        require_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"cannot run under CI: .*no-chromium"):
        require_browser()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # selenium's manager never goes looking for a driver
    profile = tempfile.mkdtemp(prefix="e1prep-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def open_page(browser: Any, html: str, folder: Path) -> None:
    page = folder / "review.html"
    page.write_text(html, encoding="utf-8")
    browser.get(page.as_uri())


def files_of(manifest: Path) -> list[Any]:
    kb = load_kb(manifest)
    return [*kb.materials, *kb.spot_checks, kb.knowledge_material]


#: where an element stands: its rectangle against the window's and against every scrolling pane around it
IN_VIEW = """
const el = document.getElementById(arguments[0]);
if (!el) return null;
const r = el.getBoundingClientRect();
let inside = r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
for (let p = el.parentElement; p; p = p.parentElement) {
  if (p.scrollHeight > p.clientHeight && getComputedStyle(p).overflowY !== 'visible') {
    const b = p.getBoundingClientRect();
    inside = inside && r.top >= b.top && r.bottom <= b.bottom;
  }
}
return {inside: inside, target: el.matches(':target'), background: getComputedStyle(el).backgroundColor};
"""


def test_clicking_a_claim_brings_its_source_line_into_view_highlighted(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    brief = draft_brief(EXAMPLE_MANIFEST)
    open_page(browser, render_review(brief, files_of(EXAMPLE_MANIFEST)), tmp_path)
    claims = browser.find_elements(By.CSS_SELECTOR, "a.claim")
    assert len(claims) > 40
    # a claim whose line is far down the materials: not in view before the click
    far = [c for c in claims if not browser.execute_script(IN_VIEW, c.get_attribute("href").split("#")[1])["inside"]]
    assert far, "every source line is in view before any click: the test would prove nothing"
    claim = far[-1]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", claim)
    line = claim.get_attribute("href").split("#")[1]
    before = browser.execute_script(IN_VIEW, line)
    assert before["inside"] is False and before["target"] is False
    claim.click()
    after = browser.execute_script(IN_VIEW, line)
    assert after["inside"] is True, (line, after)
    assert after["target"] is True
    assert after["background"] == "rgb(255, 213, 79)"  # the :target highlight, not the cited lines' tint
    assert browser.execute_script("return document.scripts.length") == 0


def _no_script_ran(browser: Any) -> None:
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    assert browser.execute_script("return document.querySelectorAll('script, img, textarea, iframe').length") == 0
    handlers = browser.execute_script(
        "return [...document.querySelectorAll('*')].flatMap(e => [...e.attributes].map(a => a.name))"
        ".filter(n => n.startsWith('on'))"
    )
    assert handlers == []
    assert browser.execute_script("return [...document.links].filter(a => !/^(file|https?):/.test(a.href)).length") == 0


def test_hostile_kb_text_runs_nothing_and_shows_as_text(browser: Any, tmp_path: Path, make_kb: MakeKB) -> None:
    manifest = make_kb({"inbox/eve/2026-10-25-hostile.md": HOSTILE_NOTE})
    open_page(browser, render_review(draft_brief(manifest), files_of(manifest)), tmp_path)
    _no_script_ran(browser)
    text = browser.execute_script("return document.getElementById('materials').innerText")
    assert "<script>window.__pwned = 1</script>" in text
    assert '</textarea><img src=x onerror="window.__pwned=2">' in text
    assert "javascript:window.__pwned=3" in text and '"onmouseover="window.__pwned=4" x="' in text
    assert "\\x1b[31mRED\\x1b[0m" in text and "\x1b" not in text


def test_a_hostile_brief_json_runs_nothing_and_shows_as_text(browser: Any, tmp_path: Path) -> None:
    brief = draft_brief(EXAMPLE_MANIFEST)
    evil = '<img src=x onerror="window.__pwned=1">\u202eevil\u202c"><script>window.__pwned=2</script>'
    inc = brief.increments[0].model_copy(
        update={"key": evil, "title": evil, "url": "javascript:window.__pwned=3", "points": [evil]}
    )
    hostile = brief.model_copy(update={"increments": [inc], "judgement": evil})
    open_page(browser, render_review(hostile, files_of(EXAMPLE_MANIFEST)), tmp_path)
    _no_script_ran(browser)
    text = browser.execute_script("return document.getElementById('brief').innerText")
    assert '<img src=x onerror="window.__pwned=1">\\u202eevil\\u202c"><script>window.__pwned=2</script>' in text
    assert "javascript:window.__pwned=3" in text and "\u202e" not in text
