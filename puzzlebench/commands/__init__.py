"""CLI verbs: one module per verb, each with ``register(subparsers)``."""
