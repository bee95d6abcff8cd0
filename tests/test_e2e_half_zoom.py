"""A board already half solved by the user, in a browser we did not write: Firefox under openbox
at 50% zoom, where it draws no cell line inside a region. The tool must read the user's queens
and X marks there and click only what is missing.

Found live: the crowns on such a board made it unreadable ("no board"), so a user's half-solved
board could not be finished at 50%, nor could a second round re-read the board its first round
had clicked.
"""

from __future__ import annotations

import random

import pytest
from live import practice_page

from autosolve.commands.run import report_lines
from autosolve.pipeline import Options, Outcome, Source, run
from solver.generate import generate_puzzle
from solver.search import search

pytestmark = pytest.mark.e2e


def test_firefox_at_half_zoom_finishes_a_board_the_user_began(openbox_firefox, openbox_xvfb):
    puzzle = generate_puzzle(9, rng=random.Random(9003))
    queens = search(puzzle).solution.queens
    begun = [["."] * 9 for _ in range(9)]
    for i, (r, c) in enumerate(queens):
        begun[r][c] = "x" if i in (2, 5) else "." if i == 7 else "Q"  # two marks to turn, one left
    initial = ["".join(row) for row in begun]
    with practice_page(openbox_firefox, puzzle, zoom=0.5, initial=initial, win_screen="none") as server:
        result = run(Source(display=openbox_xvfb.display), Options())
        state = server.wait_for(solved=True, timeout=5) if result.ok else server.state()
    text = "\n".join(report_lines(result))
    assert state.solved and state.page_solved, f"page reports {state.states}\n{text}"
    assert set(state.queens) == set(queens)
    assert result.outcome is Outcome.SOLVED, text
    # the user's marks were read: x -> queen twice (one click each), empty -> queen (two); a busy
    # Firefox may still drop a click, which a second round makes good
    assert result.rounds[0].clicks == 4, text
