"""The tests and the test harness (renders, desktops, page drivers, oracles): a package imported
from the project root (pyproject's pytest `pythonpath`; scripts run as `python -m scripts.NAME`)."""
