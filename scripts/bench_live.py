"""Live benchmark: `queens-autosolve run` as a user starts it, on the 11x11 practice page in a real
Chromium on Xvfb (--desktop x11), natively on a headless sway (--desktop sway: the wlroots
desktop, autosolve/sway.py's stage, root only) or on a headless mutter (--desktop gnome); fresh
processes, the page reloaded before each. Prints every stage's median, window found -> last
click, and the whole command's wall time (targets: 80 ms and 500 ms).

Then `queens-autosolve watch` on the page's start screen, on the same desktop: Start pressed by a
real click (xdotool on X11, the desktop's own virtual pointer on Wayland), then Next puzzle
(DevTools), `--watch-boards` boards in all; the figure is the page's own time from the board first
painted to the press that solved it (targets: median under 100 ms, every board under 250 ms),
and the CPU `watch` takes of one core while the page holds still (target under 5%), from
/proc/PID/stat over `--idle-seconds`, on the start screen and on a solved board.

    python -m scripts.bench_live [--runs 10] [--size 11] [--watch-boards 20] [--idle-seconds 30]
                                 [--only watch|run] [--desktop x11|sway|gnome] [--refresh HZ]
                                 [--layout tiled|floating] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from queens_autosolve.autosolve.records import STAGES
from queens_autosolve.pages.browser import CHROMIUM_WAYLAND, Chromium, StageError, Xvfb, wait_for_board
from queens_autosolve.pages.mutter import HeadlessMutter
from queens_autosolve.pages.practice import PageState, PracticeServer
from queens_autosolve.pages.sway import Sway
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from tests.watching import WatchProcess, is_solved_board, press_next_puzzle, press_start

PACKAGES = ("queens_autosolve",)


@dataclass
class Stage:
    """Where the runs play: the display or session, the browser and the page, and how `run` is
    started there."""

    browser: Chromium
    server: PracticeServer
    display: str = ""  # X11
    wayland: dict[str, str] | None = None  # a Wayland session's environment (sway, gnome)
    desktop: str = "x11"  # what `run --desktop` is told
    sway: Sway | None = None

    def command(self) -> tuple[list[str], dict[str, str] | None]:
        base = [sys.executable, "-m", "queens_autosolve", "run", "--json"]
        if self.wayland is None:
            return [*base, "--display", self.display], None
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        return [*base, "--desktop", self.desktop], {**env, **self.wayland}

    def serve(self, puzzle: Puzzle, **options: Any) -> PracticeServer:
        """Another practice page, listening where the browser is (sway: inside its namespace)."""
        if self.sway is None:
            return PracticeServer(puzzle, **options).start()
        with self.sway.network():
            return PracticeServer(puzzle, **options).start()

    def wait_for_board(self, n: int) -> None:
        wait_for_board(self.display, n, chromium=self.browser, desktop=self.desktop, env=self.wayland)


@contextmanager
def stage_for(desktop: str, puzzle: Puzzle, refresh: int = 240, layout: str = "tiled") -> Iterator[Stage]:
    """Xvfb with Chromium, or a headless sway or mutter with a native Wayland Chromium, showing
    about:blank. On sway, `layout` "tiled" (sway's default: the browser fills the output) or
    "floating" (where the tests put it: 1168 x 998 at (0, 0); sway raises a floating window on
    every click and renders the output again, 2-3 ms of a software-rendered frame each)."""
    if desktop == "x11":
        with Xvfb() as xvfb, PracticeServer(puzzle) as server:
            browser = Chromium(xvfb.display).start("about:blank")
            try:
                yield Stage(browser, server, display=xvfb.display)
            finally:
                browser.stop()
        return
    if desktop == "gnome":
        with HeadlessMutter() as gnome, PracticeServer(puzzle) as server:
            browser = Chromium("", extra_args=CHROMIUM_WAYLAND, environment=gnome.env).start("about:blank")
            try:
                yield Stage(browser, server, wayland=gnome.env, desktop="gnome")
            finally:
                browser.stop()
        return
    with Sway(refresh=refresh) as sway:
        with sway.network():  # the page listens where the browser is
            server = PracticeServer(puzzle).start()
        with server:
            browser = Chromium("", extra_args=CHROMIUM_WAYLAND, launcher=sway.enter(),
                               environment=sway.env).start("about:blank")
            try:
                if layout == "tiled":
                    tile_the_browser(sway)
                yield Stage(browser, server, wayland=sway.env, desktop="wlroots", sway=sway)
            finally:
                browser.stop()


def tile_the_browser(sway: Sway, timeout: float = 10.0) -> None:
    """Chromium's window tiled (the harness's sway floats every window), once it has mapped."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            sway.swaymsg("[app_id=chromium]", "floating", "disable")
            return
        except StageError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def one_run(stage: Stage, n: int) -> dict[str, Any]:
    """Reload the page, wait for its board, run the tool once; its timings and wall time."""
    browser, server = stage.browser, stage.server
    browser.open(server.url)
    server.wait_for(lambda s: s.reports > 0 and not s.queens, timeout=20)
    stage.wait_for_board(n)
    command, env = stage.command()
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    wall = time.perf_counter() - start
    solved = server.wait_for(solved=True, timeout=5).solved
    data = json.loads(done.stdout) if done.stdout.strip() else {}
    return {"wall": wall, "exit": done.returncode, "page_solved": solved,
            "timings": data.get("timings", {}), "to_last_click": data.get("to_last_click", 0.0)}


def watch_boards(stage: Stage, n: int, boards: int, idle: float) -> dict[str, Any]:
    """`watch` on the start screen: the page's board shown -> solved for each board, and the
    watcher's share of a core while the page holds still (before Start, after the last board)."""
    puzzles = [generate_puzzle(n, rng=random.Random(1000 + i)) for i in range(boards)]
    page_ms: list[float] = []
    states: list[PageState] = []
    browser = stage.browser
    with stage.serve(puzzles[0], start_screen=True, win_screen="none", next_puzzles=puzzles[1:]) as server:
        browser.open(server.url)
        server.wait_for(lambda s: s.reports > 0, timeout=20)
        watch = WatchProcess(stage.display, ("--json", "--desktop", stage.desktop), session=stage.wayland)
        try:
            watch.wait_for_line("waiting for a board", stream="err")
            idle_start = core_share(watch.process.pid, idle)
            press_start(server, stage.display, desktop=stage.desktop, session=stage.wayland)
            for board in range(boards):
                if board:
                    press_next_puzzle(browser)
                try:
                    state = server.wait_for(partial(is_solved_board, board), timeout=30)
                except TimeoutError:
                    said = f"{server.state()}; watch said: {watch.out[-2:]} {watch.err[-2:]}"
                    raise SystemExit(f"board {board} not solved: {said}") from None
                watch.wait_for_line(f'"board": {board + 1},')
                page_ms.append(float(state.shown_to_solved_ms or 0.0))
                states.append(state)
            idle_solved = core_share(watch.process.pid, idle)
            watch.interrupt()
        finally:
            watch.stop()
    lines = [json.loads(line) for line in watch.out if line.startswith('{"board"')]
    stages = {name: statistics.median(1000 * (line["timings"] or {}).get(name, 0.0) for line in lines)
              for name in ("grab", "read", "solve", "plan", "click")}
    steps: list[dict[str, Any]] = [{**breakdown(state, line.get("marks") or {}),
              "stages": {k: round(1000 * v, 1) for k, v in (line["timings"] or {}).items()}}
             for state, line in zip(states, lines)]
    return {
        "boards": boards, "page_shown_to_solved_ms": [round(ms, 1) for ms in page_ms],
        "breakdown_ms": steps,
        "breakdown_median_ms": {name: statistics.median(float(step[name]) for step in steps)
                                for name in STEPS},
        "load_average": os.getloadavg()[0],
        "solved_by_watch": sum(1 for line in lines if line["ok"]),
        "seen_to_last_click_median_ms": statistics.median(1000 * line["to_last_click"] for line in lines),
        "stage_median_ms": stages,
        "median_ms": statistics.median(page_ms), "max_ms": max(page_ms),
        "idle_core_share_start_screen": idle_start, "idle_core_share_solved_board": idle_solved,
        "idle_seconds": idle,
    }


# Each board's way from shown to solved, in ms after the page painted it (page clock): `watch`
# saw the window change, began the read that found the board, ended it; the page's first press,
# and the press that solved it.
STEPS = ("changed", "read", "read_done", "first_press", "solved")


def breakdown(state: PageState, marks: dict[str, float]) -> dict[str, float]:
    """One board's STEPS (and `reads`, the full reads it took), `watch`'s wall-clock marks set on
    the page's clock through its time origin."""
    shown, origin = state.shown_ms or 0.0, state.time_origin_ms or 0.0

    def page(wall: float) -> float:
        return round(wall * 1000 - origin - shown, 1)

    return {
        "changed": page(marks.get("changed", 0.0)), "read": page(marks.get("read", 0.0)),
        "read_done": page(marks.get("read_done", 0.0)),
        "first_press": round((state.first_press_ms or 0.0) - shown, 1),
        "solved": round(float(state.shown_to_solved_ms or 0.0), 1), "reads": marks.get("reads", 0),
    }


def core_share(pid: int, seconds: float) -> float:
    """The share of one core process `pid` used over the next `seconds` (user + system time)."""
    def cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before, start = cpu(), time.perf_counter()
    time.sleep(seconds)
    return (cpu() - before) / (time.perf_counter() - start)


def compile_packages() -> None:
    """Byte-compile the checkout first, as a user's second run finds it (the first run writes the
    .pyc files; PYTHONDONTWRITEBYTECODE, set on some machines, would make every run compile)."""
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(root / p) for p in PACKAGES)],
                   check=True, capture_output=True)


def library_floor(runs: int) -> float:
    """Median wall seconds of a fresh interpreter that only imports numpy and OpenCV: what any
    run pays before its first stage, measured beside the runs."""
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import numpy, cv2"], check=True)
        walls.append(time.perf_counter() - start)
    return statistics.median(walls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--desktop", choices=("x11", "sway", "gnome"), default="x11",
                        help="x11: Chromium on Xvfb (default); sway, gnome: native Chromium on a headless "
                        "sway or mutter")
    parser.add_argument("--refresh", type=int, default=240, metavar="HZ",
                        help="--desktop sway: the headless output's refresh rate (a grab waits for a frame; "
                        "a real screen is 60-144 Hz)")
    parser.add_argument("--layout", choices=("tiled", "floating"), default="tiled",
                        help="--desktop sway: the browser tiled (sway's default) or floating (as the tests "
                        "place it)")
    parser.add_argument("--watch-boards", type=int, default=20)
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--only", choices=("run", "watch"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    puzzle = generate_puzzle(args.size, rng=random.Random(args.size))
    compile_packages()
    runs = []
    watched: dict[str, Any] = {}
    with stage_for(args.desktop, puzzle, args.refresh, args.layout) as stage:
        runs = [one_run(stage, args.size) for _ in range(args.runs if args.only != "watch" else 0)]
        if args.only != "run":
            watched = watch_boards(stage, args.size, args.watch_boards, args.idle_seconds)
    if not runs:
        print(json.dumps(watched, indent=2) if args.json else "\n".join(watch_lines(watched, args.size)))
        return 0
    stages = {name: statistics.median(r["timings"].get(name, 0.0) for r in runs) * 1000 for name in STAGES}
    summary = {
        "desktop": args.desktop,
        "layout": args.layout if args.desktop == "sway" else None,
        "runs": len(runs),
        "page_solved": sum(bool(r["page_solved"]) for r in runs),
        "exit_0": sum(r["exit"] == 0 for r in runs),
        "stage_median_ms": stages,
        "to_last_click_median_ms": statistics.median(r["to_last_click"] for r in runs) * 1000,
        "wall_median_ms": statistics.median(r["wall"] for r in runs) * 1000,
        "wall_ms": [round(r["wall"] * 1000) for r in runs],
        "python_numpy_opencv_ms": library_floor(args.runs) * 1000,
    }
    if args.json:
        print(json.dumps({**summary, "watch": watched}, indent=2))
        return 0
    where = f"{args.desktop}, {args.layout}" if args.desktop == "sway" else args.desktop
    print(f"{args.size}x{args.size} practice page ({where}), {len(runs)} fresh processes: page solved "
          f"{summary['page_solved']}/{len(runs)}, exit 0 {summary['exit_0']}/{len(runs)}")
    print("| stage | median ms |\n|---|---|")
    for name, ms in stages.items():
        print(f"| {name} | {ms:.1f} |")
    print(f"| window found -> last click | {summary['to_last_click_median_ms']:.1f} (target 80) |")
    print(f"| whole command (wall) | {summary['wall_median_ms']:.0f} (target 500) |")
    print(f"| of which: python + import numpy, cv2 alone | {summary['python_numpy_opencv_ms']:.0f} |")
    print("wall per run (ms):", summary["wall_ms"])
    if watched:
        print("\n".join(watch_lines(watched, args.size)))
    return 0


def watch_lines(watched: dict[str, Any], n: int) -> list[str]:
    """The watch figures for people."""
    stages = ", ".join(f"{name} {ms:.0f}" for name, ms in watched["stage_median_ms"].items())
    return [
        f"watch, {n}x{n}, {watched['boards']} boards (Start, then Next puzzle), on the page's own clock: "
        f"board shown -> solved median {watched['median_ms']:.0f} ms (target 100), "
        f"max {watched['max_ms']:.0f} ms (target 250)",
        f"per board (ms): {watched['page_shown_to_solved_ms']}",
        "median ms after the board was painted (page clock): "
        + ", ".join(f"{name} {ms:.0f}" for name, ms in watched["breakdown_median_ms"].items()),
        f"load average (1 min) at the end: {watched['load_average']:.1f}",
        f"solved by watch: {watched['solved_by_watch']}/{watched['boards']}; on watch's clock, board seen "
        f"-> last click median {watched['seen_to_last_click_median_ms']:.0f} ms; stage medians after its "
        f"first read (ms): {stages}",
        f"watch idle, share of one core over {watched['idle_seconds']:g} s: start screen "
        f"{100 * watched['idle_core_share_start_screen']:.1f}%, solved board "
        f"{100 * watched['idle_core_share_solved_board']:.1f}% (target under 5%)",
    ]


if __name__ == "__main__":
    raise SystemExit(main())
