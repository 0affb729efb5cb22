"""A registered kind with some attributes or methods changed: a subclass of its class, instantiated."""

from __future__ import annotations


def variant(kind, **changes):
    """``kind`` with ``changes``: attributes as given, methods as plain functions of their arguments
    (``key=lambda puzzle: ...``); a class (``type=``) or a non-callable value stays as given."""
    attributes = {name: staticmethod(value) if callable(value) and not isinstance(value, type) else value
                  for name, value in changes.items()}
    return type(type(kind).__name__, (type(kind),), attributes)()
