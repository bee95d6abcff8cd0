"""Reading and writing puzzles: the shared text format, Kwekker's plain boards, token grids,
puzz.link URLs, and a one-line message naming file and line for every kind of bad input."""

from __future__ import annotations

from collections import deque

import pytest

from queens_autosolve.solver import PuzzleFormatError, count_solutions, solve
from queens_autosolve.solver.formats import (
    format_puzzle,
    format_puzzlink,
    parse_puzzles,
    parse_puzzlink,
    read_puzzles,
)
from queens_autosolve.solver.puzzle import Puzzle
from tests.checks import present

SAMPLE = """# level1 n=5 date=2024-05-01 difficulty=easy
AABBB
AACCB
DDCCE
DDDEE
DDDEE

# level2 n=4 given=0,2 solutionsCount=1
ABBB
ABCC
DDCC
DDDD
"""

PUZZLINK = "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk"


def write(tmp_path, name: str, data: bytes | str):
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", newline="")
    else:
        path.write_bytes(data)
    return path


def test_header_keys_become_name_size_given_and_meta():
    first, second = parse_puzzles(SAMPLE, "sample.txt")
    assert (first.name, first.n, first.k) == ("level1", 5, 1)
    assert first.meta == {"date": "2024-05-01", "difficulty": "easy"}
    assert second.given == ((0, 2),)
    assert second.meta == {"solutionsCount": "1"}
    assert solve(second) is not None and (0, 2) in present(solve(second)).queens


def test_crlf_and_lf_files_read_the_same(tmp_path):
    lf = read_puzzles(str(write(tmp_path, "lf.txt", SAMPLE)))
    crlf = read_puzzles(str(write(tmp_path, "crlf.txt", SAMPLE.replace("\n", "\r\n"))))
    assert [p.regions for p in lf] == [p.regions for p in crlf]
    assert [p.name for p in crlf] == ["level1", "level2"]


def test_token_grids_allow_long_labels_and_round_trip():
    text = "# t n=3\n10 10 11\n10 12 11\n12 12 11\n"
    (puzzle,) = parse_puzzles(text, "t.txt")
    assert puzzle.labels == ("10", "11", "12")
    assert puzzle.regions == ((0, 0, 1), (0, 2, 1), (2, 2, 1))
    again = parse_puzzles(format_puzzle(puzzle), "again")[0]
    assert again.regions == puzzle.regions and again.labels == puzzle.labels


def test_kwekker_plain_board_has_no_header_and_takes_the_file_name(tmp_path):
    path = write(tmp_path, "game327.txt", "11222\n13332\n44332\n44355\n44555\n")
    (puzzle,) = read_puzzles(str(path))
    assert puzzle.name == "game327" and puzzle.n == 5 and puzzle.region_count == 5


def test_format_puzzle_round_trips_header_fields():
    first, second = parse_puzzles(SAMPLE, "sample.txt")
    for puzzle in (first, second):
        (again,) = parse_puzzles(format_puzzle(puzzle), "again")
        assert (again.regions, again.given, again.name, again.meta) == (
            puzzle.regions, puzzle.given, puzzle.name, puzzle.meta,
        )


def test_puzzlink_vector_decodes_to_six_connected_regions_and_round_trips():
    puzzle = parse_puzzlink(PUZZLINK)
    assert (puzzle.n, puzzle.k, puzzle.region_count) == (6, 1, 6)
    for mask in puzzle.region_masks:
        assert _connected(mask, 6)
    assert format_puzzlink(puzzle) == PUZZLINK
    assert count_solutions(puzzle) == 1
    assert read_puzzles(PUZZLINK)[0].regions == puzzle.regions


def _connected(mask: int, n: int) -> bool:
    start = (mask & -mask).bit_length() - 1
    seen = {start}
    todo = deque([start])
    while todo:
        i = todo.popleft()
        r, c = divmod(i, n)
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            j = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and mask >> j & 1 and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == mask.bit_count()


def test_format_puzzlink_encodes_a_star_battle_board():
    rows = ["AAAABBBB", "AACCCCBB", "DDDCCEEE", "DFFFEEEE", "DFGGGHHH", "DFGGGGHH", "DDDGHHHH", "DDDGHHHH"]
    puzzle = Puzzle.from_rows(rows, k=2)
    url = format_puzzlink(puzzle)
    assert url.startswith("https://puzz.link/p?starbattle/8/8/2/")
    decoded = parse_puzzlink(url)
    assert (decoded.k, decoded.n, decoded.regions) == (2, 8, puzzle.regions)


# --- bad input: one line naming the file and the line -------------------------------------------

BAD = [
    ("notsquare.txt", "# a n=3\nABC\nAB\nABC\n", "notsquare.txt:3:", "square"),
    ("regions.txt", "# a n=4\nAABB\nAABB\nCCDD\nCCDD\n\n# b\nAAB\nABB\nBBB\n", "regions.txt:7:", "2 regions"),
    ("small.txt", "# s n=4 k=2\nAAAA\nAAAA\nBBBB\nCBDD\n", "small.txt:1:", "too few for 2"),
    ("given.txt", "# g n=4 given=0,0;1,1\nABBB\nABCC\nDDCC\nDDDD\n", "given.txt:1:", "touch"),
    ("nmismatch.txt", "\n# h n=5\nABBB\nABCC\nDDCC\nDDDD\n", "nmismatch.txt:2:", "n=5"),
    ("badkey.txt", "# h n=x\nAB\nBA\n", "badkey.txt:1:", "whole number"),
    ("badgiven.txt", "# h given=1;2\nABBB\nABCC\nDDCC\nDDDD\n", "badgiven.txt:1:", "given="),
    ("header.txt", "# lonely n=4\n", "header.txt:1:", "no board"),
]


@pytest.mark.parametrize(("name", "text", "where", "what"), BAD, ids=[b[0] for b in BAD])
def test_bad_boards_name_file_and_line(tmp_path, name, text, where, what):
    path = write(tmp_path, name, text)
    with pytest.raises(PuzzleFormatError) as info:
        read_puzzles(str(path))
    message = str(info.value)
    assert "\n" not in message
    assert where in message and what in message


@pytest.mark.parametrize(
    ("name", "data", "what"),
    [
        ("empty.txt", b"", "empty"),
        ("blank.txt", b"\n\n  \n", "empty"),
        ("junk.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        ("latin1.txt", b"AB\nB\xe9\n", "UTF-8"),
        ("control.txt", b"AB\x07\nBA\n", "control"),
    ],
)
def test_files_that_are_not_puzzles_are_refused_by_name(tmp_path, name, data, what):
    path = write(tmp_path, name, data)
    with pytest.raises(PuzzleFormatError) as info:
        read_puzzles(str(path))
    assert name in str(info.value) and what in str(info.value)


def test_missing_file_and_folder_are_named(tmp_path):
    with pytest.raises(PuzzleFormatError, match="no such file"):
        read_puzzles(str(tmp_path / "nope.txt"))
    with pytest.raises(PuzzleFormatError, match="is a folder"):
        read_puzzles(str(tmp_path))


def test_a_long_missing_path_is_cut_from_its_start_so_the_file_name_stays():
    path = "/" + "deep/" * 30 + "my-puzzle.txt"
    with pytest.raises(PuzzleFormatError) as info:
        read_puzzles(path)
    named = str(info.value).split(": no such file")[0]
    assert named.startswith("...") and named.endswith("/my-puzzle.txt") and len(named) <= 83


def test_bad_puzzlink_urls_say_what_is_wrong():
    with pytest.raises(PuzzleFormatError, match="only square"):
        parse_puzzlink("https://puzz.link/p?starbattle/6/5/1/2u9gn9c9jpmk")
    with pytest.raises(PuzzleFormatError, match="needs"):
        parse_puzzlink("https://puzz.link/p?starbattle/6/6/1/2u9g")


@pytest.mark.parametrize("junk", ["/extra/junk", "%00", "?x=1#frag", "kk"])
def test_a_puzzlink_url_with_anything_after_the_border_data_is_refused(junk):
    refusal = r"after the border data|border data has 14 digits"
    with pytest.raises(PuzzleFormatError, match=refusal) as refused:
        parse_puzzlink(PUZZLINK + junk)
    assert "\n" not in str(refused.value)
    assert parse_puzzlink(f"  {PUZZLINK}\n").n == 6  # the whitespace around a pasted URL is no junk
