"""The one definition of the cell-state letters and its one parser (solver/position.py), and the
places that take them from it: the practice page's server and its script."""

from __future__ import annotations

import pytest

from queens_autosolve.pages.practice import STATIC, PracticeServer
from queens_autosolve.solver.position import LETTERS, CellState, Position, StatesError, parse_states
from queens_autosolve.solver.puzzle import Puzzle


def test_each_letter_parses_to_its_state_and_prints_back():
    position = Position.from_rows(["Qx", ".L"])
    assert position.states == ((CellState.QUEEN, CellState.X), (CellState.EMPTY, CellState.LOCKED))
    assert position.rows() == ["Qx", ".L"]
    assert position.queens == {(0, 0), (1, 1)} and position.marks == {(0, 1)}


def test_x_and_q_are_read_as_their_usual_letters():
    assert Position.from_rows(["Xq", ".."]).rows() == ["xQ", ".."]


@pytest.mark.parametrize(
    ("rows", "words"), [(["Qz", ".."], "'z' at r1c2"), (["Q.", "..."], "2 rows of 2 letters")]
)
def test_a_letter_or_a_shape_that_is_not_a_board_is_refused_by_name(rows, words):
    with pytest.raises(StatesError, match=words):
        parse_states(rows)


def test_a_covered_cell_differs_from_nothing():
    before = Position.from_rows(["..", ".."])
    assert not Position(((None, CellState.EMPTY), (CellState.EMPTY, CellState.EMPTY))).differs_from(before)
    assert Position.from_rows(["x.", ".."]).differs_from(before)


def test_the_practice_page_is_served_the_letters_and_keeps_no_copy():
    with PracticeServer(Puzzle.from_rows(["AAB", "ACB", "CCB"])) as server:
        letters = server.puzzle_json()["letters"]
    assert letters == LETTERS
    assert sorted(letters.values()) == sorted(state.value for state in CellState)
    script = (STATIC / "app.js").read_text()
    assert not any(f'"{state.value}"' in script for state in CellState)
