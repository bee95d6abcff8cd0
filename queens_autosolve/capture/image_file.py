"""The one image loader: a screenshot file as a `Frame`, for reading a board offline.

Pillow is imported only here (25 ms): a live run never opens a file.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from queens_autosolve.capture.errors import ImageReadError
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import Frame, FrameSource

if TYPE_CHECKING:
    from PIL import Image


def load_image(path: str | Path) -> Frame:
    """A screenshot file (PNG, JPEG, anything Pillow opens) as a Frame that cannot be clicked;
    ImageReadError, naming the file and what to do, when it is missing or not a picture."""
    from PIL import Image, UnidentifiedImageError

    path = Path(path)
    if path.is_dir():
        raise ImageReadError(f"{path}: is a folder, not an image; give a screenshot (PNG or JPEG)")
    try:
        with warnings.catch_warnings():
            # an image past Pillow's warning size (89 Mpx) is read all the same: no stray lines
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                quality = jpeg_quality(getattr(image, "quantization", None))
                size = image.size
                check_not_too_large(path, size)
                rgb = np.asarray(_reduced(_eight_bit(image), -(-max(size) // MAX_SIDE)).convert("RGB"))
    except FileNotFoundError:
        raise ImageReadError(f"{path}: no such file; give a screenshot (PNG or JPEG)") from None
    except Image.DecompressionBombError as exc:  # not an OSError: Pillow's guard against huge images
        raise ImageReadError(
            f"{path}: image too large to open safely ({exc}); crop or scale it down"
        ) from None
    except (UnidentifiedImageError, OSError) as exc:
        raise ImageReadError(f"{path}: cannot read it as an image ({exc}); give a PNG or JPEG") from None
    # a reduced picture keeps the file's size as its rect: Frame.to_screen gives the file's pixels
    return Frame.from_rgb(rgb, Rect(0, 0, *size), FrameSource.IMAGE, jpeg_quality=quality)


# Pixels: the largest picture read. Pillow decodes a picture whole before anything can reduce it,
# at 4 bytes a pixel: 64 Mpx took 459 MB and 1.5 s, 144 Mpx 771 MB and 2.9 s, 33 Mpx (8K) 263 MB
# and 0.9 s (`detect`, whole process). No
# screen shows that much (an 8K screen: 33 Mpx; three 4K screens side by side: 25 Mpx).
MAX_PIXELS = 50_000_000


def _eight_bit(image: Image.Image) -> Image.Image:
    """A 16-bit or 32-bit grey picture as 8-bit grey: Pillow's RGB conversion clips its levels
    at 255, and a 16-bit greyscale screenshot turned all white ("no grid of square cells")."""
    if image.mode not in ("I", "I;16", "I;16B", "I;16L", "I;16N", "F"):
        return image
    from PIL import Image

    levels = np.asarray(image, dtype=np.float64)
    top = float(levels.max(initial=0.0))
    if image.mode == "F" and top <= 1.0:
        scale = 255.0  # levels as fractions
    else:
        scale = 1.0 if top <= 255 else 255 / 65535 if top <= 65535 else 255 / top
    return Image.fromarray(np.clip(np.rint(levels * scale), 0, 255).astype(np.uint8))


def check_not_too_large(path: Path, size: tuple[int, int]) -> None:
    """Refuse, before decoding it, a picture larger than any screenshot (MAX_PIXELS)."""
    width, height = size
    if width * height > MAX_PIXELS:
        raise ImageReadError(
            f"{path}: the picture is too large: {width}x{height}, {width * height / 1e6:.0f} Mpx, more than "
            f"any screen shows (an 8K screen is 33 Mpx; read up to {MAX_PIXELS / 1e6:.0f}); scale it down "
            "or crop it to the board"
        )


# px: a picture longer than this is read reduced by a whole factor (a board on it keeps cells of
# tens of pixels), so that reading it costs what a screenshot costs, not gigabytes and seconds
MAX_SIDE = 4000


def _reduced(image: Image.Image, factor: int) -> Image.Image:
    """`image` shrunk `factor` times each way, each pixel the mean of its block (Pillow's reduce,
    on the decoded pixels: no second full-size copy)."""
    if factor <= 1:
        return image
    if image.mode not in ("RGB", "RGBA", "L", "LA"):
        image = image.convert("RGB")
    return image.reduce(factor)


# The smallest entry of the JPEG standard's luminance quantization table (Annex K), which encoders
# scale by quality; the smallest, as large entries are capped at 255 at low qualities.
_BASE_LUMA_LEAST = 10


def jpeg_quality(tables: dict[int, Sequence[int]] | None) -> int | None:
    """The quality (1..100) a JPEG was saved at, estimated from its luminance table as libjpeg
    scales it (quality q < 50: 5000 / q percent of the standard table; else 200 - 2q); None for
    other formats."""
    if not tables or 0 not in tables:
        return None
    scale = 100.0 * max(1, min(tables[0])) / _BASE_LUMA_LEAST
    quality = 5000.0 / scale if scale > 100 else (200.0 - scale) / 2
    return max(1, min(100, int(round(quality))))
