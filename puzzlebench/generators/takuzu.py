"""Moved to :mod:`puzzlebench.kinds.takuzu.generator`; this module keeps the old import path."""

from ..kinds.takuzu.generator import *
