"""The peers of `queens-autosolve bench` (benchmarks/peers.py): each finds our answer and proves it
unique, says when a puzzle has two answers or none, and is left out with the install command
when its package is absent. Behaviour only: no timing asserts."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.bench import peers
from queens_autosolve.bench import report as solve_report
from queens_autosolve.bench import times as solve_times
from queens_autosolve.bench.peers import INSTALL, PEERS, Answer, Peer
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import search
from tests.environment import GAMES, SHARED_DATA

UNIQUE = {
    "4x4": Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"]),
    "stripes, one given": Puzzle.from_rows(["AAAA", "BBBB", "CCCC", "DDDD"], given=[(0, 1)]),
    "6x6 diagonal rule": Puzzle.from_rows(
        ["AAABBB", "CCDDDB", "ECDDDB", "EEEDDF", "EEDDFF", "EEDFFF"], rule="diagonal"
    ),
    "10x10 two stars": Puzzle.from_rows(
        ["AAAABBCCCC", "ADDBBBBDCC", "AADBDDDDDC", "AADDDEEECC", "AEEEEEEEFC",
         "AEEEEGEEFH", "AEEIIGFFFH", "EEJJIGFFGH", "JJJJIGGGGH", "IIIIIIIHHH"], k=2
    ),
}
NOT_UNIQUE = {
    "stripes (two answers)": (Puzzle.from_rows(["AAAA", "BBBB", "CCCC", "DDDD"]), 2),
    "2x2 (no answer)": (Puzzle.from_rows(["AB", "CD"]), 0),
}
FILE = "# easy n=4\nABBB\nABCC\nDDCC\nDDDD\n\n# stripes n=4 solutionsCount=2\nAAAA\nBBBB\nCCCC\nDDDD\n"

ROOT = Path(__file__).resolve().parents[1]  # the checkout, installed editable


def installed(peer: Peer) -> Peer:
    """The peer, or a skip saying which package is absent (the CI installs only the `test` extra)."""
    if peer.needs and importlib.util.find_spec(peer.needs.split(".")[0]) is None:
        pytest.skip(f"{peer.package} is not installed (the optional extra: {INSTALL})")
    return peer


def by_name(name: str) -> Peer:
    return next(p for p in PEERS if p.name == name)


@pytest.fixture
def without_extra(monkeypatch):
    """Imports of the `bench` extra fail, as where it is not installed."""
    for peer in PEERS:
        if peer.needs:
            monkeypatch.setitem(sys.modules, peer.needs, None)


@pytest.mark.parametrize("peer_name", [p.name for p in PEERS])
@pytest.mark.parametrize("puzzle_name", list(UNIQUE))
def test_each_peer_finds_our_answer_and_proves_it_unique(peer_name, puzzle_name):
    peer, puzzle = installed(by_name(peer_name)), UNIQUE[puzzle_name]
    ours = search(puzzle, limit=2)
    assert ours.count == 1
    answer = peer.count(puzzle)
    assert answer.count == 1 and answer.solution == ours.solution


@pytest.mark.parametrize("peer_name", [p.name for p in PEERS])
@pytest.mark.parametrize("puzzle_name", list(NOT_UNIQUE))
def test_each_peer_says_when_a_puzzle_is_not_unique(peer_name, puzzle_name):
    peer = installed(by_name(peer_name))
    puzzle, count = NOT_UNIQUE[puzzle_name]
    assert search(puzzle, limit=2).count == count
    answer = peer.count(puzzle)
    assert answer.count == count
    assert (answer.solution is None) == (count == 0)


def test_propagation_alone_settles_an_easy_board_in_one_node():
    assert peers.propagation_only(UNIQUE["stripes, one given"]).nodes == 1
    assert peers.propagation_only(NOT_UNIQUE["stripes (two answers)"][0]).nodes > 1


def test_the_diagonal_rule_is_in_the_model():
    model = peers.encode(UNIQUE["6x6 diagonal rule"])
    assert (0, 7, 14, 21, 28, 35) in model.at_most_one  # the long diagonal
    assert len(peers.encode(UNIQUE["4x4"]).at_most_one) == 9  # the 2x2 squares only


def test_missing_peers_are_named_with_the_install_command(without_extra):
    ready, missing = peers.available()
    assert [p.name for p in ready] == ["propagation"]
    assert {p.name for p in missing} == {"CP-SAT", "SAT"}
    line = peers.skipped_text(missing)
    assert "\n" not in line and line.endswith(f"to add them: pip install -e '{ROOT}[bench]'")
    assert "ortools" in line and "python-sat" in line


def test_bench_without_the_extra_says_so_once_and_runs_the_rest(without_extra, capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(FILE)
    status = main(["bench", str(path), "--no-grade"])
    out = capsys.readouterr().out
    assert status == 0
    text = " ".join(out.split())  # the sentence may be wrapped to the report's width
    assert text.count("peers skipped") == 1
    skipped = text[text.index("peers skipped"):]
    assert "CP-SAT (needs ortools)" in skipped and "SAT (needs python-sat)" in skipped and INSTALL in skipped
    (row,) = [line for line in out.splitlines() if line.startswith("two ") and "k=1" in line]
    assert row.count("skipped") == 2 and "0/2" in row  # propagation ran on both, settling neither
    assert "all 2 puzzles solved and checked" in out


def test_bench_prints_the_cp_sat_and_sat_ratios(capsys, tmp_path):
    for name in ("CP-SAT", "SAT"):
        installed(by_name(name))
    path = tmp_path / "two.txt"
    path.write_text(FILE)
    assert main(["bench", str(path), "--no-grade"]) == 0
    out = capsys.readouterr().out
    header = next(line.split() for line in out.splitlines() if "board" in line and "CP-SAT" in line)
    assert {"SAT", "propagation", "backtracking"} <= set(header)
    assert "in each peer's column: mean/max ratio" in out
    row = next(line for line in out.splitlines() if line.startswith("two "))
    assert "skipped" not in row and "peers skipped" not in out


def test_a_peer_that_disagrees_fails_the_bench(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(FILE)
    liar = Peer("liar", "counts two everywhere", lambda puzzle: Answer(2, None))
    report = solve_times.bench_file(str(path), baseline_budget=None, peers=[liar])
    assert report.failed
    assert report.disagreements == ["easy: liar counts 2, solver 1"]
    assert "FAILED: 1 puzzle(s)" in solve_report.format_report([report], [liar])


def test_a_peer_out_of_budget_is_cut_off_and_stops(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(FILE)

    def slow(puzzle: Puzzle) -> Answer:
        start = time.thread_time()
        while time.thread_time() - start < 5:
            pass
        return Answer(1, None)

    report = solve_times.bench_file(str(path), baseline_budget=None, peer_budget=0.05,
                                    peers=[Peer("slow", "spins", slow)])
    (run,) = report.peers
    assert run.cut_off and run.finished == 0 and run.sample == 2
    assert not report.failed  # cut off is not wrong


def test_bench_with_no_files_takes_the_samples_and_the_shared_sets_beside_the_checkout():
    if not (SHARED_DATA / "starbattle").is_dir():
        pytest.skip(f"the shared data is not at {SHARED_DATA} (see its SOURCES.md)")
    files = [Path(f) for f in solve_times.default_files(GAMES)]  # sample_folder() in a checkout
    assert sorted(GAMES.glob("*.txt")) == [f for f in files if f.parent == GAMES]
    for folder in ("levels", "starbattle"):
        shared = sorted((SHARED_DATA / folder).glob("*.txt"))
        assert shared and all(path.resolve() in {f.resolve() for f in files} for path in shared), folder


def test_spread_takes_puzzles_from_the_whole_file():
    puzzles = [Puzzle.from_rows(["A"], name=str(i)) for i in range(10)]
    assert [p.name for p in solve_times.spread(puzzles, 3)] == ["0", "3", "6"]
    assert len(solve_times.spread(puzzles, 0)) == len(solve_times.spread(puzzles, 20)) == 10


def test_a_peer_that_takes_over_ctrl_c_gives_it_back(tmp_path):
    import signal

    path = tmp_path / "two.txt"
    path.write_text(FILE)

    def grabs_sigint(puzzle: Puzzle) -> Answer:  # what CP-SAT's C++ solver did after each solve
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        result = search(puzzle, limit=2)
        return Answer(result.count, result.solution)

    before = signal.getsignal(signal.SIGINT)
    try:
        grabber = Peer("grabber", "takes SIGINT", grabs_sigint)
        report = solve_times.bench_file(str(path), baseline_budget=None, peers=[grabber])
        assert signal.getsignal(signal.SIGINT) is before and not report.failed
    finally:
        signal.signal(signal.SIGINT, before)


def test_ctrl_c_after_a_cp_sat_solve_is_still_a_keyboard_interrupt():
    import subprocess

    installed(by_name("CP-SAT"))
    code = ("import os, signal, time; from queens_autosolve.bench import peers\n"
            "from queens_autosolve.solver.puzzle import Puzzle\n"
            "peers.cp_sat(Puzzle.from_rows(['ABBB', 'ABCC', 'DDCC', 'DDDD']))\n"
            "try:\n    os.kill(os.getpid(), signal.SIGINT); time.sleep(5)\n"
            "except KeyboardInterrupt:\n    print('interrupted')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "interrupted", (done.returncode, done.stderr)


def test_ctrl_c_in_bench_after_the_peers_warmed_up_is_interrupted_and_130(tmp_path):
    import subprocess

    installed(by_name("CP-SAT"))
    path = tmp_path / "one.txt"
    path.write_text(FILE)
    # The signal comes once CP-SAT has solved (bench warms every peer up first), as a user's Ctrl-C would.
    code = ("import os, signal, sys, time\n"
            "from queens_autosolve.autosolve import cli\n"
            "from queens_autosolve.autosolve.commands import bench\n"
            "def interrupted(*args, **kwargs):\n"
            "    os.kill(os.getpid(), signal.SIGINT); time.sleep(5)\n"
            "bench.bench_file = interrupted\n"
            f"sys.argv = ['queens-autosolve', 'bench', {str(path)!r}, '--no-baseline', '--no-grade']\n"
            "cli.entry()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr.splitlines()[-1:]) == (130, ["queens-autosolve: interrupted"])
