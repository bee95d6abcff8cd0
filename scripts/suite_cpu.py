"""What each test costs the machine: the test suite run on one process, with the CPU time of the
whole machine (/proc/stat: the browsers, X servers and commands a test starts included) counted
from each test's setup to its teardown, then summed by module and listed by test.

    .venv/bin/python -m scripts.suite_cpu [--top 30] [--json OUT] [PYTEST ARGS...]

`make test` runs the suite on three workers, and its wall time is about this total CPU over the
two cores; which tests that total comes from is what this tells. A module's browsers and displays
start with its first test, so that test carries them. The machine's own speed moves through the
day, so a fixed loop of Python additions is timed before and after: compare runs by their shares,
or by CPU-s at a like loop time. Run it on a quiet machine (it sets CI=true: the live tests run).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Cost:
    test: str  # the pytest node id
    cpu: float  # CPU seconds of the whole machine, setup to teardown
    wall: float  # seconds

    @property
    def module(self) -> str:
        return self.test.split("::")[0]


def machine_cpu() -> float:
    """CPU seconds the whole machine has spent so far, idle and I/O wait left out."""
    with open("/proc/stat") as stat:
        ticks = [int(field) for field in stat.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def loop_seconds() -> float:
    """The fixed loop the notes compare machine speed by: 10**7 Python additions."""
    start, total = time.perf_counter(), 0
    for i in range(10**7):
        total += i
    return time.perf_counter() - start


class Census:
    """pytest plugin: one Cost per test."""

    def __init__(self) -> None:
        self.costs: list[Cost] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        cpu, wall = machine_cpu(), time.monotonic()
        yield
        self.costs.append(Cost(item.nodeid, machine_cpu() - cpu, time.monotonic() - wall))


def by_module(costs: list[Cost]) -> list[tuple[str, float, float, int]]:
    """(module, CPU-s, wall s, tests), the costliest first."""
    rows = []
    for module in {cost.module for cost in costs}:
        mine = [cost for cost in costs if cost.module == module]
        rows.append((module, sum(cost.cpu for cost in mine), sum(cost.wall for cost in mine), len(mine)))
    return sorted(rows, key=lambda row: -row[1])


def print_report(costs: list[Cost], loops: tuple[float, float] | None, top: int) -> None:
    total = sum(cost.cpu for cost in costs) or 1e-9
    wall = sum(cost.wall for cost in costs)
    speed = "" if loops is None else f"; fixed loop {loops[0]:.2f} s before, {loops[1]:.2f} s after"
    print(f"\n{len(costs)} tests: {total:.1f} CPU-s of the machine in {wall:.1f} s{speed}")
    print(f"\n{'CPU-s':>7} {'share':>6} {'wall s':>7} {'tests':>5}  module")
    for module, cpu, seconds, count in by_module(costs):
        print(f"{cpu:7.1f} {cpu / total:6.1%} {seconds:7.1f} {count:5d}  {module}")
    print(f"\nthe {top} costliest tests\n{'CPU-s':>7} {'wall s':>7}  test")
    for cost in sorted(costs, key=lambda cost: -cost.cpu)[:top]:
        print(f"{cost.cpu:7.2f} {cost.wall:7.2f}  {cost.test}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=30, help="how many tests to list (default 30)")
    parser.add_argument("--json", type=Path, help="also write every test's cost to this file")
    parser.add_argument("--no-loop", action="store_true", help="leave out the fixed loop (2-4 s)")
    args, pytest_args = parser.parse_known_args(argv)
    if any(arg.startswith(("-n", "--numprocesses")) for arg in pytest_args):
        parser.error("the census runs the tests one at a time: leave out -n")
    os.environ["CI"] = "true"
    os.chdir(ROOT)
    census = Census()
    before = None if args.no_loop else loop_seconds()
    status = pytest.main(["-q", "-p", "no:cacheprovider", *pytest_args], plugins=[census])
    loops = None if before is None else (before, loop_seconds())
    print_report(census.costs, loops, args.top)
    if args.json:
        args.json.write_text(json.dumps([asdict(cost) for cost in census.costs], indent=1))
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
