"""Developer tools, run from the project root as `python -m scripts.NAME`, so that they import the
test harness (`tests.render`, `tests.desktops`, ...) as a package; not shipped."""
