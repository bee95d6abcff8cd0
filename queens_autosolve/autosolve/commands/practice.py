"""`queens-autosolve practice`: serve a local copy of the Queens page on loopback and open it.

Play it by hand, or point the live pipeline at it (``queens-autosolve run`` reads it off the
screen like the real page). Serves until Ctrl-C.
"""

from __future__ import annotations

import argparse
import random
import time
import webbrowser

from queens_autosolve.autosolve.flags import PORT, Share
from queens_autosolve.pages.practice import ZOOM_RANGE, PageOptions, PageState, PracticeServer
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle

DEFAULT_SIZE = 8
_POLL_SECONDS = 0.5


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "practice",
        help="serve a local copy of the Queens page to practise on (and test against)",
        description="Serve a local copy of the LinkedIn Queens page on 127.0.0.1 and open it in "
        "your browser. The puzzle comes from --puzzle FILE, or is generated (--size, --seed).",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--puzzle", metavar="FILE", help="puzzle file (shared text format) or puzz.link URL")
    source.add_argument("--size", type=int, metavar="N",
                        help=f"generate an N x N puzzle (default {DEFAULT_SIZE})")
    parser.add_argument("--index", type=int, default=1, metavar="I",
                        help="which puzzle of a file with several (1-based, default 1)")
    parser.add_argument("--seed", type=int, help="seed for the generated puzzle (default: random)")
    parser.add_argument("--port", type=PORT, default=0, help="port on 127.0.0.1 (default: any free port)")
    parser.add_argument("--dark", action="store_true", help="start in dark mode")
    page = parser.add_argument_group(
        "page behaviour", "conditions the real Queens page shows, to test the live pipeline against"
    )
    # Choices and ranges are checked by PageOptions, so a bad value is one line and exit 2.
    page.add_argument("--win-screen", default="dialog", metavar="KIND",
                      help="after a solve: dialog (a results card over the board, as on the real "
                      "page; default), card (LinkedIn's dialog over a big board: no backdrop, its edges "
                      "through rows and columns), replace (a results card instead of the board), none")
    page.add_argument("--win-delay-ms", type=int, default=0, metavar="MS",
                      help="show the win screen this long after the solve (default 0)")
    page.add_argument("--drop-gap-ms", type=int, default=0, metavar="MS",
                      help="a busy page: ignore a press this soon after the last one (default 0: none)")
    page.add_argument("--busy-ms", type=int, default=0, metavar="MS",
                      help="a slow page: keep the page busy this long after each press (default 0)")
    page.add_argument("--tooltip-ms", type=int, default=0, metavar="MS",
                      help="a pointer resting this long on a cell brings up a tooltip over the board, "
                           "as on the real page (default 0: none)")
    page.add_argument("--thin-borders", action="store_true",
                      help="1 px region borders, as the real page shows at 67%% zoom")
    page.add_argument("--zoom", type=Share(*ZOOM_RANGE, "a zoom factor"), default=1.0,
                      help="zoom the page as the browser's own zoom does (0.5 to 2, default 1)")
    page.add_argument("--buttons", action="store_true",
                      help="a row of round cell-sized buttons right under the board")
    page.add_argument("--input-mode", default="pointer", metavar="MODE",
                      help="act on pointer down (pointer, default) or on the click event (click)")
    page.add_argument("--letters", action="store_true",
                      help="each empty cell shows its region's letter, as the real page's accessibility "
                           "option does")
    page.add_argument("--strict-clicks", action="store_true",
                      help="a press acts at its pointerup, only when its cell still shows what its "
                           "pointerdown saw: a pair sent too quickly loses its second press")
    page.add_argument("--start-screen", action="store_true",
                      help="LinkedIn's flow: the board behind a Start button, the clock from when it shows, "
                      "and a Next puzzle button that shows another board without a page load")
    parser.add_argument("--no-open", dest="open", action="store_false", help="do not open a browser")
    parser.set_defaults(func=run)


def choose_puzzle(args: argparse.Namespace) -> Puzzle:
    """The puzzle to serve: the I-th of --puzzle FILE, else a generated one."""
    if args.puzzle:
        puzzles = read_puzzles(args.puzzle)
        if not 1 <= args.index <= len(puzzles):
            raise QueensError(f"--index {args.index}: {args.puzzle} holds {len(puzzles)} puzzle(s)")
        return puzzles[int(args.index) - 1]
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    size = DEFAULT_SIZE if args.size is None else args.size  # --size 0 is refused, not a default
    return generate_puzzle(size, rng=seed)


def run(args: argparse.Namespace) -> int:
    options = PageOptions(
        win_screen=args.win_screen, win_delay_ms=args.win_delay_ms, drop_gap_ms=args.drop_gap_ms,
        busy_ms=args.busy_ms, thin_borders=args.thin_borders, zoom=args.zoom, buttons=args.buttons,
        input_mode=args.input_mode, tooltip_ms=args.tooltip_ms, letters=args.letters,
        strict_clicks=args.strict_clicks, start_screen=args.start_screen,
    )  # checked before a puzzle is generated, which can take a while
    puzzle = choose_puzzle(args)
    with PracticeServer(
        puzzle, port=args.port, dark=args.dark, win_screen=options.win_screen,
        win_delay_ms=options.win_delay_ms, drop_gap_ms=options.drop_gap_ms, busy_ms=options.busy_ms,
        thin_borders=options.thin_borders, zoom=options.zoom, buttons=options.buttons,
        input_mode=options.input_mode, tooltip_ms=options.tooltip_ms, letters=options.letters,
        strict_clicks=options.strict_clicks, start_screen=options.start_screen,
    ) as server:
        name = puzzle.name or "puzzle"
        try:  # from the first line on: a Ctrl-C as soon as the address shows stops it cleanly
            print(f"Queens practice ({name}, {puzzle.n}x{puzzle.n}) at {server.url}", flush=True)
            print("Press Ctrl-C to stop.", flush=True)
            if args.open:
                webbrowser.open(server.url)
            announce_wins(server)
        except KeyboardInterrupt:
            print("\nstopped", flush=True)
    return 0


def announce_wins(server: PracticeServer) -> None:
    """Print a line each time the page goes from unsolved to solved (runs until Ctrl-C)."""
    was_solved = server.state().solved
    while True:
        time.sleep(_POLL_SECONDS)
        state = server.state()
        if state.solved and not was_solved:
            print(f"solved in {_clock(state)} ({state.moves} moves)", flush=True)
        was_solved = state.solved


def _clock(state: PageState) -> str:
    seconds = state.elapsed_ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"
