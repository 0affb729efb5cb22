"""Formulations: one module per puzzle family; each function registered with ``@formulation``."""
