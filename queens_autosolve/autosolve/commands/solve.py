"""`queens-autosolve solve`: solve every puzzle in files, puzz.link URLs, standard input or a
screenshot, and print the answers in order (grids, JSON Lines, or the deductions step by step)."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from queens_autosolve.autosolve.cli import is_pipe, time_limit
from queens_autosolve.autosolve.flags import TIMEOUT
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.propagate import Step
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import SearchResult, explain, search

# The coach (grades) and the vision stack (numpy) are imported where used: a text puzzle's
# solve pays for neither at start-up.
if TYPE_CHECKING:
    from queens_autosolve.solver.coach import Grade
    from queens_autosolve.vision.reading import BoardReading


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve puzzles from a file, a puzz.link URL, - (stdin) or a screenshot",
        description="Print each puzzle's answer as a grid (Q = queen), in the order given. Exits 1 "
        "when a puzzle has no solution, 2 on unreadable input or when --timeout runs out.",
    )
    parser.add_argument("sources", nargs="*", metavar="FILE|URL|-",
                        help="puzzle files, puzz.link URLs or - (standard input)")
    parser.add_argument("--image", metavar="IMAGE", help="read the board from a screenshot instead")
    parser.add_argument("--sample", action="append", default=[], metavar="NAME",
                        help="solve a sample puzzle file that ships with the tool (e.g. queens-09, "
                        "stars2-10; a wrong name lists them); may be given more than once")
    parser.add_argument("--count", action="store_true", help="count solutions (stopping at 2)")
    parser.add_argument("--json", action="store_true", help="JSON Lines: one object per puzzle")
    parser.add_argument("--explain", action="store_true", help="print the deductions step by step")
    parser.add_argument("--grade", action="store_true",
                        help="grade each puzzle: the hardest tier of deduction its hints need from the "
                        "empty board (singles and neighbours, one unit confined, several units confined "
                        "together, block rules, needs a trial, needs a guess) and the number of steps")
    parser.add_argument("--timeout", type=TIMEOUT, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"give up after SECONDS in all (default {DEFAULT_TIMEOUT:g}; 0: no limit). "
                        "Published puzzles take milliseconds; made-up boards can take far longer "
                        "(measured: a 60x60 board with 15 stars unfinished after 15 s)")
    parser.set_defaults(func=run)


DEFAULT_TIMEOUT = 300.0


def run(args: argparse.Namespace) -> int:
    # JSON always counts to 2: a reader takes "solutions" at its word (it costs one more branch)
    limit = 2 if args.count or args.json else 1
    unsolved = 0
    timeout = args.timeout or None
    if args.sample:
        from queens_autosolve.autosolve.samples import sample_path

        args.sources = [*args.sources, *(str(sample_path(name)) for name in args.sample)]
    with time_limit(timeout, "solving") as work:
        # Read under the time limit too: a named pipe nobody writes to blocks in open().
        with work.step(f"reading {what_is_read(args.sources, args.image)}"):
            board = _reading_from_image(args.image, args.sources) if args.image else None
            puzzles = [board.puzzle()] if board is not None else load_puzzles(args.sources, None)
        if board is not None and not args.json:
            print("\n".join(reading_lines(board, args.image)), flush=True)
        for puzzle in puzzles:
            with work.step(f"solving {title(puzzle)}"):
                start = time.perf_counter()
                result = search(puzzle, limit=limit)
                seconds = time.perf_counter() - start
                steps = explain(puzzle) if args.explain else None
                graded = grade_of(puzzle, result) if args.grade else None
            unsolved += result.solution is None
            answer = _answer(puzzle, result, seconds, steps, args, graded, board)
            print(answer, flush=True)
    return 1 if unsolved else 0


def _answer(
    puzzle: Puzzle, result: SearchResult, seconds: float, steps: list[Step] | None, args: argparse.Namespace,
    graded: Grade | str | None = None, reading: BoardReading | None = None,
) -> str:
    """One puzzle's answer as printed: a JSON line, or the grid (and steps, and grade) and a blank
    line; from a screenshot, the JSON says how sure its reading is."""
    if args.json:
        import json  # only here: a solve without --json never loads it (start-up)

        record = result_json(puzzle, result, seconds)
        if reading is not None:
            record.update(reading_json(reading))
        if steps is not None:
            record["steps"] = [step.text for step in steps]
        if args.grade:
            record["grade"] = None if isinstance(graded, str) or graded is None else graded.to_json()
            if isinstance(graded, str):
                record["grade_note"] = graded
        return json.dumps(record)
    lines = [describe(puzzle, result, counted=args.count)]
    if steps is not None:
        lines += format_steps(steps)
    if args.grade:
        lines.append(f"grade: {graded if isinstance(graded, str) or graded is None else graded.describe()}")
    return "\n".join(lines) + "\n"


def grade_of(puzzle: Puzzle, result: SearchResult) -> Grade | str:
    """The puzzle's grade, or why it has none (grades need exactly one solution)."""
    from queens_autosolve.solver.coach import CoachError, grade

    if result.solution is None:
        return "none: the puzzle has no solution"
    try:
        return grade(puzzle)
    except CoachError as exc:
        return f"none: {exc}"


def load_puzzles(sources: list[str], image: str | None) -> list[Puzzle]:
    """The puzzles named on the command line, in order: from a screenshot, or read by
    solver.formats (every file is read before any is solved, so a typo fails at once)."""
    if image and sources:
        raise QueensError("give either puzzle FILE|URL|- arguments or --image IMAGE, not both")
    if image:
        return [_reading_from_image(image, sources).puzzle()]
    if not sources:
        raise QueensError("nothing to solve: give a puzzle FILE, a puzz.link URL, - for stdin, or --image")
    if sources.count("-") > 1:
        raise QueensError("- (standard input) given twice; it can be read only once")
    return [puzzle for source in sources for puzzle in read_puzzles(source)]


def what_is_read(sources: list[str], image: str | None) -> str:
    """What the reading step is about, for the timeout message: a named pipe is said to be one
    (its open() waits for a writer)."""
    named = [image] if image else sources
    pipes = [name for name in named if name != "-" and is_pipe(name)]
    if pipes:
        return f"the named pipe {pipes[0]} (nothing writes to it?)"
    return ", ".join(named[:3]) + (" ..." if len(named) > 3 else "") if named else "the input"


def _reading_from_image(path: str, sources: list[str]) -> BoardReading:
    """The board in a screenshot (read as a still: a tight crop may be the whole board)."""
    if sources:
        raise QueensError("give either puzzle FILE|URL|- arguments or --image IMAGE, not both")
    # Imported here so that solving text puzzles never needs the vision stack (OpenCV).
    try:
        from queens_autosolve.vision import read_image
    except ImportError as exc:
        raise QueensError(f"--image needs the vision package, which failed to load: {exc}") from None
    return read_image(path)


def reading_lines(reading: BoardReading, path: str) -> list[str]:
    """What was read from the screenshot and how sure it is; an uncertain reading says why."""
    lines = [f"read a {reading.n}x{reading.n} board from {path} (confidence {reading.confidence:.2f})"]
    if reading.tight_crop:
        from queens_autosolve.vision.reading import TIGHT_LINE

        lines.append(TIGHT_LINE)
    if not reading.is_certain:
        lines.append(reading.uncertain_line("the answer may be for another puzzle"))
    return lines


def reading_json(reading: BoardReading) -> dict[str, object]:
    """How sure the screenshot's reading is, for the JSON line."""
    return {"confidence": round(reading.confidence, 3), "certain": reading.is_certain,
            "reasons": list(reading.reasons), "frame": reading.frame_note}


def title(puzzle: Puzzle) -> str:
    stars = f", k={puzzle.k}" if puzzle.k != 1 else ""
    rule = f", rule={puzzle.rule}" if puzzle.rule != "touch" else ""
    return f"{puzzle.name or 'puzzle'} ({puzzle.n}x{puzzle.n}{stars}{rule})"


def describe(puzzle: Puzzle, result: SearchResult, *, counted: bool) -> str:
    """The puzzle's name, its answer grid (or "no solution"), and the count when asked."""
    lines = [title(puzzle)]
    if result.solution is None:
        lines.append("no solution")
    else:
        lines += result.solution.grid(puzzle.n)
    if counted:
        lines.append("solutions: " + ("2 or more" if result.count >= 2 else str(result.count)))
    return "\n".join(lines)


def result_json(puzzle: Puzzle, result: SearchResult, seconds: float) -> dict[str, object]:
    queens = [list(cell) for cell in result.solution.queens] if result.solution else None
    return {
        "name": puzzle.name,
        "n": puzzle.n,
        "k": puzzle.k,
        "rule": puzzle.rule,
        "solutions": result.count,
        "queens": queens,
        "nodes": result.nodes,
        "seconds": round(seconds, 6),
    }


def format_steps(steps: list[Step]) -> list[str]:
    """Numbered steps, indented by how many guesses are open."""
    return [f"{i:4}. {'  ' * step.depth}{step.text}" for i, step in enumerate(steps, start=1)]
