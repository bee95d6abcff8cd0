"""The one image loader: a screenshot file as a `Frame`, for reading a board offline.

Pillow is imported only here (25 ms): a live run never opens a file.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from capture.errors import ImageReadError
from capture.models import Frame, FrameSource


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
                rgb = np.asarray(image.convert("RGB"))
    except FileNotFoundError:
        raise ImageReadError(f"{path}: no such file; give a screenshot (PNG or JPEG)") from None
    except Image.DecompressionBombError as exc:  # not an OSError: Pillow's guard against huge images
        raise ImageReadError(
            f"{path}: image too large to open safely ({exc}); crop or scale it down"
        ) from None
    except (UnidentifiedImageError, OSError) as exc:
        raise ImageReadError(f"{path}: cannot read it as an image ({exc}); give a PNG or JPEG") from None
    return Frame.from_rgb(rgb, source=FrameSource.IMAGE, jpeg_quality=quality)


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
