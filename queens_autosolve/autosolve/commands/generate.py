"""`queens-autosolve generate`: new puzzles with exactly one solution, in the shared text format.

Puzzle i of a run uses seed S+i and is named ``gen-n{N}-k{K}-s{S+i}``, so any single puzzle can
be made again on its own with ``--seed S+i --count 1``. With ``--hard`` it makes ``--candidates``
puzzles that way and keeps the ``--count`` our solver needs the most search nodes for (each still
named after its own seed); a candidate seed no puzzle can be made from is reported and skipped.
``--harden T`` gives each finished map up to T border moves that keep its answer unique and make
the search work harder (`solver.generate.harden`).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import signal
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import IO, Any, BinaryIO

from tqdm import tqdm

from queens_autosolve.autosolve.cli import (
    Stopped,
    Work,
    check_output_file,
    is_pipe,
    silence_stdout,
    time_limit,
)
from queens_autosolve.autosolve.flags import TIMEOUT
from queens_autosolve.solver.difficulty import Difficulty, generate_graded
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.formats import format_puzzle
from queens_autosolve.solver.generator import MAX_SIZE, check_size, generate_many, hardest, puzzle_name
from queens_autosolve.solver.puzzle import RULES, Puzzle

DEFAULT_TIMEOUT = 300.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="make new puzzles with exactly one solution",
        description="Make random puzzles with exactly one solution and print them in the shared "
        "text format. The same --seed always gives the same puzzles.",
    )
    parser.add_argument("--size", "-n", type=int, required=True, metavar="N",
                        help=f"board size N (N x N), at most {MAX_SIZE}; the time grows fast with N: "
                        "`queens-autosolve bench --generate 20,30` measures it on this machine")
    parser.add_argument("--stars", "-k", type=int, default=1, metavar="K",
                        help="queens per row, column and region (default 1; K>1 is Star Battle)")
    parser.add_argument("--count", "-c", type=int, default=1, metavar="C",
                        help="how many puzzles (default 1)")
    parser.add_argument("--seed", "-s", type=int, default=None, metavar="S",
                        help="seed of the first puzzle (default: a random one, printed in each name)")
    parser.add_argument("--out", "-o", type=Path, default=None, metavar="FILE",
                        help="write to FILE instead of standard output")
    parser.add_argument("--rule", choices=RULES, default="touch",
                        help="touch: queens may not touch (LinkedIn); diagonal: classic N-Queens diagonals")
    parser.add_argument("--timeout", type=TIMEOUT, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"give up after SECONDS in all (default {DEFAULT_TIMEOUT:g}; 0: no limit)")
    parser.add_argument("--hard", action="store_true",
                        help="make --candidates puzzles (seeds S, S+1, ...) and keep the --count that "
                        "take the solver the most search nodes")
    parser.add_argument("--candidates", type=int, default=None, metavar="M",
                        help="with --hard: how many puzzles to make and choose from (default 4 x --count)")
    parser.add_argument("--harden", type=int, default=0, metavar="T",
                        help="give each map up to T random border moves, each kept when the answer "
                        "stays unique and the solver needs no fewer search nodes (hard Star Battle "
                        "maps; the header records T so the puzzle can be made again)")
    parser.add_argument("--difficulty", choices=[d.value for d in Difficulty], default=None,
                        help="keep only puzzles of this grade (easy: singles and one unit confined; "
                        "medium: several units confined together, or k>1 block rules; hard: needs a "
                        "trial or a guess): seeds from S on are made and graded until --count match; "
                        "each keeps its own seed in its name and its grade in its header")
    parser.add_argument("--json", action="store_true",
                        help="JSON Lines instead of the text format: one object per puzzle "
                        "(name, n, k, rule, meta, rows)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_size(args.size, args.stars, args.rule)
    if args.count < 1:
        raise QueensError(f"--count {args.count}: ask for at least one puzzle")
    if args.out is not None:
        check_output_file(args.out, "--out")
    first = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    if args.hard and args.difficulty:
        raise QueensError("--hard and --difficulty choose puzzles in two different ways: use one")
    if args.hard:
        _check_candidates(args)
    if args.harden < 0:
        raise QueensError(f"--harden {args.harden}: give a number of moves, 0 or more")
    if args.harden and args.difficulty:
        raise QueensError("--harden and --difficulty choose puzzles in two different ways: use one")
    output = PuzzleOutput(args.out, as_json=args.json)
    # One puzzle: the time limit's own line shows the time spent; many: a tqdm bar counts them.
    progress = args.count == 1 and not args.hard
    try:
        with time_limit(args.timeout or None, "generating", progress=progress) as work:
            with work.step(output.opening()):
                output.open()
            for puzzle in _puzzles(args, first, work):
                with work.step(f"writing a puzzle to {output.where()} (does anything read it?)"):
                    output.write(puzzle)
    except Stopped as exc:
        output.close(stopped=True)
        raise Stopped(f"{exc}; {output.written_text()}") from None
    finally:
        output.close()
    return 0


class PuzzleOutput:
    """Where the puzzles go (standard output or --out), each written as soon as it is made, so a
    run stopped by its --timeout or Ctrl-C keeps the puzzles it finished.

    A regular file takes a write at once, so the time limit's alarm waits until a puzzle is out
    whole. A pipe may not (its reader can stop reading): there the alarm is never held back,
    and --out is written without a buffer, so nothing is left to block the exit."""

    def __init__(self, path: Path | None, *, as_json: bool = False) -> None:
        self.path = path
        self.as_json = as_json
        self.written = 0
        self.writing = False  # True while a puzzle is on its way out (a stop then may cut it)
        self._file: BinaryIO | None = None
        self._regular = False

    def where(self) -> str:
        return "standard output" if self.path is None else f"--out {self.path}"

    def opening(self) -> str:
        """The step of opening it, for the timeout message: a named pipe waits there for a reader."""
        if self.path is not None and is_pipe(self.path):
            return f"opening {self.where()} (a named pipe: does anything read it?)"
        return f"opening {self.where()}"

    def open(self) -> None:
        if self.path is None:
            self._regular = _is_regular_file(sys.stdout)
            return
        try:
            self._file = self.path.open("wb", buffering=0)
        except OSError as exc:
            raise QueensError(f"--out {self.path}: cannot write ({exc.strerror})") from None
        self._regular = _is_regular_file(self._file)

    def write(self, puzzle: Puzzle) -> None:
        """One puzzle, a blank line before all but the first (under --json: one line each)."""
        if self.as_json:
            text = json.dumps(puzzle_json(puzzle)) + "\n"
        else:
            text = ("\n" if self.written else "") + format_puzzle(puzzle)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM}) if self._regular else None
        self.writing = True
        try:
            self._send(text)
            # counted before the alarm is let through: a stop pending since the write began
            # fires at the unmasking, and the puzzle it let finish must be in the count
            self.writing = False
            self.written += 1
        except OSError as exc:
            if self.path is None:
                raise  # the CLI reports a full disk or a closed pipe on standard output
            raise QueensError(f"--out {self.path}: cannot write ({exc.strerror})") from None
        finally:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def _send(self, text: str) -> None:
        if self._file is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        data = memoryview(text.encode("utf-8"))
        while data:
            data = data[self._file.write(data) or 0:]

    def written_text(self) -> str:
        said = f"{self.written:,} puzzle{'' if self.written == 1 else 's'} written to {self.where()}"
        if self.writing:  # stopped in the middle of a write to a pipe (never held back there)
            said += " (and the next was on its way: it may be there, whole or cut)"
        return said

    def close(self, *, stopped: bool = False) -> None:
        """Close --out; after a stop in the middle of writing to standard output (a reader that
        stopped reading), drop what is still buffered for it rather than wait at the exit."""
        if stopped and self.writing and self.path is None:
            silence_stdout()
        if self._file is not None:
            with suppress(OSError):
                self._file.close()
        self._file = None


def puzzle_json(puzzle: Puzzle) -> dict[str, object]:
    """One generated puzzle as a JSON object: its rows are the text format's rows of labels."""
    return {"name": puzzle.name, "n": puzzle.n, "k": puzzle.k, "rule": puzzle.rule,
            "meta": dict(puzzle.meta), "rows": format_puzzle(puzzle, header=False).splitlines()}


def _is_regular_file(stream: IO[Any]) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False  # a test's capture, or no file at all


def _puzzles(args: argparse.Namespace, first: int, work: Work) -> Iterable[Puzzle]:
    if args.difficulty:
        return _of_difficulty(args, first, work)
    return _hardest(args, first, work) if args.hard else _each_seed(args, first, work)


def _each_seed(args: argparse.Namespace, first: int, work: Work) -> Iterator[Puzzle]:
    """One puzzle per seed, `--count` seeds from `first`."""
    with tqdm(total=args.count, desc="generating", unit="puzzle", file=sys.stderr,
              disable=args.count == 1 or not _on_terminal()) as bar:
        for index, seed in enumerate(range(first, first + args.count)):
            name = puzzle_name(args.size, args.stars, seed)
            with work.step(f"generating puzzle {index + 1} of {args.count} ({name})"):
                (puzzle,) = generate_many(args.size, args.stars, [seed], rule=args.rule,
                                          harden_tries=args.harden)
            yield puzzle
            bar.update()


def _on_terminal() -> bool:
    """Progress bars only for a person watching: not into a log file or a test's pipe."""
    return sys.stderr is not None and sys.stderr.isatty()


def _check_candidates(args: argparse.Namespace) -> None:
    if args.candidates is None:
        args.candidates = 4 * args.count
    if args.candidates < args.count:
        raise QueensError(
            f"--candidates {args.candidates}: need at least --count ({args.count}) to choose from")


def _hardest(args: argparse.Namespace, first: int, work: Work) -> list[Puzzle]:
    """`--hard`: the `--count` hardest of `--candidates` puzzles from seeds `first`, `first`+1, ...
    (written at the end: which are kept is known only then). A seed no puzzle can be made from
    is said on stderr and skipped."""
    candidates = args.candidates
    seeds = range(first, first + candidates)
    with tqdm(total=candidates, desc="generating candidates", unit="puzzle", file=sys.stderr,
              disable=not _on_terminal()) as bar, \
            work.step(f"generating {candidates} candidates to keep the {args.count} hardest"):
        def counted(_: Puzzle) -> None:  # tqdm's update returns a bool, progress nothing
            bar.update()

        skipped: list[tuple[int, str]] = []
        made = generate_many(args.size, args.stars, seeds, rule=args.rule, progress=counted,
                             harden_tries=args.harden, skipped=skipped)
        kept = hardest(made, args.count)
    for seed, reason in skipped:
        print(f"queens-autosolve: seed {seed} skipped: {reason}", file=sys.stderr)
    if skipped:
        print(f"queens-autosolve: {len(skipped)} of {candidates} candidates skipped; kept {len(kept)}",
              file=sys.stderr)
    return kept


def _of_difficulty(args: argparse.Namespace, first: int, work: Work) -> Iterator[Puzzle]:
    """`--difficulty`: the first `--count` puzzles of that grade among seeds `first`, `first`+1, ..."""
    difficulty = Difficulty(args.difficulty)
    seed = first
    with tqdm(total=args.count, desc=f"generating {difficulty.value}", unit="puzzle", file=sys.stderr,
              disable=args.count == 1 or not _on_terminal()) as bar:
        for _ in range(args.count):
            with work.step(f"looking for a {difficulty.value} puzzle from seed {seed}"):
                graded = generate_graded(args.size, difficulty, k=args.stars, seed=seed, rule=args.rule)
            yield graded.puzzle
            seed += graded.tries
            bar.update()
