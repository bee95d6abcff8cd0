"""Every real screenshot in ../shared/data/screens that shows the whole board is read exactly:
size, regions (up to relabelling) and, for solved boards, the queens; each reading is sure enough
to act on. The crops that cut into the outer cells on every side (no frame left) are refused as
cut off: they look exactly like a board with a row and a column cut away, and a smaller board
read from them would be wrong and sure of itself."""

from __future__ import annotations

import json

import pytest
from conftest import SHARED_DATA, shared_path

from solver.puzzle import Puzzle
from vision import BoardCutOff, read_image

NO_FRAME = "cropped board (no page chrome)"  # labels.json's note for the crops inside the frame


def _screen_names() -> list[str]:
    labels = SHARED_DATA / "screens" / "labels.json"
    if not labels.exists():
        return ["(shared data absent)"]
    return sorted(json.loads(labels.read_text()))


@pytest.fixture(scope="module")
def labels() -> dict[str, dict]:
    return json.loads(shared_path("screens", "labels.json").read_text())


@pytest.mark.shared
@pytest.mark.parametrize("name", _screen_names())
def test_real_screenshot_is_read_exactly_or_refused_when_cut_inside_the_frame(name, labels):
    label = labels[name]
    if label["note"].startswith(NO_FRAME):
        with pytest.raises(BoardCutOff) as cut:
            read_image(shared_path("screens", name))
        assert set(cut.value.edges) == {"top", "bottom", "left", "right"}
        return
    reading = read_image(shared_path("screens", name))
    assert reading.n == label["n"]
    # same partition of the cells, whatever the region names
    assert Puzzle.from_region_grid(reading.regions).regions == Puzzle.from_rows(label["regions"]).regions
    if label["state"] == "solved":
        assert sorted(reading.queens()) == sorted(tuple(cell) for cell in label["queens"])
        assert reading.solved_look
    assert reading.is_certain, reading.reasons


@pytest.mark.shared
def test_dark_and_light_phone_screens_give_the_board_where_it_is(labels):
    """Whole phone screenshots: the box is the board, not the page, and centres fall inside it."""
    for name in ("an21p__data_2_in.jpg", "an21p__data_2025-04-20.jpeg"):
        reading = read_image(shared_path("screens", name))
        x, y, w, h = reading.box.as_tuple()
        assert 0.95 < w / h < 1.05 and y > 200  # below the phone's status and title bars
        for row in reading.centres:
            for cx, cy in row:
                assert x < cx < x + w and y < cy < y + h
