"""The board sizes the screen reader reads, in a module of their own (no numpy, no OpenCV), so
that the demo refuses a bad --size before they load."""

MIN_N, MAX_N = 4, 30  # a lattice has MIN_N..MAX_N cells a side
