"""Every lab reads as a lesson: no code cell over 20 lines (explorer and plotting logic lives in
netlab's plots_* modules and the models), and every exercise's tolerance is checked, in a hidden
instructor cell, against the tempting wrong answers its solution names."""

import json
import pathlib
import re

import pytest

LABS = sorted((pathlib.Path(__file__).resolve().parents[1] / "labs").glob("lab*.ipynb"))


def _code_cells(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [("".join(c["source"]), c.get("metadata", {}).get("tags", [])) for c in nb["cells"]
            if c["cell_type"] == "code"]


def test_every_lab_is_checked():
    assert len(LABS) == 11


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.stem)
def test_no_code_cell_over_20_lines(path):
    for source, _ in _code_cells(path):
        assert len(source.splitlines()) <= 20, source[:200]


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.stem)
def test_every_exercise_is_checked_against_tempting_wrong_answers(path):
    checks = [s for s, tags in _code_cells(path) if "remove-cell" in tags and "TEMPTING" in s]
    assert len(checks) == 1, f"{path.name}: one hidden TEMPTING cell expected"
    exercises = {m for s, _ in _code_cells(path) for m in re.findall(r"(\w+) = exercises\.(?:numeric|varied)\(", s)}
    assert len(exercises) >= 3
    for ex in exercises:
        assert f"{ex}:" in checks[0], f"{path.name}: {ex} has no tempting wrong answers checked"
