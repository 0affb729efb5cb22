"""Moved to :mod:`puzzlebench.kinds.killer.generator`; this module keeps the old import path."""

from ..kinds.killer.generator import *
