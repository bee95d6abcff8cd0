"""The one image loader: a screenshot file as a `Frame`, for reading a board offline.

Pillow is imported only here (25 ms): a live run never opens a file.
"""

from __future__ import annotations

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
        with Image.open(path) as image:
            rgb = np.asarray(image.convert("RGB"))
    except FileNotFoundError:
        raise ImageReadError(f"{path}: no such file; give a screenshot (PNG or JPEG)") from None
    except Image.DecompressionBombError as exc:  # not an OSError: Pillow's guard against huge images
        raise ImageReadError(
            f"{path}: image too large to open safely ({exc}); crop or scale it down"
        ) from None
    except (UnidentifiedImageError, OSError) as exc:
        raise ImageReadError(f"{path}: cannot read it as an image ({exc}); give a PNG or JPEG") from None
    return Frame.from_rgb(rgb, source=FrameSource.IMAGE)
