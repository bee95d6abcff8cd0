import sys

from autosolve.cli import main

sys.exit(main())
