"""Live benchmark: `queens-autosolve run` as a user starts it, on the 11x11 practice page in a real
Chromium on Xvfb (--desktop x11), natively on a headless sway (--desktop sway: the wlroots
desktop, autosolve/sway.py's stage, root only) or on a headless mutter (--desktop gnome); fresh
processes, the page reloaded before each. Prints every stage's median, window found -> last
click, and the whole command's wall time (targets: 80 ms and 500 ms).

    python scripts/bench_live.py [--runs 10] [--size 11] [--desktop x11|sway|gnome] [--refresh HZ] [--json]
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
from pathlib import Path

from autosolve.browser import CHROMIUM_WAYLAND, Chromium, Xvfb, wait_for_board
from autosolve.mutter import HeadlessMutter, wait_for_board_on_gnome
from autosolve.pipeline import STAGES
from autosolve.practice.server import PracticeServer
from autosolve.sway import Sway
from solver.generate import generate_puzzle
from solver.puzzle import Puzzle

PACKAGES = ("actuator", "autosolve", "capture", "solver", "vision")


@dataclass
class Stage:
    """Where the runs play: the display or session, the browser and the page, and how `run` is
    started there."""

    browser: Chromium
    server: PracticeServer
    display: str = ""  # X11
    wayland: dict[str, str] | None = None  # a Wayland session's environment (sway, gnome)
    desktop: str = "x11"  # what `run --desktop` is told

    def command(self) -> tuple[list[str], dict[str, str] | None]:
        base = [sys.executable, "-m", "autosolve", "run", "--json"]
        if self.wayland is None:
            return [*base, "--display", self.display], None
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        return [*base, "--desktop", self.desktop], {**env, **self.wayland}

    def wait_for_board(self, n: int) -> None:
        if self.desktop == "gnome":
            wait_for_board_on_gnome(n, chromium=self.browser, env=self.wayland)
        else:
            wait_for_board(self.display, n, chromium=self.browser, wayland=self.wayland)


@contextmanager
def stage_for(desktop: str, puzzle: Puzzle, refresh: int = 240) -> Iterator[Stage]:
    """Xvfb with Chromium, or a headless sway or mutter with a native Wayland Chromium, showing
    about:blank."""
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
                yield Stage(browser, server, wayland=sway.env, desktop="wlroots")
            finally:
                browser.stop()


def one_run(stage: Stage, n: int) -> dict[str, object]:
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
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    puzzle = generate_puzzle(args.size, rng=random.Random(args.size))
    compile_packages()
    with stage_for(args.desktop, puzzle, args.refresh) as stage:
        runs = [one_run(stage, args.size) for _ in range(args.runs)]
    stages = {name: statistics.median(r["timings"].get(name, 0.0) for r in runs) * 1000 for name in STAGES}
    summary = {
        "desktop": args.desktop,
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
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{args.size}x{args.size} practice page ({args.desktop}), {len(runs)} fresh processes: page solved "
          f"{summary['page_solved']}/{len(runs)}, exit 0 {summary['exit_0']}/{len(runs)}")
    print("| stage | median ms |\n|---|---|")
    for name, ms in stages.items():
        print(f"| {name} | {ms:.1f} |")
    print(f"| window found -> last click | {summary['to_last_click_median_ms']:.1f} (target 80) |")
    print(f"| whole command (wall) | {summary['wall_median_ms']:.0f} (target 500) |")
    print(f"| of which: python + import numpy, cv2 alone | {summary['python_numpy_opencv_ms']:.0f} |")
    print("wall per run (ms):", summary["wall_ms"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
