"""autosolve"""
