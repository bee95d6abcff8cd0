"""Developer benchmarks: scripts run from the project root (``python benchmarks/<name>.py``) that
import the product and measure it; not shipped. What `queens-autosolve bench` runs lives in the
product (`queens_autosolve.bench`)."""
