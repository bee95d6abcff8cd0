"""The vision entry points: an image (array or file) in, a `BoardReading` out, or an error that
says what could not be found. Stages: locate the lattice, sample colours and border ink, decide
regions (two witnesses), read cell states, then weigh the doubts into one confidence.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from vision.locate import Lattice, locate
from vision.reading import BoardNotFound, BoardReading, NotAnImage
from vision.regions import read_regions
from vision.sample import BoardSamples, sample_board
from vision.shades import Shades, shades_of, share_around_marks, without_stripes
from vision.states import read_states

# How much each kind of doubt costs; one doubt of any kind drops a reading below CONFIDENT.
DOUBT_COST = 0.15
# Share of a cell's pixels (around its middle) on red stripes: the cell is in conflict. Stripes
# give 0.12-0.2 (less at high device scales, as only their edges border the cell colour).
STRIPED_SHARE = 0.08
BLANK_SPREAD = 8  # gray levels: an image whose pixels all lie this close is blank


def from_bgra(frame: np.ndarray) -> np.ndarray:
    """An RGB copy of a BGRA (or BGR) frame, as `mss` grabs the screen."""
    frame = np.asarray(frame)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise BoardNotFound(f"expected a BGR(A) image, got an array of shape {frame.shape}")
    return np.ascontiguousarray(frame[:, :, 2::-1])


def as_rgb(image: np.ndarray) -> np.ndarray:
    """An RGB uint8 HxWx3 view of a gray, RGB or RGBA (alpha ignored) image array."""
    image = np.asarray(image)
    if image.dtype != np.uint8:
        raise BoardNotFound(f"expected 8-bit pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    if image.ndim == 3 and image.shape[2] == 3:
        bgra = _bgra_behind(image)
        if bgra is not None:
            return cv2.cvtColor(bgra, cv2.COLOR_BGRA2RGB)
        return np.ascontiguousarray(image)
    raise BoardNotFound(f"expected an RGB image, got an array of shape {image.shape}")


def _bgra_behind(image: np.ndarray) -> np.ndarray | None:
    """The contiguous BGRA buffer an RGB view `buffer[..., 2::-1]` was taken of (as capture hands
    over screen grabs), or None. Converting the buffer is several times faster than copying the
    reversed-stride view."""
    base = image.base
    if (
        not isinstance(base, np.ndarray)
        or base.ndim != 3
        or base.shape[2] != 4
        or base.shape[:2] != image.shape[:2]
        or not base.flags.c_contiguous
        or image.strides != (base.strides[0], 4, -1)
    ):
        return None
    offset = image.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return base if offset == 2 else None


def read_board(image: np.ndarray) -> BoardReading:
    """Read the main Queens board in an RGB (or RGBA) image.

    Raises BoardNotFound when there is no single whole board, or its regions cannot be read.

    >>> from vision.render import render_board
    >>> read_board(render_board(["AABBB", "AABCB", "DDBCB", "DEECB", "DEEEB"], ["Q....", ".x..."])).n
    5
    """
    rgb = as_rgb(image)
    if min(rgb.shape[:2]) < 20:
        raise BoardNotFound(f"no board found: the image is only {rgb.shape[1]}x{rgb.shape[0]} pixels")
    shades = shades_of(rgb)
    if int(shades.gray.max()) - int(shades.gray.min()) <= BLANK_SPREAD:
        raise BoardNotFound("no board found: the image is blank")
    lattice, samples, striped = _locate_and_sample(shades)
    if striped:
        shades = without_stripes(shades, [_cell_rect(lattice, cell, rgb.shape) for cell in striped])
        samples = sample_board(shades.rgb, shades, lattice)
    regions = read_regions(samples, lattice.n)
    states = read_states(shades.rgb, lattice, samples.rgb, striped)
    reasons = list(regions.doubts) + list(states.doubts) + _lattice_doubts(lattice)
    if striped:
        reasons.append(
            f"red conflict stripes on {len(striped)} cell(s) (queens break a rule); "
            "marks there may be misread"
        )
    return BoardReading(
        n=lattice.n,
        regions=regions.regions,
        states=states.states,
        centres=tuple(
            tuple((float(x), float(y)) for x in lattice.xs) for y in lattice.ys
        ),
        box=lattice.box(rgb.shape),
        region_colours=regions.colours,
        confidence=max(0.0, 1.0 - DOUBT_COST * len(reasons)),
        reasons=tuple(reasons),
        solved_look=states.solved_look,
    )


def _locate_and_sample(shades: Shades) -> tuple[Lattice, BoardSamples, list[tuple[int, int]]]:
    """The main board, its measurements and its cells under red conflict stripes.

    Stripes can cut cells up so that the board is missed or mis-fitted; then it is located again
    with the stripes taken out of the grid lines (only then: finding them costs time).
    """
    try:
        lattice = locate(shades)
    except BoardNotFound as first:
        try:
            lattice = locate(shades, stripes=True)
        except BoardNotFound:
            raise first from None
    else:
        samples = sample_board(shades.rgb, shades, lattice)
        if not _confirm_stripes(shades, lattice, samples.striped()):
            return lattice, samples, []
        lattice = locate(shades, stripes=True)
    samples = sample_board(shades.rgb, shades, lattice)
    return lattice, samples, _confirm_stripes(shades, lattice, samples.striped())


def _confirm_stripes(shades: Shades, lattice: Lattice, cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells among `cells` (whose colour samples hit stripe colours) that really are striped:
    stripe pixels cover a good share of them (about a fifth) around the middle, not a few
    JPEG-noisy pixels or the rim of a mark."""
    return [
        cell for cell in cells
        if share_around_marks(shades.stripes_in(_cell_rect(lattice, cell, shades.shape))) > STRIPED_SHARE
    ]


def _cell_rect(lattice: Lattice, cell: tuple[int, int], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A cell's light span as an (x, y, w, h) rectangle, inside the image: an outer cell of a
    tight crop may reach past its edge (a negative start would wrap around when slicing)."""
    r, c = cell
    x0, y0 = max(0, int(lattice.left[c])), max(0, int(lattice.top[r]))
    x1, y1 = min(shape[1], int(lattice.right[c])), min(shape[0], int(lattice.bottom[r]))
    return x0, y0, max(0, x1 - x0), max(0, y1 - y0)


def _lattice_doubts(lattice: Lattice) -> list[str]:
    if lattice.found < 0.6:
        return [f"only {lattice.found:.0%} of the cells were seen clearly"]
    return []


def read_image(path: str | Path) -> BoardReading:
    """Read the board in an image file (PNG, JPEG, ... anything Pillow opens)."""
    return read_board(load_image(path))


def load_image(path: str | Path) -> np.ndarray:
    """An image file as an RGB array; NotAnImage when it is missing or not a picture."""
    path = Path(path)
    if not path.exists():
        raise NotAnImage(f"{path}: no such file")
    if path.is_dir():
        raise NotAnImage(f"{path}: is a folder, not an image")
    try:
        with Image.open(path) as img:
            return np.asarray(img.convert("RGB"))
    except (UnidentifiedImageError, OSError) as exc:
        raise NotAnImage(f"{path}: not an image file Pillow can read ({exc.__class__.__name__})") from None
