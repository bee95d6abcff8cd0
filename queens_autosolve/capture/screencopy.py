"""Screen copies on a wlroots compositor (`zwlr_screencopy_manager_v1`, version 1) into shared
memory: the pixels the wlroots desktop grabs.

The compositor copies a region at the output's next frame, so a grab waits for one. Two things
keep it from waiting for a later one:
- the copy is asked for in the same message as the frame when the region's buffer (format, size,
  stride) is known from an earlier grab, not after the compositor has described it: that answer
  is a round trip, which waits while the compositor renders and can miss the next frame;
- `ask_ahead` asks for the next copy of the region last grabbed at once (the wlroots desktop calls
  it right after each click, for the guard's check before the next cell), so it is on its way
  while the job does its own checks. A grab takes it only when no input has been sent since it
  was asked for and it was asked for at most AHEAD_FRESH ago: it then shows the screen as it is
  after the last click, as a new request would.
"""

from __future__ import annotations

import mmap
import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from queens_autosolve.capture.errors import CaptureError

SHM_FORMATS = {0: "ARGB8888", 1: "XRGB8888"}  # wl_shm.format: 32-bit, B G R A/X in memory
AHEAD_FRESH = 0.005  # s: a copy asked for ahead is used by a grab this soon after (a 200 Hz frame)
Region = tuple[int, int, int, int, int]  # the output's index, then left, top, width, height on it
Shape = tuple[int, int, int, int]  # wl_shm format, width, height, stride


@dataclass
class Shot:
    """One copy on its way: the compositor's frame object and what it has said of it so far."""

    frame: Any
    region: Region
    asked_at: float
    said: dict[str, Any] = field(default_factory=dict)


class ScreenCopy:
    """Copies of output regions through `manager` (a bound zwlr_screencopy_manager_v1), into
    wl_shm buffers made once per shape and reused."""

    def __init__(self, display: Any, manager: Any, shm: Any, largest: int = 0) -> None:
        """`largest`: bytes of the largest copy to come (the biggest output's pixels x 4): the
        memory for it is made and touched now, not in the first grab (faulting in 8 MB of fresh
        pages there, on both sides of the copy, took 5-6 ms of a full-HD window's first grab)."""
        self.display = display
        self.manager = manager
        self.shm = shm
        self._buffers: dict[Shape, tuple[Any, mmap.mmap]] = {}
        self._pool: tuple[Any, mmap.mmap, int] | None = self._new_pool(largest) if largest else None
        self._shapes: dict[Region, Shape] = {}
        self._last: tuple[Region, Any] | None = None  # the region last grabbed and its output
        self._ahead: Shot | None = None

    def grab(self, output: Any, region: Region) -> np.ndarray:
        """The pixels of `region` of `output` (a wl_output proxy) at its next frame: H x W x 4,
        B G R X."""
        shot = self._take_ahead(region) or self._ask(output, region)
        self._last = (region, output)
        return self._pixels(shot)

    def ask_ahead(self) -> None:
        """Ask now for the next copy of the region last grabbed (see the module's docstring)."""
        self.input_sent()
        if self._last is not None:
            region, output = self._last
            self._ahead = self._ask(output, region)

    def input_sent(self) -> None:
        """Input went to the compositor: a copy asked for before is no longer taken by a grab."""
        if self._ahead is not None:
            self._ahead.frame.destroy()
            self._ahead = None

    def close(self) -> None:
        self.input_sent()
        memories = {id(memory): memory for _, memory in self._buffers.values()}
        if self._pool is not None:
            memories[id(self._pool[1])] = self._pool[1]
        for memory in memories.values():
            memory.close()
        self._buffers.clear()

    def _take_ahead(self, region: Region) -> Shot | None:
        shot, self._ahead = self._ahead, None
        if shot is None:
            return None
        if shot.region == region and time.perf_counter() - shot.asked_at <= AHEAD_FRESH:
            return shot
        shot.frame.destroy()
        return None

    def _ask(self, output: Any, region: Region) -> Shot:
        """Ask for a copy of `region`; with its buffer known, the copy in the same message."""
        _, left, top, width, height = region
        shot = Shot(self.manager.capture_output_region(0, output, left, top, width, height), region,
                    time.perf_counter())
        said = shot.said
        shot.frame.dispatcher["buffer"] = lambda _f, fmt, w, h, stride: said.update(shape=(fmt, w, h, stride))
        shot.frame.dispatcher["flags"] = lambda _f, flags: said.update(flags=flags)
        shot.frame.dispatcher["ready"] = lambda _f, *_time: said.update(ready=True)
        shot.frame.dispatcher["failed"] = lambda _f: said.update(failed=True)
        shape = self._shapes.get(region)
        if shape is not None:
            shot.frame.copy(self._buffer(shape)[0])
            said["copying"] = shape
        self.display.flush()
        return shot

    def _pixels(self, shot: Shot) -> np.ndarray:
        """Wait for `shot` (asking for its copy once the compositor has described the buffer)
        and read its pixels out of the buffer (which the next copy of its shape reuses)."""
        try:
            self._wait(shot, "shape")
            shape = shot.said["shape"]
            if shape[0] not in SHM_FORMATS:
                raise CaptureError(f"the compositor offers screen copies in wl_shm format {shape[0]:#x}, "
                                   "which this tool does not read (it reads ARGB8888 and XRGB8888)")
            if "copying" not in shot.said:
                shot.frame.copy(self._buffer(shape)[0])
                self._shapes[shot.region] = shape
            self._wait(shot, "ready")
        finally:
            shot.frame.destroy()
        _, width, height, stride = shape
        memory = self._buffer(shape)[1]
        pixels = np.frombuffer(memory, np.uint8, count=stride * height).reshape(height, stride // 4, 4)
        pixels = pixels[:, :width].copy()
        return np.asarray(pixels[::-1].copy() if shot.said.get("flags", 0) & 1 else pixels)  # y_invert

    def _wait(self, shot: Shot, event: str) -> None:
        while event not in shot.said and "failed" not in shot.said:
            try:
                self.display.dispatch(block=True)
            except RuntimeError as exc:  # pywayland's word for a protocol error: the connection is gone
                raise CaptureError(f"the Wayland compositor closed the connection ({exc}); "
                                   "run again") from None
        if "failed" in shot.said:
            self._shapes.pop(shot.region, None)  # described afresh next time
            raise CaptureError("the compositor failed to copy the screen; run again")

    def _buffer(self, shape: Shape) -> tuple[Any, mmap.mmap]:
        """A wl_buffer in shared memory of this shape, made once and reused. Buffers that fit
        share the pool made up front: one copy is on its way at a time, and its pixels are copied
        out as soon as it is ready (`_pixels`)."""
        if shape not in self._buffers:
            fmt, width, height, stride = shape
            size = stride * height
            pool = self._pool if self._pool is not None and size <= self._pool[2] else self._new_pool(size)
            self._buffers[shape] = (pool[0].create_buffer(0, width, height, stride, fmt), pool[1])
        return self._buffers[shape]

    def _new_pool(self, size: int) -> tuple[Any, mmap.mmap, int]:
        """A wl_shm pool of `size` bytes in memory made and touched now (MAP_POPULATE)."""
        fd = os.memfd_create("queens-screencopy")
        try:
            os.ftruncate(fd, size)
            memory = mmap.mmap(fd, size, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE)
            pool = self.shm.create_pool(fd, size)
        finally:
            os.close(fd)
        return pool, memory, size
