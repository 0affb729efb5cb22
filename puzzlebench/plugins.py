"""The entry points installed packages declare for puzzlebench (``puzzlebench.kinds``,
``puzzlebench.formulations``, ``puzzlebench.solvers``)."""

from __future__ import annotations


def entry_points(group: str):
    """The installed entry points of ``group``.  :mod:`importlib.metadata` is imported here, on the
    first registry lookup, not by ``puzzlebench --help``, which needs no plug-in."""
    from importlib.metadata import entry_points as installed
    return installed(group=group)
