"""The subcommands of `queens-autosolve`, one module each."""
