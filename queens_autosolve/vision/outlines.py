"""A mask's outlines: the contours of its light areas and of their holes, found once per mask
for both the candidate cells (`vision.locate`) and the merged light areas (`vision.merged`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Outlines:
    """A mask's contours (outer edges of light areas and edges of their holes), per contour its
    bounding box (x, y, w, h) and the index of the light area a hole's edge belongs to (-1 for an
    outer edge). Blobs and light areas are both found among them: one search for both."""

    contours: Sequence[np.ndarray]
    boxes: np.ndarray  # int (K, 4)
    parents: np.ndarray  # int (K,)


def outlines_of(mask: np.ndarray) -> Outlines:
    """The outlines of the light areas in `mask` and of their holes."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return Outlines((), np.zeros((0, 4), np.int64), np.zeros(0, np.int64))
    return Outlines(contours, bounding_boxes(contours), hierarchy[0][:, 3].astype(np.int64))


def bounding_boxes(contours: Sequence[np.ndarray]) -> np.ndarray:
    """`cv2.boundingRect` of every contour (x, y, w, h), at once: a page has hundreds of contours
    (text, icons, noise), and a Python loop over them was a third of the blob search (profiled)."""
    points = np.concatenate(contours).reshape(-1, 2).astype(np.int64)
    starts = np.zeros(len(contours), np.int64)
    np.cumsum(np.fromiter(map(len, contours), np.int64, len(contours))[:-1], out=starts[1:])
    low = np.minimum.reduceat(points, starts, axis=0)
    high = np.maximum.reduceat(points, starts, axis=0)
    return np.concatenate([low, high - low + 1], axis=1)


def contour_areas(contours: Sequence[np.ndarray]) -> np.ndarray:
    """`cv2.contourArea` of every contour, at once (float): the shoelace sum over integer points
    is exact, in OpenCV's doubles as in these integers, so the areas are the same."""
    if not contours:
        return np.zeros(0)
    points = np.concatenate(contours).reshape(-1, 2).astype(np.int64)
    lengths = np.fromiter(map(len, contours), np.int64, len(contours))
    ends = np.cumsum(lengths)
    starts = ends - lengths
    previous = np.arange(len(points)) - 1
    previous[starts] = ends - 1  # each contour is closed: its first point follows its last
    x, y = points[:, 0], points[:, 1]
    twice = np.add.reduceat(x[previous] * y - x * y[previous], starts)
    return np.asarray(np.abs(twice) * 0.5)
