"""The proof of a big Queens Game position shared out between cores: this process and forked
copies of it take the position's moves from one queue, and each proves the positions they leave.

Python runs one thread at a time, so the copies are processes. Forked, they start with the
solver's memo as it stands, and need nothing sent to them. They share a pipe holding the index
of every undecided child, from which each process reads the next, and memory mapped before the
fork (`_Shared`):

- per child, its status (to do, taken, won, lost) and, once won, the cell of its refutation;
- a flag raised when a child is lost (the position is won): the others stop (`until_win`).

A refutation found by one process settles a second child for all: when the opponent's queen on b
refutes our queen on a, the queen on a refutes our queen on b (the same two queens leave the same
cells), which `KaylesSolver` marks in its memo as a won sibling. Back in this process, every
child's result and the lost position under each refutation go into the memo, so the moves and the
analysis that follow find them; what the copies proved below that is lost with them.

Two processes search more positions in all than one (neither sees what the other proves below
the children), but each searches fewer (docs/notes.md). Small positions stay in this process
(SPLIT_CELLS, ALONE_SECONDS): there a fork costs more than it saves.
"""

from __future__ import annotations

import mmap
import os
import signal
import time
from contextlib import suppress
from dataclasses import dataclass

from queens_autosolve.twoplayer.queens_solver import KaylesSolver, SearchHalted

# Positions with at least this many free cells are shared out (10x10: the empty board and the
# positions after one queen; 12x12: the first two or three queens).
SPLIT_CELLS = 70
# A position is first searched here alone for this long: most are proved within it (the first
# move of 8x8 to 10x10 hard, and after a queen or two), and need no fork. A fork costs this
# process ~5-10 ms as it copies the pages it writes to afterwards.
ALONE_SECONDS = 0.05
MAX_PROCESSES = 4  # a cap on memory: each copy grows a memo of its own (more are untested)
TODO, TAKEN, WON, LOST = 0, 1, 2, 3  # a child's status: won or lost for the player to move in it
NO_CELL = -1


def processes_available() -> int:
    """How many processes a split may use: the cores this process may run on, at most
    MAX_PROCESSES; 1 where there is no fork (nothing is shared out then)."""
    if not hasattr(os, "fork"):
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(MAX_PROCESSES, cores))


class _Shared:
    """The memory the processes share, one slot per child: status, refuting cell; and per
    process the positions it searched. Mapped before the fork, so every copy sees the same."""

    def __init__(self, children: int, processes: int) -> None:
        self._maps = [mmap.mmap(-1, max(1, size)) for size in (children, 2 * children, 8 * processes, 1)]
        self.status = memoryview(self._maps[0])
        self.reply = memoryview(self._maps[1]).cast("h")
        self.nodes = memoryview(self._maps[2]).cast("q")
        self.found = memoryview(self._maps[3])  # found[0] = 1: a child is lost
        for i in range(children):
            self.reply[i] = NO_CELL

    def close(self) -> None:
        for view in (self.status, self.reply, self.nodes, self.found):
            view.release()
        for mapped in self._maps:
            mapped.close()


@dataclass
class _Split:
    """One split: the position, its undecided children in the order the search tries them (with
    the cell leading to each), and where each child sits in that list."""

    solver: KaylesSolver
    free: int
    children: list[int]
    cells: list[int]
    until_win: bool

    def __post_init__(self) -> None:
        self.index = {child: i for i, child in enumerate(self.children)}

    def refuting_cell(self, child: int) -> int:
        """A cell whose queen the memo shows winning `child` (its proof left one there)."""
        memo, conflicts = self.solver.memo, self.solver.conflicts
        rest = child
        while rest:
            cell = rest.bit_length() - 1
            rest ^= 1 << cell
            after = child & ~conflicts[cell]
            if not after or memo.get(after) is False:
                return cell
        return NO_CELL

    def work(self, shared: _Shared, queue: int) -> None:
        """Take children from the queue and prove them until it is empty (or, `until_win`, one is
        lost); raises SearchHalted or SolveTimeout from inside a proof."""
        solver, status = self.solver, shared.status
        while not (self.until_win and shared.found[0]):
            taken = os.read(queue, 2)
            if not taken:
                return
            i = int.from_bytes(taken, "little")
            if status[i] != TODO:
                continue  # settled meanwhile, as a won sibling
            status[i] = TAKEN
            child = self.children[i]
            known = solver.memo.get(child)
            won = solver.child_wins(self.free, child) if known is None else known
            if won:
                self.settle_won(shared, i, self.refuting_cell(child))
            else:
                status[i] = LOST
                shared.found[0] = 1

    def settle_won(self, shared: _Shared, i: int, reply: int) -> None:
        """Child i is won by a queen on `reply`: so is the child that queen leads to (its queen
        on the cell leading to child i wins it), unless another process has it already."""
        shared.reply[i], shared.status[i] = reply, WON
        if reply == NO_CELL or not self.free >> reply & 1:
            return
        j = self.index.get(self.free & ~self.solver.conflicts[reply])
        if j is not None and shared.status[j] == TODO:
            shared.reply[j], shared.status[j] = self.cells[i], WON

    def learn(self, shared: _Shared) -> None:
        """Put what the processes proved into this process's memo: each settled child, and the
        lost position under each refutation."""
        memo, conflicts = self.solver.memo, self.solver.conflicts
        for i, child in enumerate(self.children):
            if shared.status[i] == LOST:
                memo[child] = False
            elif shared.status[i] == WON:
                memo[child] = True
                reply = shared.reply[i]
                if reply != NO_CELL:
                    memo[child & ~conflicts[reply]] = False

    def finish(self, shared: _Shared) -> None:
        """Prove here what a copy took but did not settle (it died, or ran out of time)."""
        solver = self.solver
        for i, child in enumerate(self.children):
            if self.until_win and shared.found[0]:
                return
            if shared.status[i] in (TODO, TAKEN):
                if solver.child_wins(self.free, child):
                    self.settle_won(shared, i, self.refuting_cell(child))
                else:
                    shared.status[i], shared.found[0] = LOST, 1


def prove_children(
    solver: KaylesSolver, free: int, until_win: bool = True, processes: int | None = None,
    alone: float = ALONE_SECONDS,
) -> None:
    """Leave in `solver.memo` the result of every child of `free` (`until_win`: up to the first
    one lost, which wins `free`), proved by `processes` processes (default: one per core, at most
    MAX_PROCESSES). Positions under SPLIT_CELLS free cells, those proved in this process within
    `alone` seconds (0: share out at once) and those with one child left to prove are the
    solver's alone. Keeps the solver's budget: each process stops at its deadline, and
    SolveTimeout comes out of this one."""
    if free.bit_count() < SPLIT_CELLS:  # most moves of a game: nothing more to look up
        return
    processes = processes_available() if processes is None else processes
    if processes < 2 or _proved_alone(solver, free, until_win, alone):
        return
    split = _plan(solver, free, until_win)
    if split is None:
        return
    shared = _Shared(len(split.children), processes)
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"".join(i.to_bytes(2, "little") for i in range(len(split.children))))
        os.close(write_end)
        slots = range(1, min(processes, len(split.children)))
        copies = [pid for pid in (_fork(split, shared, read_end, slot) for slot in slots) if pid]
        done = False
        try:
            start = solver.nodes
            with solver.halting(lambda: until_win and bool(shared.found[0])), suppress(SearchHalted):
                split.work(shared, read_end)
            shared.nodes[0] = solver.nodes - start
            done = True
        finally:  # the copies' work is of no more use once the answer is known, or on an error
            _reap(copies, kill=not done or bool(until_win and shared.found[0]))
        split.learn(shared)
        split.finish(shared)
        split.learn(shared)
        solver.nodes += sum(shared.nodes[1:])
    finally:
        os.close(read_end)
        shared.close()


def _proved_alone(solver: KaylesSolver, free: int, until_win: bool, seconds: float) -> bool:
    """Prove what `prove_children` is asked in this process alone, if that takes less than
    `seconds`; else stop (what was proved stays in the memo, and the copies start with it)."""
    if seconds <= 0:
        return False
    give_up = time.perf_counter() + seconds
    conflicts = solver.conflicts
    try:
        with solver.halting(lambda: time.perf_counter() > give_up):
            if until_win:
                solver.wins(free)
            else:
                for cell in range(len(conflicts)):
                    if free >> cell & 1:
                        solver.child_wins(free, free & ~conflicts[cell])
    except SearchHalted:
        return False
    return True


def _plan(solver: KaylesSolver, free: int, until_win: bool) -> _Split | None:
    """The split of `free`, or None when the solver's own search is the better way: one the
    memo decides, or (`until_win`) one with a child that ends the game or that the memo shows
    lost, or one with a single child left to prove."""
    if free in solver.memo:
        return None
    conflicts, memo = solver.conflicts, solver.memo
    leading: dict[int, int] = {}  # undecided child -> the highest cell leading to it
    rest = free
    while rest:
        cell = rest.bit_length() - 1
        rest ^= 1 << cell
        child = free & ~conflicts[cell]
        known = memo.get(child)
        if not child or known is False:
            if until_win:
                return None
        elif known is None:
            leading.setdefault(child, cell)
    children = list(leading)
    if len(children) < 2:
        return None
    solver.order_children(free, children)
    return _Split(solver, free, children, [leading[child] for child in children], until_win)


def _fork(split: _Split, shared: _Shared, queue: int, slot: int) -> int | None:
    """Start a copy of this process proving children of the split; its pid (None: the system
    would not make one, and this process proves what it would have). The copy runs the
    solver alone (no lock, file or thread of this process), writes only to the shared memory and
    leaves by os._exit, so nothing of this process (its buffers, servers, atexit hooks) runs twice.
    It stops when this process is gone too."""
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:  # no memory or too many processes
        return None
    if pid:
        return pid
    code = 1

    def halt() -> bool:
        return os.getppid() != parent or (split.until_win and bool(shared.found[0]))

    try:
        solver = split.solver
        start = solver.nodes
        with solver.halting(halt):
            split.work(shared, queue)
        shared.nodes[slot] = solver.nodes - start
        code = 0
    except BaseException:
        pass
    finally:
        os._exit(code)


def _reap(pids: list[int], kill: bool) -> None:
    """Wait for the copies to end, killing them first when their work is of no more use."""
    for pid in pids:
        if kill:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
