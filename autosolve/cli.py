"""The `queens-autosolve` command: one entry point, a subcommand per job.

Each subcommand lives in `autosolve/commands/<name>.py` and exposes
``register(subparsers) -> None``, which adds its parser and sets ``func(args) -> int``.
With no subcommand (or only options) the main job runs: ``queens-autosolve [--dry-run] ...``
is ``queens-autosolve run ...``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from solver.errors import QueensError

PROG = "queens-autosolve"
COMMANDS = ("run", "solve", "generate", "bench", "detect", "practice", "demo", "play", "arena")
_HELP = {"-h", "--help", "--version"}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand, or with just `only` (so a run imports one stage's code:
    `solve` never loads OpenCV, `run` never loads the games)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Solve the LinkedIn Queens puzzle straight off the screen "
        "(and offline: text puzzles, screenshots, generator, two-player games).",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        try:
            module = importlib.import_module(f"autosolve.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"autosolve.commands.{name}":
                raise
            continue  # not written yet; tests/test_cli.py requires every command to exist
        module.register(subparsers)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("queens-autosolve")
    except PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors print one line and return 2, never a traceback."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in _HELP):
        args_list.insert(0, "run")
    parser = build_parser(args_list[0] if args_list[0] in COMMANDS else None)
    args = parser.parse_args(args_list)
    try:
        return int(args.func(args) or 0)
    except QueensError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
