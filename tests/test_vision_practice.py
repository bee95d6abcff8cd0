"""The practice page (autosolve/practice), photographed by headless Chromium, is read exactly:
regions, X marks, crowns and the locked queen, light and dark, at 100% and 150% zoom."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest
from conftest import require_tool

from autosolve.demo import CHROMIUM_NAMES
from autosolve.practice.server import PracticeServer
from solver.puzzle import Puzzle
from solver.regions import random_regions
from solver.search import search
from vision import read_image


def _chromium() -> str | None:
    return next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)


def _marked_puzzle(n: int, seed: int) -> tuple[Puzzle, list[str]]:
    """A puzzle and page states that break no rule: the first queens of its answer (the first
    one locked), X marks elsewhere."""
    rng = random.Random(seed)
    puzzle = Puzzle.from_region_grid(random_regions(n, rng), given=())
    answer = search(puzzle, limit=1).solution
    assert answer is not None
    queens = list(answer)[: n // 2]
    rows = [["x" if rng.random() < 0.2 else "." for _ in range(n)] for _ in range(n)]
    for r, c in queens:
        rows[r][c] = "Q"
    rows[queens[0][0]][queens[0][1]] = "L"
    return Puzzle.from_region_grid(puzzle.regions, given=[queens[0]]), ["".join(row) for row in rows]


@pytest.mark.e2e
@pytest.mark.parametrize(("n", "dark", "zoom"), [(9, False, 1.0), (11, True, 1.5)])
def test_practice_page_screenshot_is_read_exactly(n, dark, zoom, tmp_path):
    chromium = _chromium()
    require_tool(chromium is not None, "Chromium")
    puzzle, states = _marked_puzzle(n, seed=n)
    shot = tmp_path / "page.png"
    with PracticeServer(puzzle, dark=dark, initial=states) as server:
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--force-device-scale-factor={zoom}", f"--screenshot={shot}", "--window-size=1280,1000",
             server.url],
            capture_output=True, timeout=90, check=True,
        )
    reading = read_image(shot)
    assert reading.n == n
    assert Puzzle.from_region_grid(reading.regions).regions == puzzle.regions
    assert reading.state_rows() == states
    assert reading.puzzle().given == puzzle.given
    assert reading.is_certain, reading.reasons
