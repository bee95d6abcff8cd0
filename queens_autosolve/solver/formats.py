"""Reading and writing puzzles as text: the shared format, Kwekker's plain boards, token grids
and puzz.link Star Battle URLs.

The shared format (see ../shared/data/SOURCES.md)::

    # NAME key=value key=value ...      optional header (n, k, given=r,c;r,c, anything else kept)
    AABBBCCC                            n lines of n region labels, one character per cell
    ...                                 (or whitespace-separated tokens, one per cell)
                                        a blank line between puzzles
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, AnyStr

from queens_autosolve.solver.errors import PuzzleFormatError
from queens_autosolve.solver.puzzle import MAX_SIZE, Cell, Puzzle

PUZZLINK = re.compile(r"p\?starbattle/(\d+)/(\d+)/(\d+)/([0-9a-v]+)", re.IGNORECASE)
# Anything that looks like a puzz.link Star Battle address, well formed or not, so that a
# broken one gets a message about the URL rather than "no such file".
PUZZLINK_LIKE = re.compile(r"puzz\.link|p\?starbattle", re.IGNORECASE)
MAX_INPUT_BYTES = 16 * 1024 * 1024  # far above any puzzle collection (10-2-expert: 5718 puzzles, 0.7 MB)
MAX_DIGITS = 6  # numbers in headers and URLs: far above any board, far below int()'s 4300-digit limit
_B32 = "0123456789abcdefghijklmnopqrstuv"
_KNOWN_KEYS = {"n", "k", "given", "rule"}


@dataclass(frozen=True)
class _Block:
    """A puzzle's lines as found in a file: header (or None) and body, with line numbers."""

    header: tuple[int, str] | None
    body: list[tuple[int, str]]


def read_puzzles(source: str) -> list[Puzzle]:
    """Every puzzle in a file path, a puzz.link URL, or ``-`` (standard input)."""
    if source == "-":
        return parse_puzzles(read_text(source), "<stdin>")
    path = Path(source)
    exists = _exists(path)
    if PUZZLINK_LIKE.search(source) and not exists:
        return [parse_puzzlink(source)]
    if not exists:
        raise PuzzleFormatError(
            f"{_clip_path(source)}: no such file (give a puzzle file, a puzz.link URL or -)"
        )
    return parse_puzzles(read_text(source), source, default_name=path.stem)


def read_text(source: str, what: str = "puzzle") -> str:
    """The text of a file, or of standard input for ``-``: at most MAX_INPUT_BYTES of UTF-8.
    PuzzleFormatError says what is wrong (missing, a folder, binary, too big, stdin closed)."""
    if source == "-":
        return _read_stdin()
    path = Path(source)
    if not _exists(path):
        raise PuzzleFormatError(f"{_clip_path(source)}: no such file (give a {what} file or -)")
    if path.is_dir():
        raise PuzzleFormatError(f"{source}: is a folder; give a {what} file")
    try:
        with path.open("rb") as stream:
            data = _read_capped(stream, source)
    except OSError as exc:
        raise PuzzleFormatError(f"{source}: cannot read it ({exc.strerror or exc})") from None
    return decode_text(data, source)


def _exists(path: Path) -> bool:
    """Path.exists, except that a name the system refuses (too long, say) does not exist."""
    try:
        return path.exists()
    except OSError:
        return False


def _read_stdin() -> str:
    """Standard input as text, read as bytes when it can be (so the same checks apply as to
    files); a text stream (tests, embedding) is taken as it is."""
    if sys.stdin is None or sys.stdin.closed:
        raise PuzzleFormatError("<stdin>: standard input is closed; pipe a puzzle in or give a FILE")
    binary = getattr(sys.stdin, "buffer", None)
    try:
        if binary is None:
            return str(_read_capped(sys.stdin, "<stdin>"))
        return decode_text(_read_capped(binary, "<stdin>"), "<stdin>")
    except OSError as exc:
        raise PuzzleFormatError(f"<stdin>: cannot read it ({exc.strerror or exc})") from None


def _read_capped(stream: IO[AnyStr], source: str) -> AnyStr:
    """At most MAX_INPUT_BYTES from `stream`; more is refused rather than read (``/dev/zero``
    would otherwise fill the memory)."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise PuzzleFormatError(
            f"{source}: more than {MAX_INPUT_BYTES // (1024 * 1024)} MiB; "
            "not a puzzle file (split it if it is one)"
        )
    return data


def decode_text(data: bytes, source: str) -> str:
    """Bytes of a puzzle file as text; binary junk is refused with a message."""
    if b"\x00" in data:
        raise PuzzleFormatError(f"{source}: binary data, not a puzzle text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(
            f"{source}: not UTF-8 text (byte {exc.start}); save the puzzle as plain text"
        ) from None


def parse_puzzles(text: str, source: str = "<text>", *, default_name: str = "") -> list[Puzzle]:
    """Every puzzle in `text`, in order. Raises PuzzleFormatError naming the source and line."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if any(ch < " " and ch not in "\n\t" for ch in text):
        raise PuzzleFormatError(f"{source}: contains control characters; not a puzzle text file")
    blocks = _split_blocks(text)
    if not blocks:
        raise PuzzleFormatError(f"{source}: empty: no puzzle found")
    puzzles = []
    for index, block in enumerate(blocks):
        name = default_name if len(blocks) == 1 else f"{default_name or 'puzzle'}#{index + 1}"
        puzzles.append(_parse_block(block, source, name))
    return puzzles


def parse_puzzle(text: str, source: str = "<text>") -> Puzzle:
    """Exactly one puzzle from `text`."""
    puzzles = parse_puzzles(text, source)
    if len(puzzles) != 1:
        raise PuzzleFormatError(f"{source}: holds {len(puzzles)} puzzles, expected one")
    return puzzles[0]


def _split_blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    header: tuple[int, str] | None = None
    body: list[tuple[int, str]] = []

    def close() -> None:
        nonlocal header, body
        if body:
            blocks.append(_Block(header, body))
        elif header is not None:
            blocks.append(_Block(header, []))
        header, body = None, []

    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            close()
        elif line.startswith("#"):
            if body:  # a header right after a board starts the next puzzle
                close()
            header = (number, line)
        else:
            body.append((number, line))
    close()
    return blocks


def _parse_header(number: int, line: str, source: str) -> tuple[str, dict[str, str]]:
    words = line[1:].split()
    name = ""
    if words and "=" not in words[0]:
        name = words.pop(0)
    meta = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise PuzzleFormatError(f"{source}:{number}: header word {word!r} is not key=value")
        meta[key] = value
    return name, meta


def _parse_given(value: str, where: str) -> list[Cell]:
    cells = []
    for part in filter(None, value.split(";")):
        m = re.fullmatch(rf"\s*(-?\d{{1,{MAX_DIGITS}}})\s*,\s*(-?\d{{1,{MAX_DIGITS}}})\s*", part)
        if not m:
            raise PuzzleFormatError(
                f"{where}: given={_clip(value)!r}: expected row,col;row,col (0-based, on the board)"
            )
        cells.append((int(m.group(1)), int(m.group(2))))
    return cells


def _int_key(meta: dict[str, str], key: str, where: str) -> int | None:
    if key not in meta:
        return None
    value = meta[key]
    if not re.fullmatch(rf"[+-]?\d{{1,{MAX_DIGITS}}}", value.strip()):
        raise PuzzleFormatError(
            f"{where}: {key}={_clip(value)!r} is not a whole number of up to {MAX_DIGITS} digits"
        )
    return int(value)


def _clip(text: str, width: int = 40) -> str:
    """`text` cut short for a message (a header value may be megabytes long)."""
    return text if len(text) <= width else text[:width] + "..."


def _clip_path(path: str, width: int = 80) -> str:
    """A path cut short for a message from its start: the file's own name, at the end, stays."""
    return path if len(path) <= width else "..." + path[-width:]


def _parse_block(block: _Block, source: str, default_name: str) -> Puzzle:
    name = default_name
    meta: dict[str, str] = {}
    if block.header:
        header_name, meta = _parse_header(*block.header, source)
        name = header_name or name
    first = block.header[0] if block.header else block.body[0][0]
    where = f"{source}:{first}"
    if not block.body:
        raise PuzzleFormatError(f"{where}: header with no board under it")
    if len(block.body) > MAX_SIZE:
        raise PuzzleFormatError(
            f"{where}: board has {len(block.body)} rows; the solver takes boards up to {MAX_SIZE}x{MAX_SIZE}"
        )
    tokens = any(len(line.split()) > 1 for _, line in block.body)
    rows = [line.split() if tokens else list(line) for _, line in block.body]
    n = len(rows)
    for (number, _), row in zip(block.body, rows):
        if len(row) != n:
            raise PuzzleFormatError(
                f"{source}:{number}: row has {len(row)} cell{'s' * (len(row) != 1)} but the board has "
                f"{n} row{'s' * (n != 1)}; it must be square"
            )
    declared = _int_key(meta, "n", where)
    if declared is not None and declared != n:
        raise PuzzleFormatError(f"{where}: header says n={declared} but the board is {n}x{n}")
    k = _int_key(meta, "k", where)
    if k is None:
        k = 1
    elif k < 1:
        raise PuzzleFormatError(
            f"{where}: k={k}: every row, column and region needs at least one queen; write k=1 or more"
        )
    rule = meta.get("rule", "touch")
    given = _parse_given(meta["given"], where) if "given" in meta else []
    extra = {key: value for key, value in meta.items() if key not in _KNOWN_KEYS}
    puzzle = Puzzle.from_rows(rows, k=k, rule=rule, given=given, name=name, meta=extra)  # type: ignore[arg-type]
    try:
        puzzle.validate()
    except PuzzleFormatError as exc:
        raise PuzzleFormatError(f"{where}: {exc}") from None
    return puzzle


def format_puzzle(puzzle: Puzzle, *, header: bool = True) -> str:
    """The puzzle in the shared text format (tokens when a label is longer than one character)."""
    lines = []
    if header:
        words = [puzzle.name or "puzzle", f"n={puzzle.n}"]
        if puzzle.k != 1:
            words.append(f"k={puzzle.k}")
        if puzzle.rule != "touch":
            words.append(f"rule={puzzle.rule}")
        if puzzle.given:
            words.append("given=" + ";".join(f"{r},{c}" for r, c in puzzle.given))
        words += [f"{key}={value}" for key, value in puzzle.meta.items()]
        lines.append("# " + " ".join(words))
    rows = puzzle.label_rows()
    tokens = any(len(label) != 1 or label.isspace() for label in puzzle.labels)
    width = max(len(label) for label in puzzle.labels)
    for row in rows:
        lines.append(" ".join(label.rjust(width) for label in row) if tokens else "".join(row))
    return "\n".join(lines) + "\n"


def format_puzzles(puzzles: Iterable[Puzzle]) -> str:
    """Many puzzles, a blank line between them."""
    return "\n".join(format_puzzle(p) for p in puzzles)


# --- puzz.link -------------------------------------------------------------------------------


def parse_puzzlink(url: str) -> Puzzle:
    """A puzz.link Star Battle URL, ``...p?starbattle/COLS/ROWS/STARS/BORDERS``.

    Border bits are packed 5 per base-32 digit, most significant first: first the (cols-1) x rows
    vertical borders row by row, then (starting on a fresh digit) the cols x (rows-1) horizontal
    ones. Regions are the areas the borders enclose.
    """
    m = PUZZLINK.search(url)
    shown = _clip(url, 80)
    if not m:
        raise PuzzleFormatError(
            f"{shown}: not a whole puzz.link Star Battle URL: expected ...p?starbattle/COLS/ROWS/STARS/"
            "BORDERS, the border data (digits 0-9, letters a-v) after the last /"
        )
    junk = url.strip()[m.end():]
    if junk:
        raise PuzzleFormatError(
            f"{shown}: {_clip(junk, 30)!r} after the border data; give the URL up to the border data only"
        )
    if any(len(m.group(i)) > MAX_DIGITS for i in (1, 2, 3)):
        raise PuzzleFormatError(f"{shown}: numbers too long; boards go up to {MAX_SIZE}x{MAX_SIZE}")
    cols, rows, k = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if cols != rows or cols == 0:
        raise PuzzleFormatError(f"{shown}: board is {cols}x{rows}; only square boards are puzzles here")
    if cols > MAX_SIZE:
        raise PuzzleFormatError(f"{shown}: {cols}x{cols} board; the solver takes up to {MAX_SIZE}x{MAX_SIZE}")
    n = cols
    digits = m.group(4).lower()
    vertical_count, horizontal_count = (n - 1) * n, n * (n - 1)
    v_digits, h_digits = -(-vertical_count // 5), -(-horizontal_count // 5)
    if len(digits) != v_digits + h_digits:
        raise PuzzleFormatError(
            f"{shown}: border data has {len(digits)} digits, a {n}x{n} board needs {v_digits + h_digits}"
        )
    vertical = _unpack_bits(digits[:v_digits], vertical_count)
    horizontal = _unpack_bits(digits[v_digits : v_digits + h_digits], horizontal_count)
    grid = _regions_from_borders(n, vertical, horizontal)
    puzzle = Puzzle.from_region_grid(grid, k=k, name="puzzlink", meta={"source": "puzz.link"})
    try:
        puzzle.validate()
    except PuzzleFormatError as exc:
        raise PuzzleFormatError(f"{shown}: {exc}") from None
    return puzzle


def format_puzzlink(puzzle: Puzzle) -> str:
    """The puzz.link URL of a puzzle (inverse of parse_puzzlink for the border part)."""
    n = puzzle.n
    reg = puzzle.regions
    vertical = [int(reg[r][c] != reg[r][c + 1]) for r in range(n) for c in range(n - 1)]
    horizontal = [int(reg[r][c] != reg[r + 1][c]) for r in range(n - 1) for c in range(n)]
    body = _pack_bits(vertical) + _pack_bits(horizontal)
    return f"https://puzz.link/p?starbattle/{n}/{n}/{puzzle.k}/{body}"


def _unpack_bits(digits: str, count: int) -> list[int]:
    bits: list[int] = []
    for ch in digits:
        value = _B32.index(ch)
        bits.extend((value >> shift) & 1 for shift in range(4, -1, -1))
    return bits[:count]


def _pack_bits(bits: list[int]) -> str:
    out = []
    for start in range(0, len(bits), 5):
        chunk = bits[start : start + 5] + [0] * (5 - len(bits[start : start + 5]))
        out.append(_B32[int("".join(map(str, chunk)), 2)])
    return "".join(out)


def _regions_from_borders(n: int, vertical: list[int], horizontal: list[int]) -> list[list[int]]:
    grid = [[-1] * n for _ in range(n)]
    count = 0
    for r0 in range(n):
        for c0 in range(n):
            if grid[r0][c0] >= 0:
                continue
            grid[r0][c0] = count
            stack = [(r0, c0)]
            while stack:
                r, c = stack.pop()
                steps = (
                    (r, c + 1, c + 1 < n and not vertical[r * (n - 1) + c]),
                    (r, c - 1, c > 0 and not vertical[r * (n - 1) + c - 1]),
                    (r + 1, c, r + 1 < n and not horizontal[r * n + c]),
                    (r - 1, c, r > 0 and not horizontal[(r - 1) * n + c]),
                )
                for rr, cc, open_ in steps:
                    if open_ and grid[rr][cc] < 0:
                        grid[rr][cc] = count
                        stack.append((rr, cc))
            count += 1
    return grid

