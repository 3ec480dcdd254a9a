"""A classroom on the static site (issue 34), in headless Chromium with every other host blocked.

A student gives a name, answers three exercises of a lab, reloads the page, finds the answers
and verdicts again, and downloads the report (JSON checked field by field, Markdown checked
against netlab's own writer); a second name gets other numbers and other accepted answers on the
same exercise. Expected variants, prompts and verdicts come from Python (netlab.exercises and
the page's data read by tests.site.exercise_battery), never from the script under test.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from netlab import exercises
from tests.site import browser_checks, exercise_battery as eb
from tests.site.sitefiles import SiteServer

pytestmark = pytest.mark.browser

LAB = "labs/lab02-links.html"
FIRST, SECOND = "Ada Lovelace", "Alan Turing"


def _variant(ex, name):
    i = exercises.variant_index(name, ex.key, len(ex.variants))
    return i, ex.variants[i]["prompt"], eb.variant_spec(ex.variants[i]["spec"], ex.spec)


@pytest.fixture(scope="module")
def lab(site_root, browser_required):
    """The lab's page open in a fresh browser profile, the network blocked; requests elsewhere recorded."""
    from playwright.sync_api import sync_playwright

    found = {ex.key: ex for ex in eb.site_exercises(site_root) if ex.page == LAB and ex.variants}
    assert len(found) >= 3, f"{LAB} has {len(found)} varied exercises"
    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    blocked: list[str] = []
    errors: list[str] = []
    try:
        with SiteServer(site_root) as server, sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=browser_checks.CHROMIUM, headless=True, args=browser_checks.CHROMIUM_ARGS,
                viewport=browser_checks.DESKTOP, accept_downloads=True, service_workers="block")
            context.route(browser_checks.elsewhere(server.base_url),
                          lambda r: (blocked.append(r.request.url), r.abort("blockedbyclient")))
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server.base_url + LAB, wait_until="load")
            yield page, found
            context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert not blocked, f"the page asked another host for {blocked}"
    assert not errors, errors


def _form(page, key):
    return page.locator(f'.netlab-exercise[data-key="{key}"]')


def _answer(page, key, typed):
    form = _form(page, key)
    form.locator(".netlab-exercise-input").fill(typed)
    form.locator(".netlab-exercise-check").click()
    return form.locator(".netlab-exercise-feedback").text_content()


def _use_name(page, name):
    page.fill("#netlab-student", name)
    page.click(".netlab-student-save")


def _download(page, kind) -> str:
    with page.expect_download() as info:
        page.locator(f".netlab-answers .netlab-answers-{kind}").click()
    assert info.value.suggested_filename == f"lab02-links-answers.{kind}"
    return Path(info.value.path()).read_text(encoding="utf-8")


def test_answers_survive_a_reload_and_download_as_a_report(lab):
    page, found = lab
    _use_name(page, FIRST)
    keys = ["ex-serialize", "ex-bdp", "ex-nvlink"]
    typed = {}
    for key in keys:
        index, prompt, spec = _variant(found[key], FIRST)
        assert index > 0 and _form(page, key).locator(".netlab-exercise-prompt").text_content() == prompt
        right, wrong = repr(spec["answer"]), repr(spec["answer"] * 8)
        attempts = [wrong, right] if key == "ex-serialize" else [right] if key == "ex-bdp" else [wrong]
        for text in attempts:
            assert _answer(page, key, text) == exercises.check_spec(spec, text).message
        typed[key] = (attempts, index, prompt, spec)
    page.reload(wait_until="load")
    for key, (attempts, _, _, spec) in typed.items():
        form = _form(page, key)
        assert form.locator(".netlab-exercise-input").input_value() == attempts[-1]
        assert form.locator(".netlab-exercise-feedback").text_content() == exercises.check_spec(spec, attempts[-1]).message
    report = json.loads(_download(page, "json"))
    assert report["format"] == exercises.REPORT_FORMAT and report["name"] == FIRST and report["lab"] == "lab02-links"
    assert report["title"].endswith("Lab 2: Moving bytes over links")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", report["created"])
    rows = {r["key"]: r for r in report["exercises"]}
    assert [r["key"] for r in report["exercises"]] == keys
    for key, (attempts, index, prompt, spec) in typed.items():
        row = rows[key]
        assert tuple(row) == exercises.REPORT_FIELDS
        verdict = exercises.check_spec(spec, attempts[-1])
        assert (row["answer"], row["attempts"], row["variant"], row["prompt"]) == (attempts[-1], len(attempts), index, prompt)
        assert (row["correct"], row["verdict"], row["unit"]) == (verdict.correct, verdict.message, spec["unit"])
        assert row["first_attempt"] <= row["last_attempt"] and row["params"]
    assert report["score"] == {"correct": 2, "answered": 3, "total": 3}
    markdown = _download(page, "md")
    written = re.search(r"^- Written: (.*)$", markdown, re.M).group(1)
    assert markdown == exercises.report_markdown({**report, "created": written})


def test_a_second_student_gets_other_numbers_and_other_answers(lab):
    page, found = lab
    ex = found["ex-bdp"]
    first, second = _variant(ex, FIRST), _variant(ex, SECOND)
    assert first[0] != second[0] and first[2]["answer"] != second[2]["answer"]   # else pick another pair of names
    _use_name(page, SECOND)
    form = _form(page, "ex-bdp")
    assert form.locator(".netlab-exercise-prompt").text_content() == second[1] != first[1]
    assert form.locator(".netlab-exercise-input").input_value() == ""        # Ada's answer was for her numbers
    assert not _answer(page, "ex-bdp", repr(first[2]["answer"])).startswith("Correct")
    assert _answer(page, "ex-bdp", repr(second[2]["answer"])).startswith("Correct")
    _use_name(page, "")
    assert form.locator(".netlab-exercise-prompt").text_content() == ex.variants[0]["prompt"]
