"""Live safety: boards cut off by the screen or the window, a board shown by a program that is not a
browser, and the user's pointer. Real Chromium on Xvfb, real clicks; each test asserts what the
page (or the window) itself recorded, the tool's exit status or error, and its message."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from Xlib import X

from queens_autosolve.autosolve.cli import main
from queens_autosolve.autosolve.pipeline import run
from queens_autosolve.autosolve.records import Options, RunOutcome, Source
from queens_autosolve.capture import Desktop, NotABrowserError, Rect
from queens_autosolve.pages.browser import Chromium
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from tests.environment import have_tkinter, require_tool
from tests.live import practice_page, rect_now, wait_for_window, wait_painted, wait_until, xdotool, xmessage

pytestmark = pytest.mark.e2e


def puzzle_of(n: int, seed: int) -> Puzzle:
    return generate_puzzle(n, rng=random.Random(5000 + 10 * n + seed))


def run_cli(display: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "queens_autosolve", "run", "--display", display, *args],
                          capture_output=True, text=True, timeout=60)


def run_here(capsys: pytest.CaptureFixture[str], display: str, *args: str) -> subprocess.CompletedProcess:
    """`queens-autosolve run` in this process, so that `sent_clicks` sees any click it makes."""
    status = main(["run", "--display", display, *args])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["queens-autosolve", "run", *args], status, out, err)


def board_box_on_screen(display: str) -> Rect:
    from queens_autosolve.autosolve import onscreen, pipeline

    with Desktop(display) as desktop:
        frame = onscreen.grab(desktop, pipeline.find_window(desktop))
        return onscreen.board_on_screen(frame, onscreen.read(frame))


@pytest.mark.parametrize("cut_cells", [0.5, 1.0, 2.3])
def test_a_window_partly_off_the_screen_is_refused_and_nothing_is_clicked(
    browser, xvfb, cut_cells, sent_clicks, capsys
):
    puzzle = puzzle_of(9, 1)
    with practice_page(browser, puzzle) as server, Desktop(xvfb.display) as desktop:
        window = desktop.find_window()
        board = board_box_on_screen(xvfb.display)
        x, w = board.left, board.width
        screen = desktop.monitors()[0].rect
        # move the window right until the screen edge cuts `cut_cells` cells off the board
        shift = int(screen.right - (x + w) + cut_cells * w / 9)
        xdotool(xvfb.display, "windowmove", str(window.wid), str(window.rect.left + shift), "0")
        try:
            wait_until(lambda: rect_now(desktop, window).left == window.rect.left + shift)
            done = run_here(capsys, xvfb.display)
            assert sent_clicks == [] and server.state().moves == 0, server.state().states
        finally:
            xdotool(xvfb.display, "windowmove", str(window.wid), str(window.rect.left), "0")
            wait_until(lambda: rect_now(desktop, window) == window.rect)
    assert done.returncode == 2, done.stdout
    assert "screen" in done.stderr and "nothing was clicked" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_board_cut_off_by_a_small_window_is_named_and_scroll_brings_it_in(xvfb, sent_clicks, capsys):
    puzzle = puzzle_of(9, 2)
    small = Chromium(xvfb.display, size=(760, 680), position=(0, 0))
    with small.start("about:blank"), practice_page(small, puzzle, whole_board=False) as server:
        cut = run_here(capsys, xvfb.display)
        assert sent_clicks == [] and server.state().moves == 0
        assert cut.returncode == 2 and "bottom" in cut.stderr and "--scroll" in cut.stderr, cut.stderr
        assert "press Start" not in cut.stderr
        scrolled = run_cli(xvfb.display, "--scroll")
        state = server.wait_for(solved=True, timeout=5)
    assert scrolled.returncode == 0, scrolled.stdout + scrolled.stderr
    assert state.solved and "solved" in scrolled.stdout.splitlines()[-2]


@pytest.mark.parametrize(("zoom", "said", "advice"), [
    (1.55, "the mouse wheel moves the page past it (it ran past the window's bottom edge, and after the "
     "last of 3 notch(es) past the top edge)", "scroll it into view by hand"),
    (1.7, "it runs past the window's top and bottom edges at once, so it is taller than the window shows",
     "make the window taller or zoom out with Ctrl+-"),
], ids=["between-two-notches", "taller-than-the-view"])
def test_scroll_that_cannot_show_the_whole_board_says_why_and_what_does(
    browser, xvfb, zoom, said, advice, sent_clicks, capsys
):
    """An 11x11 board taller than the window can show at once: at 155% zoom the view has 24 px to
    spare around it, but Chromium's wheel notch moves the page 120 px and no notch stops it there;
    at 170% the board is taller than the view. `--scroll` turns the wheel, is refused saying which
    (not "run with --scroll", which it was asked, nor "the window is too small" for a board that
    fits) and says what does, clicking nothing."""
    with practice_page(browser, puzzle_of(11, 4), whole_board=False, zoom=zoom, win_screen="none") as server:
        done = run_here(capsys, xvfb.display, "--scroll")
        assert [click for click in sent_clicks if click.button == 1] == [] and server.state().moves == 0
    assert done.returncode == 2 and said in done.stderr and advice in done.stderr, done.stderr
    assert "nothing was clicked" in done.stderr and "run with --scroll" not in done.stderr
    assert "notch" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_live_sweep_judges_a_condition_by_what_the_page_reports(browser, xvfb):
    """scripts/sweep_live.py, one condition in the shared browser: solved as the page says; and a
    run that exits 0 on a page not solved, or clicks and is refused, is WRONG."""
    from scripts.sweep_live import Condition, Verdict, run_condition

    verdict = run_condition(browser, xvfb.display, Condition(8, zoom=0.9), scroll=False)
    assert (verdict.kind, verdict.status, verdict.solved) == ("solved", 0, True), verdict
    assert verdict.moves >= 16, verdict
    assert Verdict(Condition(8), 0, False, 16, "solved").kind == "WRONG"
    assert Verdict(Condition(8), 2, False, 3, "stopped").kind == "WRONG"
    assert Verdict(Condition(8), 2, False, 0, "cut off").kind == "refused"


@pytest.mark.parametrize("rows_hidden", [3, 0.4])
def test_a_board_scrolled_under_the_toolbar_is_named_and_scroll_brings_it_back(
    browser, xvfb, rows_hidden, sent_clicks, capsys
):
    """The user scrolled the page down a little: the board's top rows are under the browser's
    toolbar. Refused as cut off at the top (it said "9 columns but 6 rows", or "no outer frame
    line", with the generic hint), then `run --scroll` scrolls up and solves it."""
    puzzle = puzzle_of(9, 8)
    with practice_page(browser, puzzle) as server:
        top = browser.evaluate("document.getElementById('board').getBoundingClientRect().top")
        height = browser.evaluate("document.getElementById('board').getBoundingClientRect().height")
        browser.evaluate(f"window.scrollTo(0, {top} + {height} * {rows_hidden} / 9)")
        wait_until(lambda: browser.evaluate("window.scrollY") > 0)
        wait_painted(browser)
        cut = run_here(capsys, xvfb.display)
        assert sent_clicks == [] and server.state().moves == 0
        scrolled = run_cli(xvfb.display, "--scroll")
        print(scrolled.stdout, scrolled.stderr)  # shown when the wait below fails
        state = server.wait_for(solved=True, timeout=5)
    assert cut.returncode == 2 and "at the top" in cut.stderr and "--scroll" in cut.stderr, cut.stderr
    assert "press Start" not in cut.stderr
    assert scrolled.returncode == 0 and state.solved, scrolled.stdout + scrolled.stderr


def test_a_board_in_a_window_that_is_not_a_browser_is_never_clicked(xvfb, tmp_path, sent_clicks):
    from tests.render import render_board

    require_tool(have_tkinter(), "tkinter (package python3-tk), for the image viewer tests/viewer.py")

    puzzle = puzzle_of(7, 3)
    image = render_board(["".join(chr(65 + v) for v in row) for row in puzzle.regions])
    picture = tmp_path / "board.png"
    from PIL import Image

    Image.fromarray(image).save(picture)
    clicks = tmp_path / "clicks.txt"
    viewer = subprocess.Popen([sys.executable, str(Path(__file__).with_name("viewer.py")),
                               str(picture), str(clicks), "Queens - screenshot"],
                              env={"DISPLAY": xvfb.display, "PATH": "/usr/bin:/bin"})
    try:
        wait_for_window(xvfb.display, "Queens - screenshot")
        with pytest.raises(NotABrowserError, match="not a web browser"):
            run(Source(display=xvfb.display, window="Queens - screenshot"), Options())
        with pytest.raises(NotABrowserError, match="not a web browser"):
            run(Source(display=xvfb.display, screen=True), Options())
        assert sent_clicks == []
    finally:
        viewer.terminate()
        viewer.wait(timeout=5)
    assert not clicks.exists() or clicks.read_text() == ""


def test_the_pointer_over_the_board_is_moved_off_before_reading_and_put_back(browser, xvfb):
    puzzle = puzzle_of(8, 4)
    with practice_page(browser, puzzle) as server, Desktop(xvfb.display) as desktop:
        x, y, w, h = board_box_on_screen(xvfb.display).as_tuple()
        home = (int(x + w / 2), int(y + h / 2))  # over a cell: it shows the hover tint
        desktop.move_pointer(*home)
        result = run(Source(display=xvfb.display), Options())
        state = server.wait_for(solved=True, timeout=5)
        after = desktop.pointer()
    assert state.solved and result.outcome in (RunOutcome.SOLVED, RunOutcome.WIN_SCREEN)
    assert (after.x, after.y) == home and after.on_screen


@pytest.mark.parametrize("where", ["middle", "corner"])
def test_a_window_over_part_of_the_board_is_named_as_the_cause(browser, xvfb, where, sent_clicks, capsys):
    """Another program's window over the board is grabbed with it: read, it made "regions cannot
    be read: set the page zoom to 100%" or "something covers cells". The window is named."""
    puzzle = puzzle_of(9, 7)
    with practice_page(browser, puzzle) as server:
        board = board_box_on_screen(xvfb.display)
        pitch = board.width // 9
        at = ((board.left + board.width // 3, board.top + board.height // 3) if where == "middle"
              else (board.right - 2 * pitch, board.bottom - 2 * pitch))
        with xmessage(xvfb.display, "Notes", at=at):
            done = run_here(capsys, xvfb.display)
        state = server.state()
    assert done.returncode == 2 and sent_clicks == [] and state.moves == 0, done.stdout
    assert "'Notes'" in done.stderr and "move" in done.stderr, done.stderr
    assert "zoom" not in done.stderr.split("(what was read")[0], done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def move_mouse_as_a_hand_does(display: str, to: tuple[int, int], steps: int = 12) -> None:
    """Motion events from another client, as a mouse in the user's hand makes them: a stream
    over a quarter second that ends at `to` and stays there."""
    from Xlib.display import Display
    from Xlib.ext.xtest import fake_input

    hand = Display(display)
    try:
        start = hand.screen().root.query_pointer()
        for step in range(1, steps + 1):
            x = start.root_x + (to[0] - start.root_x) * step // steps
            y = start.root_y + (to[1] - start.root_y) * step // steps
            fake_input(hand, X.MotionNotify, x=x, y=y)
            hand.sync()
            time.sleep(0.02)
    finally:
        hand.close()


def test_the_user_taking_the_mouse_stops_the_clicks_and_keeps_the_mouse(browser, xvfb):
    puzzle = puzzle_of(9, 6)
    with practice_page(browser, puzzle, win_screen="none") as server, Desktop(xvfb.display) as desktop:
        board = board_box_on_screen(xvfb.display)
        spot = (max(40, board.left - 60), board.top + board.height // 3)  # off the board, no corner
        tool = subprocess.Popen([sys.executable, "-m", "queens_autosolve", "run", "--delay", "0.1",
                                 "--display", xvfb.display], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        server.wait_for(lambda state: state.moves > 0, timeout=20)  # the clicks have begun
        move_mouse_as_a_hand_does(xvfb.display, spot)
        out, err = tool.communicate(timeout=30)
        made = re.search(r"stopped after (\d+) of 18 clicks", err)
        assert tool.returncode == 2 and made, out + err
        # the page took exactly the clicks the tool says it made, and no more came
        state = server.wait_for(lambda state: state.moves == int(made.group(1)), timeout=5)
        after = desktop.pointer()
    assert "the mouse was moved" in err and "left the mouse to you" in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not state.solved and 0 < state.moves < 2 * 9, state.states
    assert (after.x, after.y) == spot and after.on_screen  # not pulled back, not put "home"


def test_at_200_percent_zoom_the_board_is_scrolled_into_view_and_solved(browser, xvfb, sent_clicks, capsys):
    puzzle = puzzle_of(6, 5)
    with practice_page(browser, puzzle, whole_board=False, zoom=2.0) as server:
        cut = run_here(capsys, xvfb.display)
        assert cut.returncode == 2 and "bottom" in cut.stderr, cut.stderr
        assert sent_clicks == [] and server.state().moves == 0
        result = run(Source(display=xvfb.display), Options(scroll=True))
        state = server.wait_for(solved=True, timeout=5)
    assert state.solved and result.ok and result.reading.n == 6
