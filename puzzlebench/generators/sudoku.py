"""Moved to :mod:`puzzlebench.kinds.sudoku.generator`; this module keeps the old import path."""

from ..kinds.sudoku.generator import *
