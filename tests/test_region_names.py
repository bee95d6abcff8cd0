"""Regions named by their colour on screen ("the purple region"), never by letters the user does
not see; letters stay for text puzzles. The live hint takes the colours it read, the practice
page's Hint the page's own palette."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from queens_autosolve.pages.practice import REGION_COLOURS, PracticeServer
from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.vision.colour_names import NAMED_COLOURS, colour_name, region_colour_names
from tests.live import post
from tests.render import PALETTE, hex_rgb, render_board

REPO = Path(__file__).resolve().parents[1]
LETTER_NAME = re.compile(r"\bregions? [A-Z]\b")
COLOUR_NAMES = "|".join(re.escape(name) for name, _ in NAMED_COLOURS)
COLOUR_NAME = re.compile(rf"\bthe ({COLOUR_NAMES})(, ({COLOUR_NAMES}))*( and ({COLOUR_NAMES}))? regions?\b")


@pytest.mark.parametrize("count", range(4, len(REGION_COLOURS) + 1))
def test_the_practice_palettes_regions_get_different_names(count):
    names = region_colour_names([hex_rgb(c) for c in REGION_COLOURS[:count]])
    assert names is not None and len(set(names)) == count


def test_the_first_linkedin_colours_get_the_names_a_person_would_give():
    names = region_colour_names([hex_rgb(c) for c in REGION_COLOURS[:6]])
    assert names == ("purple", "light orange", "light blue", "light green", "light grey", "coral")


def test_two_similar_colours_get_distinct_names_the_nearer_one_the_plain_name():
    mint, light_green = (177, 241, 196), (193, 241, 177)
    assert colour_name(mint) == colour_name(light_green)  # alone, both are the same name
    names = region_colour_names([mint, light_green])
    assert names is not None and names[0] != names[1]
    green, pale = (130, 200, 100), (180, 225, 160)
    assert region_colour_names([pale, green]) == ("light green", "green")
    assert region_colour_names([green, pale]) == ("green", "light green")  # whatever the order


def test_more_regions_than_names_keep_their_letters():
    assert region_colour_names([(i, i, i) for i in range(len(NAMED_COLOURS) + 1)]) is None


def board_png(puzzle: Puzzle, folder: Path) -> Path:
    path = folder / "board.png"
    Image.fromarray(render_board(puzzle.label_rows(), ["." * puzzle.n] * puzzle.n, cell=48)).save(path)
    return path


def command(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "queens_autosolve", *args], capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout


PUZZLE = read_puzzles(str(REPO / "games" / "queens-08.txt"))[0]


def test_explaining_a_screenshot_names_regions_by_the_colours_read(tmp_path):
    out = command("solve", "--image", str(board_png(PUZZLE, tmp_path)), "--explain")
    assert not LETTER_NAME.search(out), out
    expected = region_colour_names([hex_rgb(PALETTE[g]) for g in range(PUZZLE.region_count)])
    assert expected is not None
    said = {name for name in expected if f"the {name} region" in out or f" {name} and " in out}
    assert len(said) >= 3 and COLOUR_NAME.search(out)


def test_the_live_hint_names_the_region_by_colour(tmp_path):
    out = command("hint", "--image", str(board_png(PUZZLE, tmp_path)))
    step = next(line for line in out.splitlines() if line.startswith("next step"))
    assert COLOUR_NAME.search(step) and not LETTER_NAME.search(step), step


def test_a_text_puzzle_keeps_its_letters(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text((REPO / "games" / "queens-08.txt").read_text().split("\n\n")[0] + "\n")
    out = command("solve", str(path), "--explain")
    assert LETTER_NAME.search(out) and not COLOUR_NAME.search(out)


def test_the_practice_pages_hint_names_regions_by_the_pages_colours():
    expected = region_colour_names([hex_rgb(c) for c in REGION_COLOURS[:PUZZLE.region_count]])
    assert expected is not None
    seen: list[str] = []
    with PracticeServer(PUZZLE) as server:
        states = ["." * PUZZLE.n] * PUZZLE.n
        for _ in range(12):  # follow the hints until a few have named regions
            status, answer = post(server, "/api/hint", {"states": states})
            assert status == 200
            step = answer["step"]
            if step is None:
                break
            assert not LETTER_NAME.search(step["text"]), step["text"]
            seen += [name for name in expected if f"{name} region" in step["text"]]
            rows = [list(row) for row in states]
            for r, c in step["marks"]:
                rows[r][c] = "x"
            if step["queen"]:
                rows[step["queen"][0]][step["queen"][1]] = "Q"
            states = ["".join(row) for row in rows]
    assert seen, "no hint named a region"
