"""What the commands print around their results: errors under --json, `generate --json`, `arena
--json` and its Elo line, the bench tables' width and wording, progress bars only on a terminal."""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from queens_autosolve.autosolve.cli import build_parser, main
from queens_autosolve.bench.report import WIDTH, baseline_text
from queens_autosolve.bench.times import BaselineRun
from queens_autosolve.solver.formats import format_puzzle, parse_puzzles
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.twoplayer.matches import MatchResult

REPO = Path(__file__).resolve().parents[1]

# A command line per command that has --json, each refused for a reason of its own.
FAILING_JSON_COMMANDS = {
    "run": ["run", "--json", "--image", "/nonexistent/board.png"],
    "solve": ["solve", "--json", "/nonexistent/puzzles.txt"],
    "generate": ["generate", "--json", "--size", "6", "--count", "0"],
    "bench": ["bench", "--json", "/nonexistent/puzzles.txt"],
    "detect": ["detect", "--json", "/nonexistent/board.png"],
    "demo": ["demo", "--json", "--size", "99"],
    "hint": ["hint", "--json", "--image", "/nonexistent/board.png"],
    "play queens": ["play", "queens", "--json", "--analyse", "/nonexistent/boards.txt"],
    "arena queens": ["arena", "queens", "--json", "--games", "0"],
    "arena amazons": ["arena", "amazons", "--json", "--games", "0"],
    "watch": ["watch", "--json", "--display", ":987"],  # no X server there
}


def _commands_with_json(parser: argparse.ArgumentParser, prefix: str = "") -> set[str]:
    """Every (sub)command whose parser takes --json, named as FAILING_JSON_COMMANDS names them."""
    found = set()
    for action in parser._actions:
        if "--json" in action.option_strings and prefix:
            found.add(prefix)
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= _commands_with_json(sub, f"{prefix} {name}".strip())
    return found


def test_every_command_with_json_is_checked_for_its_error_line():
    assert _commands_with_json(build_parser()) == set(FAILING_JSON_COMMANDS)


@pytest.mark.parametrize("argv", FAILING_JSON_COMMANDS.values(), ids=FAILING_JSON_COMMANDS.keys())
def test_json_commands_print_their_error_as_json_on_stdout_too(capsys, argv):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    (line,) = out.splitlines()
    message = json.loads(line)["error"]
    assert err.splitlines()[-1] == f"queens-autosolve: error: {message}"


def test_a_refused_command_line_under_json_is_a_json_error_too(capsys):
    assert main(["solve", "--json", "--no-such-option"]) == 2
    out, err = capsys.readouterr()
    assert "no-such-option" in json.loads(out)["error"] and "no-such-option" in err


def test_without_json_errors_stay_off_stdout(capsys):
    assert main(["generate", "--size", "6", "--count", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--count 0" in err


def test_generate_json_gives_one_object_per_puzzle_with_the_text_formats_rows(capsys):
    assert main(["generate", "--json", "--size", "7", "--seed", "5", "--count", "2"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["generate", "--size", "7", "--seed", "5", "--count", "2"]) == 0
    texts = parse_puzzles(capsys.readouterr().out)
    assert [r["name"] for r in records] == [p.name for p in texts] == ["gen-n7-k1-s5", "gen-n7-k1-s6"]
    for record, puzzle in zip(records, texts):
        assert (record["n"], record["k"], record["rule"]) == (7, 1, "touch")
        assert record["meta"] == {"seed": record["name"][-1]}
        rebuilt = Puzzle.from_rows(record["rows"], name=record["name"], meta=record["meta"])
        assert format_puzzle(rebuilt) == format_puzzle(puzzle)


def test_arena_json_has_the_score_and_a_finite_elo(capsys):
    assert main(["arena", "queens", "--p1", "greedy", "--p2", "random", "--games", "4", "--size", "6",
                 "--quiet", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == result["p1_wins"] + result["p2_wins"] == 4
    assert (result["p1"], result["p2"]) == ("greedy", "random")
    assert result["elo"] is None or isinstance(result["elo"], float)


def test_a_clean_sweep_says_who_won_every_game_instead_of_infinity(capsys):
    sweep = MatchResult("perfect", "random", 6, 0, (0.001, 0.0), (0.002, 0.0))
    assert "inf" not in sweep.summary() and "perfect won all 6 games" in sweep.summary()
    assert sweep.as_json()["elo"] is None and sweep.as_json()["elo_error_95"] is None
    assert main(["arena", "queens", "--p1", "perfect", "--p2", "random", "--games", "6", "--size", "6",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "perfect won all 6 games" in out and "inf" not in out and "(95%)" not in out


@pytest.mark.parametrize("argv", [["arena", "queens"], ["arena", "amazons"], ["play", "amazons"]])
def test_timeout_help_mentions_analyse_only_where_there_is_one(capsys, argv):
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    help_text = capsys.readouterr().out
    assert "--timeout" in help_text and "--analyse" not in help_text


def test_play_queens_timeout_help_still_mentions_analyse(capsys):
    with pytest.raises(SystemExit):
        main(["play", "queens", "--help"])
    assert "--analyse about one board" in " ".join(capsys.readouterr().out.split())


def test_baseline_line_names_which_time_is_whose():
    text = baseline_text(BaselineRun(3, 0.02, 0.0006, 3.0))
    assert "solver 33.3x faster (baseline 20.00 ms, solver 0.60 ms)" in text


def test_bench_report_fits_120_columns(capsys):
    files = [str(REPO / "games" / "queens-05.txt"), str(REPO / "games" / "queens-10.txt")]
    assert main(["bench", *files, "--baseline-budget", "1", "--peer-budget", "1", "--grade-budget", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    peer_header = next(line for line in lines if "board" in line and "puzzles" in line)
    assert peer_header.rstrip().endswith("backtracking")  # the table's last column, on the header's line


PROGRESS_COMMANDS = {
    "generate": ["generate", "--size", "7", "--count", "3", "--seed", "1", "--out", os.devnull],
    "bench": ["bench", str(REPO / "games" / "queens-10.txt"), "--no-peers", "--no-baseline", "--no-grade"],
}


def _run_with_stderr(argv: list[str], stderr: int) -> None:
    """The command in a child process with `stderr` as its standard error."""
    subprocess.run([sys.executable, "-m", "queens_autosolve", *argv],
                   stderr=stderr, stdout=subprocess.DEVNULL, check=True, timeout=120)


def _terminal_output(argv: list[str]) -> bytes:
    """What the command wrote on a terminal (a pty 100 columns wide: a new one has none, and
    tqdm draws nothing into zero columns) given as its standard error."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    seen = b""
    try:
        _run_with_stderr(argv, follower)
        os.close(follower)
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other end is closed and drained
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
    return seen


@pytest.mark.parametrize("name", PROGRESS_COMMANDS)
def test_progress_bars_show_on_a_terminal_and_not_in_a_log_file(tmp_path, name):
    argv = PROGRESS_COMMANDS[name]
    log = tmp_path / "stderr.log"
    with log.open("wb") as into_a_file:
        _run_with_stderr(argv, into_a_file.fileno())
    assert b"%|" not in log.read_bytes() and b"\r" not in log.read_bytes()
    assert b"%|" in _terminal_output(argv)  # a tqdm bar: "42%|####      | 3/7"
