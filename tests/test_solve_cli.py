"""`queens-autosolve solve` and `bench` through autosolve.cli.main: output, JSON shape, exit codes."""

from __future__ import annotations

import io
import json
import sys
import types

import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.solver.puzzle import Puzzle

PUZZLES = """# easy n=4
ABBB
ABCC
DDCC
DDDD

# stripes n=5
AAAAA
BBBBB
CCCCC
DDDDD
EEEEE

# none n=3
ABC
ABC
ABC
"""


@pytest.fixture
def puzzle_file(tmp_path):
    path = tmp_path / "three.txt"
    path.write_text(PUZZLES)
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_prints_each_name_and_grid_and_says_no_solution(capsys, puzzle_file):
    status, out, _ = run(capsys, "solve", puzzle_file)
    assert status == 1  # the 3x3 board has no answer
    blocks = out.strip().split("\n\n")
    assert blocks[0].splitlines() == ["easy (4x4)", "..Q.", "Q...", "...Q", ".Q.."]
    assert blocks[1].splitlines()[0] == "stripes (5x5)"
    assert sum(row.count("Q") for row in blocks[1].splitlines()[1:]) == 5
    assert blocks[2].splitlines() == ["none (3x3)", "no solution"]


def test_count_reports_solutions_capped_at_two(capsys, puzzle_file):
    _, out, _ = run(capsys, "solve", puzzle_file, "--count")
    counts = [line for line in out.splitlines() if line.startswith("solutions:")]
    assert counts == ["solutions: 1", "solutions: 2 or more", "solutions: 0"]


def test_json_lines_have_the_promised_fields(capsys, puzzle_file):
    status, out, _ = run(capsys, "solve", puzzle_file, "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and len(records) == 3
    for record in records:
        assert {"name", "n", "k", "solutions", "queens", "seconds"} <= set(record)
    assert records[0]["queens"] == [[0, 2], [1, 0], [2, 3], [3, 1]]
    # JSON counts to 2 even without --count: "solutions" is never a 1 that means "at least one"
    assert [r["solutions"] for r in records] == [1, 2, 0]
    assert records[2]["queens"] is None
    _, out, _ = run(capsys, "solve", puzzle_file, "--json", "--count")
    assert [json.loads(line)["solutions"] for line in out.splitlines()] == [1, 2, 0]
    _, out, _ = run(capsys, "solve", puzzle_file, "--json", "--explain")
    steps = [json.loads(line)["steps"] for line in out.splitlines()]
    assert steps[0][-1] == "solved" and steps[2][-1] == "no solution"


def test_explain_prints_numbered_steps_ending_solved(capsys, puzzle_file):
    _, out, _ = run(capsys, "solve", puzzle_file, "--explain")
    first = out.split("\n\n")[0].splitlines()  # the steps follow the first grid
    assert first[:5] == ["easy (4x4)", "..Q.", "Q...", "...Q", ".Q.."]
    assert first[5].strip().startswith("1. ")
    assert first[-1].strip().endswith("solved")


def test_solve_reads_stdin_and_puzzlink(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("ABBB\nABCC\nDDCC\nDDDD\n"))
    status, out, _ = run(capsys, "solve", "-")
    assert status == 0 and "..Q." in out
    status, out, _ = run(capsys, "solve", "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk", "--count")
    assert status == 0 and "solutions: 1" in out


def test_image_goes_through_vision_read_image(capsys, monkeypatch):
    seen = []

    class Reading:
        n, confidence, is_certain, tight_crop, reasons = 4, 1.0, True, False, ()

        def puzzle(self) -> Puzzle:
            return Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"], name="screenshot")

    def read_image(path):
        seen.append(path)
        return Reading()

    monkeypatch.setitem(sys.modules, "queens_autosolve.vision", types.SimpleNamespace(read_image=read_image))
    status, out, _ = run(capsys, "solve", "--image", "board.png")
    assert status == 0 and seen == ["board.png"]
    assert out.startswith("read a 4x4 board from board.png (confidence 1.00)\nscreenshot (4x4)\n..Q.")


@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (["solve"], "nothing to solve"),
        (["solve", "x.txt", "--image", "y.png"], "not both"),
        (["solve", "/no/such/file.txt"], "no such file"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, what):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and what in err and "Traceback" not in err


def test_malformed_file_names_file_and_line(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# ok n=3\nABC\nAB\nABC\n")
    status, _, err = run(capsys, "solve", str(path))
    assert status == 2 and f"{path}:3:" in err and err.count("\n") == 1


# --- bench ----------------------------------------------------------------------------------------


def test_bench_checks_every_answer_and_prints_tables(capsys, tmp_path):
    path = tmp_path / "good.txt"
    two = PUZZLES.split("\n\n# none")[0]
    path.write_text(two.replace("# stripes n=5", "# stripes n=5 solutionsCount=44"))
    status, out, _ = run(capsys, "bench", str(path), "--baseline-budget", "2")
    assert status == 0
    assert "per file" in out and "per size" in out and "good.txt" in out
    assert "4x4 k=1" in out and "5x5 k=1" in out
    assert "vs plain backtracking" in out and "on the 2 puzzle(s) from the top" in out
    assert "all 2 puzzles solved and checked" in out


def test_bench_fails_loudly_on_a_wrong_count(capsys, tmp_path):
    path = tmp_path / "wrong.txt"
    path.write_text("# claims-unique n=5\nAAAAA\nBBBBB\nCCCCC\nDDDDD\nEEEEE\n")
    status, out, _ = run(capsys, "bench", str(path), "--no-baseline")
    assert status == 1
    assert "FAILED: 1 puzzle(s)" in out and "claims-unique: found 2 solution(s), expected 1" in out
    assert "vs plain backtracking" not in out


def test_bench_json_has_files_sizes_total_and_failures(capsys, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("ABBB\nABCC\nDDCC\nDDDD\n")
    status, out, _ = run(capsys, "bench", str(path), "--json")
    report = json.loads(out)
    assert status == 0 and report["failures"] == []
    (entry,) = report["files"]
    assert entry["puzzles"] == 1 and entry["path"] == str(path)
    assert entry["baseline"]["finished"] == 1 and entry["baseline"]["speedup"] > 0
    assert report["sizes"][0]["label"] == "4x4 k=1"
    assert report["total"]["puzzles"] == 1 and report["total"]["max"] >= report["total"]["median"]


def test_bench_stops_the_baseline_at_its_budget(capsys, tmp_path):
    from queens_autosolve.bench.times import bench_file

    path = tmp_path / "stars.txt"
    # A 10x10 two-star board: the plain backtracker needs far longer than 0.05 s to count it.
    path.write_text(
        "# s n=10 k=2\nAAAABBCCCC\nADDBBBBDCC\nAADBDDDDDC\nAADDDEEECC\nAEEEEEEEFC\n"
        "AEEEEGEEFH\nAEEIIGFFFH\nEEJJIGFFGH\nJJJJIGGGGH\nIIIIIIIHHH\n"
    )
    report = bench_file(str(path), baseline_budget=0.05)
    assert report.baseline is not None and report.baseline.finished == 0
    assert not report.failures


def test_bench_reports_a_baseline_that_disagrees(capsys, tmp_path, monkeypatch):
    from queens_autosolve.bench import times

    path = tmp_path / "one.txt"
    path.write_text("ABBB\nABCC\nDDCC\nDDDD\n")
    monkeypatch.setattr(times, "baseline_count", lambda puzzle, limit: (2, None))
    status, out, _ = run(capsys, "bench", str(path))
    assert status == 1 and "baseline counts 2, solver 1" in out


def test_bench_refuses_a_bad_budget(capsys, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("ABBB\nABCC\nDDCC\nDDDD\n")
    status, _, err = run(capsys, "bench", str(path), "--baseline-budget", "0")
    assert status == 2 and "--baseline-budget" in err


def test_baseline_text_survives_runs_too_fast_to_time():
    from queens_autosolve.bench.report import baseline_text
    from queens_autosolve.bench.times import BaselineRun

    assert "no measurable difference" in baseline_text(BaselineRun(3, 0.0, 0.001, 3.0))
    assert "no measurable difference" in baseline_text(BaselineRun(3, 0.002, 0.0, 3.0))
    assert "solver 4.0x faster" in baseline_text(BaselineRun(3, 0.004, 0.001, 3.0))
    assert "baseline 2.0x faster" in baseline_text(BaselineRun(3, 0.001, 0.002, 3.0))


# --- bench --generate --------------------------------------------------------------------------


def test_bench_generate_proves_each_puzzle_unique_and_compares_with_the_baseline(capsys):
    status, out, err = run(capsys, "bench", "--generate", "6,8", "--seeds", "2")
    assert status == 0
    assert "6x6 k=1" in out and "8x8 k=1" in out
    assert "all 8 puzzles unique" in out  # 2 sizes x 2 seeds x (generator + baseline)
    assert "8x8 k=1 seed 2, baseline" in err


def test_bench_generate_json_lists_every_seed(capsys):
    status, out, _ = run(capsys, "bench", "--generate", "6", "--seeds", "3", "--json", "--no-baseline")
    data = json.loads(out)["generator"]
    assert status == 0 and len(data) == 1
    assert data[0]["seeds"] == [1, 2, 3] and len(data[0]["seconds"]) == 3
    assert data[0]["baseline"] is None and data[0]["problems"] == []


def test_bench_generate_reports_a_puzzle_that_is_not_unique(monkeypatch):
    from queens_autosolve.bench import generate_times as genbench

    monkeypatch.setattr(genbench, "count_solutions", lambda puzzle, limit=2: 2)
    run_ = genbench.bench_generator(6, 1, [1], baseline=False)
    assert run_.problems == ("gen-n6-k1-s1: 2 solutions (expected 1)",)
    assert "FAILED: 1 puzzle(s)" in genbench.format_runs([run_])


@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (["bench", "--generate", "3"], "4 or more"),
        (["bench", "--generate", "8", "--seeds", "0"], "at least 1"),
        (["bench", "--generate", "8", "games/queens-05.txt"], "reads no files"),
    ],
)
def test_bench_generate_bad_input_is_one_line_and_status_2(capsys, argv, what):
    status, _out, err = run(capsys, *argv)
    assert status == 2 and what in err and len(err.strip().splitlines()) == 1
