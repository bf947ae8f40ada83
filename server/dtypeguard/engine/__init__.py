"""The analysis engine: parse, interpret in execution order, record facts and events.

Invariant: nothing under `engine/` imports torch or executes user code.
"""
