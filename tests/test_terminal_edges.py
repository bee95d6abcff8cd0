"""The terminal games as a person sees them: whose queen is whose, and the legal moves laid out
by row rather than as one wrapped line."""

from __future__ import annotations

import subprocess
import sys

from queens_autosolve.twoplayer.terminal import legal_moves_text


def play(*args: str, moves: str) -> list[str]:
    """`play queens ARGS` in its own process, `moves` typed on its standard input; its output lines."""
    done = subprocess.run([sys.executable, "-m", "queens_autosolve", "play", "queens", *args], input=moves,
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.splitlines()


def test_each_players_queens_are_marked_with_their_number():
    lines = play("--plain", "4", "--p1", "human", "--p2", "human", moves="r1c1\nr2c3\nquit\n")
    played = next(i for i, line in enumerate(lines) if line.endswith("Player 2 plays r2c3"))
    after_both = lines[played + 1:played + 6]
    assert after_both[1].split() == ["1", "1", "-", "-", "-"]
    assert after_both[2].split() == ["2", "-", "-", "2", "-"]
    assert not any("Q" in line for line in after_both)
    assert "A queen shows as 1 or 2: the player who placed it." in lines[:2]


def test_moves_lists_the_64_opening_moves_one_row_a_line():
    lines = play("--plain", "8", "--p1", "human", "--p2", "human", moves="moves\nquit\n")
    start = next(i for i, line in enumerate(lines) if line.endswith("legal moves (64):"))
    rows = lines[start + 1:start + 9]
    assert [row.split(":")[0].strip() for row in rows] == [f"row {r}" for r in range(1, 9)]
    assert all(len(row.split(":")[1].split()) == 8 for row in rows)
    assert max(len(line) for line in rows) <= 78


def test_many_moves_that_are_not_cells_go_in_aligned_columns_and_are_cut_with_a_count():
    names = [f"a{i % 6 + 1}-b{i % 5 + 1}/c{i % 4 + 1}" for i in range(300)]
    lines = legal_moves_text(names)
    assert lines[0] == "legal moves (300):" and lines[-1] == "  ... and 180 more"
    assert max(len(line) for line in lines) <= 78
    assert sum(len(line.split()) for line in lines[1:-1]) == 120
    columns = [[i for i, ch in enumerate(line) if ch != " " and line[i - 1] == " "] for line in lines[1:-1]]
    assert all(starts == columns[0][:len(starts)] for starts in columns)  # each move starts a column
