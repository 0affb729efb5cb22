"""Solver adapters: one module per solver, each an :class:`~.base.Adapter` subclass registered with ``@adapter``;
:mod:`.configs` names configurations of them (an adapter and its options)."""
