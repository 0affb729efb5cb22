"""Moved to :mod:`puzzlebench.kinds.kakuro.generator`; this module keeps the old import path."""

from ..kinds.kakuro.generator import *
