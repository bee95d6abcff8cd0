import sys

try:
    from queens_autosolve.autosolve.cli import entry
except KeyboardInterrupt:  # Ctrl-C before the CLI could catch it: still one line and 130
    print("queens-autosolve: interrupted", file=sys.stderr)
    sys.exit(130)

entry()
