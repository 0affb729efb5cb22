"""Solver adapters: one module per solver, each registering a ``solve(model, options)``."""
