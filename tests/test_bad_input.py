"""Bad, huge or endless input through the real CLI (`python -m queens_autosolve` in a subprocess;
input that only the parser or a reader refuses, through its `main` in the test's process): one
line on stderr and exit status 2, never a traceback, and never unbounded work."""

from __future__ import annotations

import json
import shlex
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from queens_autosolve.twoplayer.matches import MatchResult, elo_text_of
from tests.checks import present

BIG = "1" * 5000  # past int()'s 4300-digit limit
EASY = "# easy n=4\nABBB\nABCC\nDDCC\nDDDD\n"


def cli(
    *args: str, redirect: str = "", stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    """Run ``python -m queens_autosolve ARGS REDIRECT`` through the shell (so that ``0<&-`` and
    ``> /dev/full`` mean what they do for a user)."""
    command = shlex.join([sys.executable, "-m", "queens_autosolve",
                          *args]) + (" " + redirect if redirect else "")
    return subprocess.run(["sh", "-c", command], input=stdin, capture_output=True, text=True, timeout=timeout,
                          cwd=Path(__file__).resolve().parents[1])


def in_process(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess:
    """The CLI's `main` on ARGS in this process, as `cli` would report it: for input the parser
    or a reader refuses, where what the process adds (start, exit, the shell) is not the point."""
    from queens_autosolve.autosolve.cli import main

    status = main(list(args))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, status, out, err)


def assert_user_error(done: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2, exactly one non-empty line on stderr, no traceback; returns the line."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in lines[0]
    return lines[0]


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@pytest.fixture(scope="module")
def bomb_png(tmp_path_factory) -> Path:
    """A 20000x20000 1-bit PNG: 50 KB on disk, past Pillow's decompression-bomb limit."""
    side = 20_000
    pack = zlib.compressobj(9)
    row = b"\0" * (1 + side // 8)
    data = b"".join(pack.compress(row) for _ in range(side)) + pack.flush()
    path = tmp_path_factory.mktemp("bomb") / "bomb.png"
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)  # 1 bit per pixel, gray
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", data)
                     + _png_chunk(b"IEND", b""))
    return path


@pytest.fixture
def easy(tmp_path) -> Path:
    path = tmp_path / "easy.txt"
    path.write_text(EASY)
    return path


# --- tracebacks before ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["detect", "{}"], ["solve", "--image", "{}"], ["run", "--image", "{}"]])
def test_an_image_too_large_to_open_is_one_line(bomb_png, args):
    done = cli(*[arg.format(bomb_png) for arg in args])
    assert_user_error(done, "too large", str(bomb_png))


@pytest.mark.parametrize("args", [["solve", "-"], ["play", "superqueen", "--board", "-"]])
def test_closed_standard_input_is_one_line(args):
    assert_user_error(cli(*args, redirect="0<&-"), "standard input is closed")


@pytest.mark.parametrize("name", ["out.txt", "folder"])
def test_detect_refuses_a_debug_path_that_is_no_picture_before_reading(tmp_path, name):
    (tmp_path / "folder").mkdir()
    missing_image = tmp_path / "never-read.png"  # the --debug check comes first
    done = cli("detect", str(missing_image), "--debug", str(tmp_path / name))
    assert_user_error(done, "--debug")
    assert "never-read" not in done.stderr


def test_detect_refuses_a_debug_path_in_a_missing_folder(tmp_path):
    assert_user_error(cli("detect", "x.png", "--debug", str(tmp_path / "no" / "out.png")), "does not exist")


@pytest.mark.parametrize("text", [
    f"# big given={BIG},0\nABBB\nABCC\nDDCC\nDDDD\n",
    f"# big n={BIG}\nABBB\nABCC\nDDCC\nDDDD\n",
    f"# big k={BIG}\nABBB\nABCC\nDDCC\nDDDD\n",
])
def test_huge_numbers_in_a_header_are_one_line(text):
    assert_user_error(cli("solve", "-", stdin=text), "<stdin>:1:")


@pytest.mark.parametrize("url", [
    f"https://puzz.link/p?starbattle/{BIG}/6/1/2u9gn9c9jpmk",
    f"https://puzz.link/p?starbattle/6/6/{BIG}/2u9gn9c9jpmk",
])
def test_huge_numbers_in_a_puzzlink_url_are_one_line(url, capsys):
    line = assert_user_error(in_process(capsys, "solve", url), "too long")
    assert len(line) < 300  # the URL is cut short in the message


@pytest.mark.parametrize("position", [f"8 hard r{BIG}c1", f"{BIG} hard -", f"8 hard r1c{BIG}"])
def test_huge_numbers_in_a_queens_position_are_one_line(position, capsys):
    line = assert_user_error(in_process(capsys, "play", "queens", "--position", position))
    assert len(line) < 300


def test_huge_numbers_typed_as_moves_or_fields_get_the_prompt_again():
    moves = cli("play", "queens", "--plain", "4", "--p2", "random", stdin=f"r{BIG}c1\nquit\n")
    assert moves.returncode == 0 and "Traceback" not in moves.stderr and "is not a cell" in moves.stdout
    fields = cli("play", "corner", stdin=f"{BIG}\n8\n{BIG},1\n²\nq\n")
    assert fields.returncode == 0 and "Traceback" not in fields.stderr
    assert "is not a board size" in fields.stdout and "is not a field" in fields.stdout


def test_a_unicode_digit_in_an_amazons_setup_is_one_line(capsys):
    assert_user_error(in_process(capsys, "play", "amazons", "--setup", "²5/6/6/6/6/6 w"),
                      "is not W, B, x or a digit")


def test_a_board_too_large_for_memory_is_refused_before_building_it(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("\n".join(chr(0x100 + r) * 400 for r in range(400)) + "\n")
    assert_user_error(cli("solve", str(path)), "400 rows", "100x100")


def test_a_full_disk_on_standard_output_is_one_line(easy):
    assert_user_error(cli("solve", str(easy), redirect="> /dev/full"), "cannot write the output")


# --- unbounded before ----------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["solve", "/dev/zero"], ["solve", "-"]])
def test_endless_input_is_cut_off_at_the_size_cap(args):
    done = cli(*args, redirect="< /dev/zero" if args[-1] == "-" else "", timeout=30)
    assert_user_error(done, "more than 16 MiB")


def test_solve_stops_at_its_timeout(tmp_path):
    # 60x60, 15 stars, a region per row: about 0.6 s of search today (it was hours once, and
    # a 1 s limit stopped being reached as the solver got stronger)
    path = tmp_path / "stripes.txt"
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    path.write_text("# s60 k=15\n" + "".join(labels[r] * 60 + "\n" for r in range(60)))
    # 0.2 s: the limit covers reading the file too, which a loaded machine can stretch past 0.05 s
    assert_user_error(cli("solve", str(path), "--timeout", "0.2", timeout=30),
                      "stopped after 0.2 s", "s60 (60x60, k=15)", "raise --timeout")


def test_generate_stops_at_its_timeout():
    assert_user_error(cli("generate", "--size", "45", "--seed", "1", "--timeout", "0.2", timeout=30),
                      "stopped after 0.2 s", "gen-n45-k1-s1", "raise --timeout")


def test_perfect_players_on_a_big_plain_board_stop_at_the_timeout():
    done = cli("play", "queens", "--plain", "16", "--p1", "perfect", "--p2", "perfect", "--timeout", "0.2",
               timeout=30)
    assert_user_error(done, "stopped after 0.2 s", "Player 1 (perfect)", "16x16")


@pytest.mark.parametrize("value", ["-1", "nan"])
def test_a_timeout_that_is_no_duration_is_refused(easy, value, capsys):
    assert_user_error(in_process(capsys, "solve", str(easy), "--timeout", value), "--timeout")


def test_generate_checks_the_out_file_before_generating(tmp_path):
    done = cli("generate", "--size", "45", "--out", str(tmp_path / "no" / "such" / "x.txt"), timeout=10)
    assert_user_error(done, "--out", "does not exist")


def test_a_zero_star_count_is_an_error_naming_the_line():
    assert_user_error(cli("solve", "-", stdin="\n# zero k=0\nABBB\nABCC\nDDCC\nDDDD\n"), "<stdin>:2:", "k=0")


# --- messages ------------------------------------------------------------------------------------


def test_elo_text_is_signed_and_never_plus_minus_zero():
    assert [elo_text_of(x) for x in (-0.0, 0.4, -0.4, 12.6, -12.6)] == ["0", "0", "0", "+13", "-13"]
    assert elo_text_of(float("inf")) == "+inf" and elo_text_of(float("-inf")) == "-inf"
    assert "b won all 4 games" in MatchResult("a", "b", 0, 4, (0, 0), (0, 0)).summary()
    even = MatchResult("a", "b", 2, 2, (0, 0), (0, 0)).summary()
    assert "+-0" not in even and "): 0 +/-" in even


def test_a_puzzlink_url_without_border_data_says_what_is_wrong(capsys):
    done = in_process(capsys, "solve", "https://puzz.link/p?starbattle/6/6/1/")
    line = assert_user_error(done, "border data")
    assert "no such file" not in line


@pytest.mark.parametrize(("text", "why"), [
    ("# none\nABC\nABC\nABC\n", "4x4 to"),
    ("# none\nAAAA\nAAAA\nBBCC\nBDDC\n", "no solution"),
    ("# many\nAAAAA\nBBBBB\nCCCCC\nDDDDD\nEEEEE\n", "more than one solution"),
])
def test_demo_refuses_a_puzzle_it_cannot_finish_at_once(tmp_path, text, why):
    path = tmp_path / "p.txt"
    path.write_text(text)
    assert_user_error(cli("demo", "--puzzle", str(path), timeout=20), why)


# --- several files, debug pictures ---------------------------------------------------------------


def test_solve_takes_several_sources_and_answers_in_order(tmp_path, easy):
    second = tmp_path / "second.txt"
    second.write_text("# stripes\nAAAAA\nBBBBB\nCCCCC\nDDDDD\nEEEEE\n\n# other\nABBB\nABCC\nDDCC\nDDDD\n")
    url = "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk"
    text = cli("solve", str(second), url, str(easy))
    assert text.returncode == 0, text.stderr
    titles = [line for line in text.stdout.splitlines() if line.endswith(")")]
    assert titles == ["stripes (5x5)", "other (4x4)", "puzzlink (6x6)", "easy (4x4)"]
    lines = cli("solve", "--json", str(easy), str(second)).stdout.splitlines()
    assert [json.loads(line)["name"] for line in lines] == ["easy", "stripes", "other"]


def test_solve_reads_every_source_before_solving_any(tmp_path, easy):
    done = cli("solve", str(easy), str(tmp_path / "missing.txt"))
    assert_user_error(done, "missing.txt", "no such file")
    assert done.stdout == ""


def test_detect_debug_draws_a_failed_reading_too(tmp_path):
    from PIL import Image

    cells = Image.new("RGB", (400, 300), "white")  # a grid cut off by a dark band: no whole board
    pixels = present(cells.load())
    for y in range(300):
        for x in range(400):
            if y >= 150:
                pixels[x, y] = (40, 40, 40)
            elif x % 20 == 0 or y % 20 == 0:
                pixels[x, y] = (0, 0, 0)
    image = tmp_path / "cut.png"
    cells.save(image)
    debug = tmp_path / "debug.png"
    done = cli("detect", str(image), "--debug", str(debug))
    assert_user_error(done)
    drawn = np.asarray(Image.open(debug).convert("RGB")).astype(int)
    assert drawn.shape == (300, 400, 3)
    magenta = (drawn[..., 0] > 200) & (drawn[..., 1] < 60) & (drawn[..., 2] > 150)
    assert magenta.sum() > 1000  # the candidate cells are outlined


def test_detect_debug_draws_a_successful_reading(tmp_path):
    from PIL import Image

    from tests.render import render_board

    image = tmp_path / "board.png"
    picture = render_board(["AABBB", "AABCB", "DDBCB", "DEECB", "DEEEB"], ["Q....", ".x..."])
    Image.fromarray(picture).save(image)
    debug = tmp_path / "debug.jpg"
    done = cli("detect", str(image), "--debug", str(debug))
    assert done.returncode == 0, done.stderr
    assert Image.open(debug).size == Image.open(image).size


def test_a_console_with_closed_input_ends_the_game_quietly(monkeypatch):
    import io

    from queens_autosolve.twoplayer.terminal import Console, QuitGame

    closed = io.StringIO("r1c1\n")
    closed.close()
    monkeypatch.setattr(sys, "stdin", None)
    for console in (Console(stdout=io.StringIO()), Console(closed, io.StringIO())):
        with pytest.raises(QuitGame):
            console.ask("move> ")


def test_time_limit_stops_pure_python_work_and_names_the_step():
    import time

    from queens_autosolve.autosolve.cli import Stopped, time_limit

    stopped = pytest.raises(Stopped, match=r"stopped after 0.2 s: counting sheep; raise --timeout")
    with stopped, time_limit(0.2, "starting") as work, work.step("counting sheep"):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            pass
    with time_limit(0.2, "quick") as work, work.step("quick"):
        pass
    time.sleep(0.3)  # the alarm was cancelled: nothing fires after the block


# --- numeric flags: finite and in range, checked by the parser -----------------------------------


@pytest.mark.parametrize(("args", "flag"), [
    (["solve", "{easy}", "--timeout", "1e10"], "--timeout"),
    (["solve", "{easy}", "--timeout", "inf"], "--timeout"),
    (["generate", "--size", "5", "--timeout", "1e10"], "--timeout"),
    (["bench", "{easy}", "--timeout", "1e10"], "--timeout"),
    (["play", "amazons", "--timeout", "1e10"], "--timeout"),
    (["play", "queens", "--plain", "4", "--timeout", "1e10"], "--timeout"),
    (["arena", "amazons", "--timeout", "1e10"], "--timeout"),
    (["arena", "queens", "--time", "nan"], "--time"),
    (["bench", "{easy}", "--peer-budget", "1e308"], "--peer-budget"),
    (["bench", "{easy}", "--grade-budget", "1e308"], "--grade-budget"),
    (["bench", "{easy}", "--baseline-budget", "1e308"], "--baseline-budget"),
    (["bench", "{easy}", "--peer-budget", "nan"], "--peer-budget"),
    (["bench", "{easy}", "--grade-budget", "nan"], "--grade-budget"),
    (["bench", "{easy}", "--baseline-budget", "nan"], "--baseline-budget"),
    (["run", "--delay", "inf"], "--delay"),
    (["run", "--delay", "1e308"], "--delay"),
    (["run", "--delay", "-1"], "--delay"),
    (["run", "--delay", "nan"], "--delay"),
    (["hint", "--delay", "nan"], "--delay"),
    (["play", "superqueen", "--random", "8", "--density", "nan"], "--density"),
    (["practice", "--no-open", "--zoom", "inf"], "--zoom"),
    (["practice", "--no-open", "--port", "70000"], "--port"),
    (["play", "queens", "--web", "--no-open", "--port", "-1"], "--port"),
    (["bench", "{easy}", "--peer-sample", "-1"], "--peer-sample"),
    (["run", "--rounds", "0"], "--rounds"),
])
def test_a_numeric_flag_that_is_not_finite_or_in_range_is_one_line(easy, args, flag, capsys):
    done = in_process(capsys, *[arg.format(easy=easy) for arg in args])
    line = assert_user_error(done, f"argument {flag}:", "(see queens-autosolve")
    assert "Overflow" not in line and "usage" not in done.stderr and done.stdout == ""


def test_the_flag_types_take_the_edges_of_their_ranges():
    import argparse

    from queens_autosolve.autosolve.flags import DELAY, MAX_SECONDS, POSITIVE_SECONDS, TIMEOUT

    assert TIMEOUT("0") == 0.0 and TIMEOUT(str(MAX_SECONDS)) == MAX_SECONDS and DELAY("60") == 60.0
    for kind, text in [(TIMEOUT, "-0.5"), (TIMEOUT, "1000001"), (POSITIVE_SECONDS, "0"), (DELAY, "60.01"),
                       (DELAY, "-inf"), (TIMEOUT, "ten")]:
        with pytest.raises(argparse.ArgumentTypeError, match="is not a number of seconds"):
            kind(text)


# --- Ctrl-C --------------------------------------------------------------------------------------


def test_ctrl_c_while_the_command_is_still_importing_is_interrupted_and_130(monkeypatch, capsys):
    from queens_autosolve.autosolve import cli

    def interrupted_import(command: str | None = None) -> None:
        raise KeyboardInterrupt  # as importlib raised it in the first ~50 ms of `solve big.txt`

    monkeypatch.setattr(cli, "build_parser", interrupted_import)
    assert cli.main(["solve", "big.txt"]) == 130
    err = capsys.readouterr().err
    assert err == "queens-autosolve: interrupted\n"


def test_ctrl_c_while_a_command_module_is_imported_is_one_line_through_the_real_entry_point():
    # The signal arrives inside importlib, as it did in the first ~50 ms of `solve big.txt`.
    # (Before that, during the interpreter's own start-up, Python itself reports it: out of reach.)
    code = ("import importlib, os, signal, sys; from queens_autosolve.autosolve import cli\n"
            "real = importlib.import_module\n"
            "def interrupted(name, *more):\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    return real(name, *more)\n"
            "importlib.import_module = interrupted\n"
            "sys.argv = ['queens-autosolve', 'solve', 'big.txt']\n"
            "cli.entry()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (130, "queens-autosolve: interrupted\n")


# --- named pipes, and puzzles kept when the time runs out ----------------------------------------


@pytest.fixture
def fifo(tmp_path) -> Path:
    import os

    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_solve_stops_at_its_timeout_on_a_named_pipe_nobody_writes_to(fifo):
    done = cli("solve", "--timeout", "0.5", str(fifo), timeout=30)
    assert_user_error(done, "stopped after 0.5 s", "named pipe", str(fifo))


def test_generate_stops_at_its_timeout_on_an_out_pipe_nobody_reads(fifo):
    done = cli("generate", "--size", "5", "--out", str(fifo), "--timeout", "0.5", timeout=30)
    assert_user_error(done, "stopped after 0.5 s", "named pipe", "0 puzzles written")


def test_generate_writes_each_puzzle_as_it_is_made_and_says_how_many_at_the_timeout(tmp_path):
    from queens_autosolve.solver.errors import PuzzleFormatError
    from queens_autosolve.solver.formats import parse_puzzles

    for out in (None, tmp_path / "out.txt"):
        where = ["--out", str(out)] if out else []
        # the limit counts from the first puzzle on, past the start: 0.5 s writes about a hundred
        done = cli("generate", "--size", "5", "--count", "1000000000", "--seed", "1", "--timeout", "0.5",
                   *where, timeout=60)
        line = assert_user_error(done, "stopped after 0.5 s", "puzzles written to",
                                 "--out" if out else "standard output")
        written = int(line.split(" puzzles written")[0].rsplit("; ", 1)[1].replace(",", ""))
        # a stop in the middle of a write to a pipe (the alarm is never held back there) says so,
        # and that puzzle may have gone out whole; a file's writes are whole and counted exactly
        on_its_way = "the next was on its way" in line
        assert not (out and on_its_way)
        text = out.read_text() if out else done.stdout
        try:
            puzzles = parse_puzzles(text)
        except PuzzleFormatError:
            assert on_its_way, text[-300:]  # only a puzzle the stop cut may be incomplete
            puzzles = parse_puzzles(text.rsplit("\n\n", 1)[0])
        assert written > 0 and len(puzzles) in ((written, written + 1) if on_its_way else (written,))
        assert [p.name for p in puzzles] == [f"gen-n5-k1-s{seed}" for seed in range(1, len(puzzles) + 1)]


@pytest.mark.parametrize("junk", ["/extra/junk", "%00", "?x=1#frag"])
def test_a_puzzlink_url_with_trailing_junk_is_one_line(junk, capsys):
    assert_user_error(in_process(capsys, "solve", "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk" + junk),
                      repr(junk), "after the border data")


def test_an_amazons_setup_with_no_pieces_is_one_line(capsys):
    assert_user_error(in_process(capsys, "play", "amazons", "--setup", "6/6/6/6/6/6 w"), "no white queen")


def test_generate_stops_at_its_timeout_when_the_pipe_it_writes_to_is_not_read():
    import fcntl
    import os

    read_end, write_end = os.pipe()
    size = fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    os.write(write_end, b"-" * size)  # full before the first puzzle: the result cannot hang on load
    try:
        process = subprocess.Popen([sys.executable, "-m", "queens_autosolve",
                                    "generate", "--size", "5", "--count",
                                    "1000000000", "--seed", "1", "--timeout", "1"],
                                   stdout=write_end, stderr=subprocess.PIPE, text=True,
                                   cwd=Path(__file__).resolve().parents[1])
        os.close(write_end)
        _, err = process.communicate(timeout=60)  # before: blocked on the full pipe past the limit
        os.set_blocking(read_end, False)
        taken = os.read(read_end, 1 << 16).decode()
    finally:
        os.close(read_end)
    lines = [line for line in err.splitlines() if line.strip()]
    assert process.returncode == 2 and len(lines) == 1, err
    assert "stopped after 1 s: writing a puzzle to standard output (does anything read it?)" in lines[0]
    written = int(lines[0].split(" puzzles written")[0].rsplit("; ", 1)[1].replace(",", ""))
    assert taken.count("# gen-n5-k1-s") in (written, written + 1)  # the last may be cut short
