"""scripts/suite_cpu.py, the census of what each test costs the machine (issue 9's suite time)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from scripts import suite_cpu as census
from tests.checks import present
from tests.environment import ROOT


def test_modules_are_summed_and_the_costliest_comes_first():
    costs = [census.Cost("tests/a.py::x", 1.0, 2.0), census.Cost("tests/b.py::y", 0.5, 0.5),
             census.Cost("tests/b.py::z", 1.0, 0.25)]
    assert census.by_module(costs) == [("tests/b.py", 1.5, 0.75, 2), ("tests/a.py", 1.0, 2.0, 1)]


def test_a_run_counts_every_test_of_its_module():
    run = subprocess.run([sys.executable, "-m", "scripts.suite_cpu", "--no-loop", "--top", "2",
                          "tests/test_puzzle.py"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    passed = int(present(re.search(r"(\d+) passed", run.stdout)).group(1))
    assert passed > 10
    assert f"\n{passed} tests: " in run.stdout
    assert f"{passed:5d}  tests/test_puzzle.py" in run.stdout


def test_workers_are_refused_before_any_test_runs(capsys):
    with pytest.raises(SystemExit) as exit_:
        census.main(["-n", "2"])
    assert exit_.value.code == 2 and "leave out -n" in capsys.readouterr().err
