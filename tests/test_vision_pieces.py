"""Regions painted in pieces (issue 30): some community puzzles give one colour to two or more
separate areas. A region is its colour: areas that group into exactly N colours are N regions;
otherwise the refusal says how many areas in how many colours it saw."""

from __future__ import annotations

import pytest

from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import search
from queens_autosolve.vision import RegionsUnreadable, read_board
from tests.render import render_board

# Region C is two areas of one colour: r1c7-r2c7, and the ten cells from r3c6 down (touching
# the first only at a corner).
IN_PIECES = ["AAAABBCD", "AAAAAACD", "AAAAACDD", "AAEFFCDG", "AAEFFCCG", "AAEEEECG", "AHHHHCCC", "AHHHHHCC"]


def areas(rows: list[str], letter: str) -> int:
    """How many separate areas `letter` covers."""
    cells = {(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v == letter}
    count = 0
    while cells:
        count += 1
        stack = [cells.pop()]
        while stack:
            r, c = stack.pop()
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in cells:
                    cells.remove(near)
                    stack.append(near)
    return count


def test_a_region_in_two_pieces_is_read_as_one_region_and_the_puzzle_is_unique():
    assert max(areas(IN_PIECES, letter) for letter in "ABCDEFGH") == 2  # the case under test
    reading = read_board(render_board(IN_PIECES, page=True))
    expected = Puzzle.from_rows(IN_PIECES).regions
    assert reading.n == 8 and reading.regions == expected
    assert reading.is_certain, reading.reasons
    assert search(reading.puzzle(), limit=2).count == 1


def test_areas_that_do_not_come_to_n_colours_are_refused_saying_so():
    nine = [row.replace("G", "I") if r >= 4 else row for r, row in enumerate(IN_PIECES)]  # 9 colours
    with pytest.raises(RegionsUnreadable, match=r"found \d+ areas in 9 colours on the 8x8 board, expected 8"):
        read_board(render_board(nine, page=True))
