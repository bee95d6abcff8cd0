"""autosolve/practice"""
