"""A won board under the page's win screen (vision.winscreen): where no whole board can be read,
gold crowns placed by the rules are the page's own word that it is solved (issue 30, item 8)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.search import search
from queens_autosolve.vision import BoardNotFound, read_board
from queens_autosolve.vision.winscreen import by_the_rules, shows_a_won_board
from tests.checks import present
from tests.render import cell_spans, lay_card, render_board


def board_under_card(n: int, cell: int, seed: int, *, gold: bool, wrong: bool = False) -> np.ndarray:
    """A rendered board with its solution's queens (gold or black; `wrong`: two of them moved to
    touch) under a win card whose edges run through rows and columns."""
    puzzle = generate_puzzle(n, rng=random.Random(seed))
    queens = set(present(search(puzzle).solution).queens)
    if wrong:
        queens = {q for q in queens if q[0] > 1} | {(0, 0), (1, 1)}
    states = ["".join("Q" if (r, c) in queens else "." for c in range(n)) for r in range(n)]
    board = render_board(puzzle.regions, states, cell=cell, gold=gold)
    top, left = round(n * 0.3) + 0.5, round(n * 0.1) + 0.5
    return lay_card(board, cell_spans(n, cell), (top, n - top), (left, n - left))[0]


def read_for_sure(image: np.ndarray) -> bool:
    try:
        return read_board(image).is_certain
    except BoardNotFound:
        return False


@pytest.mark.parametrize(("n", "cell"), [(9, 48), (15, 30), (18, 24)])
def test_gold_crowns_around_a_win_card_show_a_won_board(n, cell):
    image = board_under_card(n, cell, seed=n, gold=True)
    assert not read_for_sure(image)  # the whole board cannot be read: that is when it is asked
    assert shows_a_won_board(image)


def test_a_won_board_under_a_dimmed_backdrop_is_seen_with_the_dimming_undone():
    image = board_under_card(15, 30, seed=3, gold=True)
    dimmed = (image * 0.4).astype(np.uint8)  # black at 60% over the page, as a modal backdrop
    assert shows_a_won_board(dimmed)


@pytest.mark.parametrize(("n", "cell"), [(9, 48), (15, 30)])
def test_black_crowns_or_crowns_breaking_the_rules_are_not_a_won_board(n, cell):
    assert not shows_a_won_board(board_under_card(n, cell, seed=n, gold=False))
    assert not shows_a_won_board(board_under_card(n, cell, seed=n, gold=True, wrong=True))
    assert not shows_a_won_board(render_board([[0] * 5] * 5))  # no crowns at all


def test_by_the_rules():
    assert by_the_rules([(0, 0), (1, 2), (2, 4)])
    assert not by_the_rules([(0, 0), (1, 1)])  # touching diagonally
    assert not by_the_rules([(0, 0), (3, 0)])  # one column
