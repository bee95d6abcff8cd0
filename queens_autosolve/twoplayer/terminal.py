"""Terminal play shared by the games: human vs human, human vs AI, AI vs AI.

People type moves in the game's notation, or a command: ``moves`` (list the legal moves),
``undo`` (take back your last move and the reply), ``position`` (print the position string),
``quit``. A move that does not parse or is not legal gets the reason and the prompt again;
the game goes on. End of input ends the game quietly.
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import TextIO

from queens_autosolve.twoplayer.game import GameState, IllegalMoveError, M, Outcome, S, outcome
from queens_autosolve.twoplayer.players import Player

HELP = "type a move, or: moves, undo, position, quit"


class QuitGame(Exception):
    """The person at the keyboard asked to stop (or input ended)."""


class UndoRequest(Exception):
    """The person asked to take back their last move."""


class Console:
    """Where the loop reads and writes: standard input/output unless told otherwise."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._stdin = stdin
        self._stdout = stdout

    def say(self, text: str = "") -> None:
        print(text, file=self._stdout or sys.stdout, flush=True)

    def ask(self, prompt: str) -> str:
        out = self._stdout or sys.stdout
        out.write(prompt)
        out.flush()
        stream = self._stdin or sys.stdin
        line = stream.readline() if stream is not None and not stream.closed else ""
        if not line:  # end of input, or no input at all (stdin closed)
            self.say()
            raise QuitGame
        return line.strip()


class HumanPlayer:
    """Reads moves from the console until one is legal."""

    def __init__(self, name: str, console: Console) -> None:
        self.name = name
        self.console = console

    def choose(self, state: GameState[M]) -> M:
        while True:
            text = self.console.ask(f"{self.name} to move> ")
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise QuitGame
            if word == "undo":
                raise UndoRequest
            if word in ("moves", "?", "help"):
                names = [state.move_name(m) for m in state.legal_moves()]
                self.console.say("\n".join(legal_moves_text(names)))
                self.console.say(HELP)
                continue
            if word == "position":
                self.console.say(state.position())
                continue
            if not text:
                continue
            try:
                return state.parse_move(text)
            except IllegalMoveError as exc:
                self.console.say(f"illegal move: {exc} ({HELP})")


CELL = re.compile(r"r(\d+)c\d+")
SHOWN_MOVES = 120  # more than this many legal moves: the first ones and the count
WIDTH = 78


def legal_moves_text(names: Sequence[str]) -> list[str]:
    """The legal moves as lines a person can scan: cells (``r3c5``) one line per row, other
    moves in aligned columns; never wider than 78 characters.

    >>> legal_moves_text(["r1c2", "r1c4", "r3c1"])
    ['legal moves (3):', '  row 1: r1c2 r1c4', '  row 3: r3c1']
    >>> legal_moves_text(["a1-b2/c3", "a1-b2/d4", "f6-e5/a1"])
    ['legal moves (3):', '  a1-b2/c3  a1-b2/d4  f6-e5/a1']
    """
    lines = [f"legal moves ({len(names)}):"]
    shown = list(names[:SHOWN_MOVES])
    rows = [CELL.fullmatch(name) for name in shown]
    if all(rows):
        by_row: dict[int, list[str]] = {}
        for name, match in zip(shown, rows):
            assert match is not None
            by_row.setdefault(int(match.group(1)), []).append(name)
        for row, cells in by_row.items():
            lines += textwrap.wrap(" ".join(cells), WIDTH, initial_indent=f"  row {row}: ",
                                   subsequent_indent=" " * len(f"  row {row}: "))
    else:
        column = max((len(name) for name in shown), default=0) + 2
        per_line = max(1, (WIDTH - 2) // column)
        for start in range(0, len(shown), per_line):
            line = "".join(name.ljust(column) for name in shown[start:start + per_line])
            lines.append("  " + line.rstrip())
    if len(names) > SHOWN_MOVES:
        lines.append(f"  ... and {len(names) - SHOWN_MOVES} more")
    return lines


def play_game(
    state: S,
    players: Sequence[Player[S, M]],
    names: Sequence[str],
    console: Console,
    *,
    show: Callable[[S], str] = str,
) -> Outcome | None:
    """Play `state` to the end; returns the outcome, or None when someone quit."""
    humans = [isinstance(p, HumanPlayer) for p in players]
    console.say(show(state))
    while not state.is_over():
        mover = state.turn
        player = players[mover]
        try:
            move = player.choose(state)
        except QuitGame:
            console.say("game abandoned")
            return None
        except UndoRequest:
            _undo(state, humans, console)
            console.say(show(state))
            continue
        console.say(f"{names[mover]} plays {state.move_name(move)}")
        state.push(move)
        console.say(show(state))
    result = outcome(state)
    assert result is not None
    console.say(f"{names[result.winner]} wins ({names[1 - result.winner]} has no move left)")
    return result


def _undo(state: GameState[M], humans: Sequence[bool], console: Console) -> None:
    """Take back plies until it is a person's turn again, at least one ply."""
    if not state.stack:
        console.say("nothing to undo")
        return
    state.pop()
    while state.stack and not humans[state.turn]:
        state.pop()
    console.say("move taken back")
