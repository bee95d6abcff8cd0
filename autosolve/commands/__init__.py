"""autosolve/commands"""
