"""Solver adapters: one module per solver, each an :class:`~.base.Adapter` subclass registered with ``@adapter``."""
