"""Labs 9-11 read as lessons: no code cell over 20 lines, and every exercise's tolerance is
checked (in a hidden instructor cell) against the tempting wrong answers its solution names."""

import json
import pathlib
import re

import pytest

LABS = pathlib.Path(__file__).resolve().parents[1] / "labs"
MINE = ["lab09-optics-and-power.ipynb", "lab10-across-datacenters.ipynb", "lab11-capstone.ipynb"]


def _code_cells(name):
    nb = json.loads((LABS / name).read_text())
    return [("".join(c["source"]), c.get("metadata", {}).get("tags", [])) for c in nb["cells"]
            if c["cell_type"] == "code"]


@pytest.mark.parametrize("name", MINE)
def test_no_code_cell_over_20_lines(name):
    for source, _ in _code_cells(name):
        assert len(source.splitlines()) <= 20, source[:200]


@pytest.mark.parametrize("name", MINE)
def test_every_exercise_is_checked_against_tempting_wrong_answers(name):
    checks = [s for s, tags in _code_cells(name) if "remove-cell" in tags and "TEMPTING" in s]
    assert len(checks) == 1, f"{name}: one hidden TEMPTING cell expected"
    exercises = {m for s, _ in _code_cells(name) for m in re.findall(r"(\w+) = exercises\.numeric\(", s)}
    assert len(exercises) >= 3
    for ex in exercises:
        assert f"{ex}:" in checks[0], f"{name}: {ex} has no tempting wrong answers checked"
