"""Super Queen: shortest captures against a plain BFS, the printed path, and bad boards."""

from __future__ import annotations

import random

import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.twoplayer.game import PositionError
from queens_autosolve.twoplayer.superqueen import SuperQueenBoard, shortest_path
from tests.twoplayer_oracles import is_path_legal, naive_distance


def test_agrees_with_a_naive_bfs_on_random_boards():
    rng = random.Random(7)
    found = 0
    for seed in range(400):
        board = SuperQueenBoard.random(rng.randint(2, 14), rng.random() * 0.8, seed)
        result = shortest_path(board)
        assert result.moves == naive_distance(board), str(board)
        if result.found:
            found += 1
            assert len(result.path) == result.moves + 1 and is_path_legal(board, result.path)
    assert 50 < found < 400  # both outcomes were exercised


def test_slides_stop_at_pieces_and_knight_moves_jump():
    board = SuperQueenBoard.parse("S X K\nX X .\n. . .")
    assert shortest_path(board).moves == 2  # knight to b1, then up... or c2 via knight then c3
    walled = SuperQueenBoard.parse("S X X X\nX X X X\nX X . X\nX X X K")
    assert not shortest_path(walled).found
    jumps = SuperQueenBoard.parse("S X . .\nX X K .\n. . . .\n. . . .")
    assert shortest_path(jumps).moves == 1


def test_the_path_is_printed_with_q_on_the_stops(tmp_path, capsys):
    path = tmp_path / "board.txt"
    text = "S . . . .\nX X X X .\n. . . . .\n. X X X X\n. . . . K\n"
    path.write_text(text)
    assert main(["play", "superqueen", "--board", str(path)]) == 0
    out = capsys.readouterr().out
    # S slides to c5, jumps to d3, jumps to the king on e1
    assert naive_distance(SuperQueenBoard.parse(text)) == 3
    assert "minimum moves: 3" in out
    drawn = out.split("minimum moves: 3\n")[1].splitlines()
    assert sum(line.count("Q") for line in drawn) == 2
    assert [line.replace("Q", ".") for line in drawn] == text.splitlines()


def test_not_found_is_said_plainly(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text("SX..\nXXX.\n.X..\n...K\n")
    assert main(["play", "superqueen", "--board", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("not found")


@pytest.mark.parametrize(("text", "reason"), [
    ("S.\n.", "row 2 has 1 cells"),
    ("S.K\n...\n..Z", "'Z' is not S, K, X or ."),
    ("S.\n..", "needs one S"),
    ("SS\nK.", "more than one S"),
    ("", "N must be 1..100"),
])
def test_bad_boards_are_refused_with_the_reason(text, reason):
    with pytest.raises(PositionError, match=reason.replace("(", r"\(").replace(".", r"\.")):
        SuperQueenBoard.parse(text)


def test_file_errors_exit_2(tmp_path, capsys):
    assert main(["play", "superqueen", "--board", str(tmp_path / "nope.txt")]) == 2
    big = tmp_path / "big.txt"
    big.write_text("\n".join(["." * 101] * 101))
    assert main(["play", "superqueen", "--board", str(big)]) == 2
    assert main(["play", "superqueen", "--random", "101"]) == 2
    assert "out of range" in capsys.readouterr().err


def test_random_boards_repeat_with_the_seed_and_n100_is_solved_exactly():
    first = SuperQueenBoard.random(100, 0.35, seed=5)
    assert first == SuperQueenBoard.random(100, 0.35, seed=5)
    assert shortest_path(first).moves == naive_distance(first)  # its speed: benchmarks/twoplayer.py
