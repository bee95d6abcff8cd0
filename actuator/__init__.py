"""actuator"""
