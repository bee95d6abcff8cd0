"""Live sweep of the practice page in conditions the suite does not pin: page zooms, HiDPI device
scales and window sizes, board sizes. Each condition runs the real command (`queens-autosolve run
--json`, with `--scroll` when asked) against a fresh page in Chromium on its own Xvfb and is
judged by what the page itself reports: solved, refused (exit 2, nothing clicked: each message
counted) or WRONG (a click on a page that did not end solved, or exit 0 on a page that is not
solved; there must be none).

    .venv/bin/python -m scripts.sweep_live [--scroll] [--sizes 7,9,11] [--zooms 0.8,1.25]
        [--scales 1.25,1.5] [--window 1200x1040]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from queens_autosolve.pages.browser import WINDOW, Chromium, Xvfb
from queens_autosolve.solver.generator import generate_puzzle
from tests.live import practice_page


@dataclass(frozen=True)
class Condition:
    n: int
    zoom: float = 1.0  # the page's zoom, as the browser's own (Ctrl +/-) lays it out
    scale: float | None = None  # the device scale factor (HiDPI)

    def __str__(self) -> str:
        scale = f" scale {self.scale:g}" if self.scale else ""
        return f"{self.n}x{self.n} zoom {self.zoom:g}{scale}"


@dataclass(frozen=True)
class Verdict:
    condition: Condition
    status: int
    solved: bool
    moves: int  # presses the page counted
    message: str

    @property
    def kind(self) -> str:
        if self.status == 0 and self.solved:
            return "solved"
        if self.status == 2 and self.moves == 0:
            return "refused"
        return "WRONG"


def run_condition(browser: Chromium, display: str, condition: Condition, scroll: bool) -> Verdict:
    """One fresh page in `browser` (already at the condition's scale), the command run on it."""
    puzzle = generate_puzzle(condition.n, rng=random.Random(9100 + condition.n))
    with practice_page(browser, puzzle, whole_board=False, zoom=condition.zoom, win_screen="none") as server:
        args = [sys.executable, "-m", "queens_autosolve", "run", "--display", display, "--json"]
        done = subprocess.run([*args, *(["--scroll"] if scroll else [])], capture_output=True, text=True,
                              timeout=120)
        state = server.state()
    try:
        message = str(json.loads(done.stdout).get("message", ""))
    except json.JSONDecodeError:
        message = ""
    message = message or done.stderr.strip().removeprefix("queens-autosolve: error: ")
    return Verdict(condition, done.returncode, state.solved, state.moves, message)


def sweep(conditions: Sequence[Condition], scroll: bool, window: tuple[int, int]) -> Iterator[Verdict]:
    """Every condition, one Xvfb for all and one Chromium a device scale."""
    with Xvfb() as xvfb:
        for scale in dict.fromkeys(c.scale for c in conditions):
            with Chromium(xvfb.display, size=window, scale=scale).start("about:blank") as browser:
                for condition in (c for c in conditions if c.scale == scale):
                    yield run_condition(browser, xvfb.display, condition, scroll)


def gist(message: str) -> str:
    """A refusal's words up to its first figure or parenthesis: what kind of refusal it was."""
    return re.split(r"[;(]|\d", message)[0].strip()


def floats(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="7,9,11,13,15,17")
    parser.add_argument("--zooms", default="0.75,0.8,0.9,1.1,1.25")
    parser.add_argument("--scales", default="1.25,1.5", help="device scales, each at zoom 1")
    parser.add_argument("--window", default=f"{WINDOW[0]}x{WINDOW[1]}", help="CSS px, WIDTHxHEIGHT")
    parser.add_argument("--scroll", action="store_true", help="run with --scroll")
    args = parser.parse_args(argv)
    sizes = [int(n) for n in floats(args.sizes)]
    conditions = [Condition(n, zoom) for zoom in floats(args.zooms) for n in sizes]
    conditions += [Condition(n, scale=scale) for scale in floats(args.scales) for n in sizes]
    width, height = (int(part) for part in args.window.split("x"))
    kinds: Counter[str] = Counter()
    messages: Counter[str] = Counter()
    for verdict in sweep(conditions, args.scroll, (width, height)):
        kinds[verdict.kind] += 1
        if verdict.kind != "solved":
            messages[gist(verdict.message)] += 1
        print(f"{verdict.condition}: {verdict.kind} (exit {verdict.status}, {verdict.moves} presses) "
              f"{verdict.message[:160]}", flush=True)
    print(", ".join(f"{kind} {kinds[kind]}" for kind in ("solved", "refused", "WRONG")))
    for message, count in messages.most_common():
        print(f"  {count} x {message}")
    return 1 if kinds["WRONG"] else 0


if __name__ == "__main__":
    sys.exit(main())
