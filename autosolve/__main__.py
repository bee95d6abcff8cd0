from autosolve.cli import entry

entry()
