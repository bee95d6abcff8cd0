"""`queens-autosolve generate`: new puzzles with exactly one solution, in the shared text format.

Puzzle i of a run uses seed S+i and is named ``gen-n{N}-k{K}-s{S+i}``, so any single puzzle can
be made again on its own with ``--seed S+i --count 1``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from tqdm import tqdm

from solver.errors import QueensError
from solver.formats import format_puzzles
from solver.generate import check_size, generate_many
from solver.puzzle import RULES


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="make new puzzles with exactly one solution",
        description="Make random puzzles with exactly one solution and print them in the shared "
        "text format. The same --seed always gives the same puzzles.",
    )
    parser.add_argument("--size", "-n", type=int, required=True, metavar="N", help="board size N (N x N)")
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
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_size(args.size, args.stars, args.rule)
    if args.count < 1:
        raise QueensError(f"--count {args.count}: ask for at least one puzzle")
    if args.out is not None and args.out.is_dir():
        raise QueensError(f"--out {args.out}: is a folder; give a file name")
    first = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    seeds = range(first, first + args.count)
    with tqdm(total=args.count, desc="generating", unit="puzzle", file=sys.stderr,
              disable=args.count == 1) as bar:
        puzzles = generate_many(args.size, args.stars, seeds, rule=args.rule, progress=lambda _: bar.update())
    text = format_puzzles(puzzles)
    if args.out is None:
        sys.stdout.write(text)
    else:
        try:
            args.out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise QueensError(f"--out {args.out}: cannot write ({exc.strerror})") from None
    return 0
