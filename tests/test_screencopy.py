"""capture.screencopy's bookkeeping, against a stand-in compositor (the live grabs are in
tests/test_e2e_sway.py): which requests go out, when a copy asked for ahead is taken, and when it
is thrown away for a new one."""

from __future__ import annotations

from typing import Any

import pytest

from queens_autosolve.capture import screencopy
from queens_autosolve.capture.errors import CaptureError
from queens_autosolve.capture.screencopy import ScreenCopy

SHAPE = (1, 4, 2, 16)  # XRGB8888, 4 x 2 pixels, 16 bytes a row
REGION = (0, 10, 20, 4, 2)


class Frame:
    """A zwlr_screencopy_frame_v1 stand-in: the compositor describes the buffer at once and copies
    when the display dispatches after `copy`."""

    def __init__(self, log: list[str], fail: bool = False) -> None:
        self.dispatcher: dict[str, Any] = {}
        self.log, self.fail, self.copied, self.destroyed = log, fail, False, False

    def copy(self, _buffer: object) -> None:
        self.log.append("copy")
        self.copied = True

    def destroy(self) -> None:
        self.log.append("destroy")
        self.destroyed = True

    def deliver(self) -> None:
        self.dispatcher["buffer"](self, *SHAPE)
        if self.copied:
            self.dispatcher["failed" if self.fail else "ready"](self, *(() if self.fail else (0, 0, 0)))


class Compositor:
    """The screencopy manager, wl_shm and the display in one: `dispatch` delivers every frame's events."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.frames: list[Frame] = []
        self.fail = False

    def capture_output_region(self, _overlay: int, _output: object, *_region: int) -> Frame:
        self.log.append("capture")
        self.frames.append(Frame(self.log, self.fail))
        return self.frames[-1]

    def create_pool(self, _fd: int, _size: int) -> Any:
        pool = type("Pool", (), {})()
        pool.create_buffer = lambda *_args: object()
        pool.destroy = lambda: None
        return pool

    def dispatch(self, block: bool = True) -> int:
        self.log.append("dispatch")
        for frame in self.frames:
            if not frame.destroyed:
                frame.deliver()
        return 0

    def flush(self) -> None:
        pass


@pytest.fixture
def compositor() -> Compositor:
    return Compositor()


@pytest.fixture
def copies(compositor: Compositor) -> ScreenCopy:
    return ScreenCopy(compositor, compositor, compositor)


def test_the_first_grab_of_a_region_waits_for_its_buffer_and_a_later_one_asks_for_the_copy_at_once(
        compositor, copies):
    assert copies.grab("output", REGION).shape == (2, 4, 4)
    assert compositor.log == ["capture", "dispatch", "copy", "dispatch", "destroy"]
    compositor.log.clear()
    copies.grab("output", REGION)
    assert compositor.log == ["capture", "copy", "dispatch", "destroy"]  # no round trip between


def test_a_copy_asked_for_ahead_is_taken_by_the_next_grab_of_its_region(compositor, copies, monkeypatch):
    monkeypatch.setattr(screencopy, "AHEAD_FRESH", 60.0)  # a loaded machine may stall the test a while
    copies.grab("output", REGION)
    copies.ask_ahead()
    asked = len(compositor.frames)
    copies.grab("output", REGION)
    assert len(compositor.frames) == asked  # no new request: the one on its way was taken


def test_input_after_the_copy_was_asked_for_makes_the_grab_ask_again(compositor, copies):
    copies.grab("output", REGION)
    copies.ask_ahead()
    ahead = compositor.frames[-1]
    copies.input_sent()  # a move went out after it
    copies.grab("output", REGION)
    assert ahead.destroyed and compositor.frames[-1] is not ahead


def test_a_copy_asked_for_too_long_ago_is_not_taken(compositor, copies, monkeypatch):
    copies.grab("output", REGION)
    copies.ask_ahead()
    ahead = compositor.frames[-1]
    monkeypatch.setattr(screencopy, "AHEAD_FRESH", -1.0)  # any age is too old
    copies.grab("output", REGION)
    assert ahead.destroyed and compositor.frames[-1] is not ahead


def test_a_grab_of_another_region_does_not_take_the_copy_asked_for_ahead(compositor, copies):
    copies.grab("output", REGION)
    copies.ask_ahead()
    ahead = compositor.frames[-1]
    copies.grab("output", (0, 0, 0, 4, 2))
    assert ahead.destroyed and compositor.frames[-1] is not ahead


def test_a_failed_copy_is_an_error_and_its_region_is_described_afresh(compositor, copies):
    copies.grab("output", REGION)
    compositor.fail = True
    with pytest.raises(CaptureError, match="failed to copy"):
        copies.grab("output", REGION)
    compositor.fail = False
    compositor.log.clear()
    copies.grab("output", REGION)
    assert compositor.log == ["capture", "dispatch", "copy", "dispatch", "destroy"]
