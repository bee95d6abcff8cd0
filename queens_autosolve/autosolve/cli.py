"""The `queens-autosolve` command: one entry point, a subcommand per job.

Each subcommand lives in `autosolve/commands/<name>.py` and exposes
``register(subparsers) -> None``, which adds its parser and sets ``func(args) -> int``.
With no subcommand (or only options) the main job runs: ``queens-autosolve [--dry-run] ...``
is ``queens-autosolve run ...``.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import math
import os
import signal
import stat
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NoReturn

from queens_autosolve.solver.errors import QueensError

PROG = "queens-autosolve"
COMMANDS = (
    "run", "solve", "generate", "bench", "detect", "practice", "demo", "play", "arena", "hint", "watch",
    "completion",
)
_HELP = {"-h", "--help", "--version"}
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand, or with just `only` (so a run imports one stage's code:
    `solve` never loads OpenCV, `run` never loads the games)."""
    parser = Parser(
        prog=PROG,
        description="Solve the LinkedIn Queens puzzle straight off the screen "
        "(and offline: text puzzles, screenshots, generator, two-player games).",
    )
    parser.add_argument("--version", action=VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"queens_autosolve.autosolve.commands.{name}").register(subparsers)
    return parser


class BadArguments(QueensError):
    """The command line itself is wrong: an unknown option, a missing value, a number out of range."""


class Parser(argparse.ArgumentParser):
    """argparse's parser with its refusals as a user error (one line naming what is wrong and
    where the help is, exit status 2) instead of the usage text; subcommands' parsers are of
    this class too."""

    def error(self, message: str) -> NoReturn:
        raise BadArguments(f"{' '.join(message.split())} (see {self.prog} --help)")


class VersionAction(argparse.Action):
    """--version, looked up only when asked for: reading the installed metadata costs 25 ms
    (importlib.metadata), which every run would pay if the text were built with the parser."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str = "show the version and exit") -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"{PROG} {_version()}")  # on stdout, as argparse's own version action does
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("queens-autosolve")
    except PackageNotFoundError:
        return "unknown"


# One-shot commands whose process ends with nothing left to do once `main` returns: their
# interpreter teardown (numpy, OpenCV, the X connections) is skipped, as it costs more than
# grabbing and reading the board together (docs/notes.md).
QUICK_EXIT = frozenset({"run", "hint"})


def entry() -> NoReturn:
    """The installed command (and `python -m queens_autosolve`): `main`, then exit with its status;
    after a QUICK_EXIT command, at once, its output flushed and every file and window closed."""
    # One BLAS thread (unless the user asks for more): nothing here multiplies matrices big enough
    # to share out, and the pool OpenBLAS starts when numpy is imported spins (docs/notes.md).
    # It must be set before numpy is imported, which no module imported above does.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    status = main()
    if _command(sys.argv[1:]) in QUICK_EXIT:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                with suppress(OSError, ValueError):
                    stream.flush()
        os._exit(status)
    sys.exit(status)


def _command(args: Sequence[str]) -> str | None:
    """The subcommand `main` runs for these arguments (none given: the main job, `run`)."""
    if not args or (args[0].startswith("-") and args[0] not in _HELP):
        return "run"
    return args[0] if args[0] in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors print one line and return 2, never a traceback; Ctrl-C at any
    point (also while the command's modules are still being imported) prints "interrupted" and
    returns 130."""
    try:
        return _run(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


def _run(args_list: list[str]) -> int:
    command = _command(args_list)
    if command == "run" and (not args_list or args_list[0] != "run"):
        args_list.insert(0, "run")
    as_json = "--json" in args_list  # before parsing: a refused command line is reported in JSON too
    try:
        args = build_parser(command).parse_args(args_list)
    except BadArguments as exc:
        return _fail(str(exc), as_json=as_json)
    as_json = bool(getattr(args, "json", False))
    try:
        status = int(args.func(args) or 0)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk shows here, while we can still report it
        return status
    except QueensError as exc:
        return _fail(str(exc), as_json=as_json)
    except BrokenPipeError:
        silence_stdout()
        return 0
    except MemoryError:
        return _fail("out of memory; try a smaller board or image", as_json=as_json)
    except OSError as exc:
        if not _is_output_error(exc):
            raise
        silence_stdout()
        return _fail(f"cannot write the output ({exc.strerror or exc}); check where standard output goes")


def _fail(message: str, *, as_json: bool = False) -> int:
    """Report a user error as one line on stderr; the exit status is 2. Under --json the same
    message also goes to stdout as ``{"error": message}``, so a program reading the JSON sees
    why there is no result without parsing stderr."""
    print(f"{PROG}: error: {message}", file=sys.stderr, flush=True)
    if as_json and sys.stdout is not None:
        import json  # only here: a command without --json never loads it (start-up)

        with suppress(OSError, ValueError):
            print(json.dumps({"error": message}), flush=True)
    return 2


def _is_output_error(exc: OSError) -> bool:
    """True when the OSError came from writing standard output (a full disk, an I/O error):
    such errors name no file, and they are the ones only a write can give. Any other OSError is
    a bug: the command should have reported it with the file it was about."""
    return exc.filename is None and exc.errno in _WRITE_ERRNOS


def silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush at exit cannot fail again
    (the Python docs' recipe for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def check_output_file(path: Path, option: str, suffixes: tuple[str, ...] = ()) -> Path:
    """Refuse, before any work, an output path that cannot take the file: a folder, a missing
    folder, no permission, or (with `suffixes`) another kind of file."""
    if path.is_dir():
        raise QueensError(f"{option} {path}: is a folder; give a file name")
    if suffixes and path.suffix.lower() not in suffixes:
        raise QueensError(f"{option} {path}: the file name must end in {' or '.join(suffixes)}")
    folder = path.parent
    if not folder.is_dir():
        raise QueensError(f"{option} {path}: folder {folder} does not exist")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise QueensError(f"{option} {path}: cannot write there (permission denied)")
    return path


def is_pipe(path: str | Path) -> bool:
    """True for a named pipe (FIFO): opening one waits until the other end is opened too."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


class Stopped(QueensError):
    """A command ran past its --timeout."""


class Work:
    """What a command is doing now (``solving puzzle 3 (35x35)``), for the message when the
    time runs out and for the progress line: on a terminal, a step that takes more than two
    seconds shows its name and time on stderr, rewritten every second and wiped when it ends
    (so it never mixes with the command's own output)."""

    DELAY = 2.0  # quick steps show nothing

    def __init__(self, doing: str, *, show: bool) -> None:
        self.doing = doing
        self._started = time.monotonic()
        self._active = False
        self._shown = False
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True) if show else None
        if self._thread is not None:
            self._thread.start()

    @contextmanager
    def step(self, doing: str) -> Iterator[None]:
        """Name the work done inside (for the progress line and the timeout message)."""
        with self._lock:
            self.doing, self._started, self._active = doing, time.monotonic(), True
        try:
            yield
        finally:
            with self._lock:
                self._active = False
                self._wipe()

    def _tick(self) -> None:
        while not self._closed.wait(0.25):
            with self._lock:
                elapsed = time.monotonic() - self._started
                if self._active and elapsed >= self.DELAY:
                    sys.stderr.write(f"\r\033[K{self.doing}: {elapsed:.0f} s (Ctrl-C stops)")
                    sys.stderr.flush()
                    self._shown = True

    def _wipe(self) -> None:
        if self._shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self._shown = False

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._wipe()


@contextmanager
def time_limit(seconds: float | None, doing: str, *, progress: bool = True) -> Iterator[Work]:
    """Stop the work inside with `Stopped` after `seconds` (None: no limit); name its steps
    with `Work.step` for the progress line (shown unless `progress` is off) and the message.

    The limit is a SIGALRM timer, so it reaches into pure-Python loops (the solver, the
    generator, game search) without them polling a clock; it needs the main thread (Unix).
    """
    if seconds is not None and not seconds > 0:
        raise QueensError(f"--timeout {seconds:g}: give a positive number of seconds (0: no limit)")
    if seconds is not None and math.isinf(seconds):
        seconds = None
    work = Work(doing, show=progress and sys.stderr is not None and sys.stderr.isatty())
    use_alarm = seconds is not None and threading.current_thread() is threading.main_thread()

    def stop(_signum: int, _frame: object) -> None:
        raise Stopped(f"stopped after {seconds:g} s: {work.doing}; raise --timeout or choose a smaller size")

    previous = signal.signal(signal.SIGALRM, stop) if use_alarm else None
    if use_alarm and seconds is not None:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield work
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        work.close()


if __name__ == "__main__":
    sys.exit(main())
