"""The sudoku kind's part of io's sudoku-yaml layout (:mod:`puzzlebench.io.sudoku_yaml`): a file with no
constraint beyond the Sudoku rules and its ``Knowns`` is a plain Sudoku."""

from __future__ import annotations

import numpy as np

from ...toolkit.rules import Rules
from .puzzle import Sudoku

CONSTRAINTS = ()
"""The constraints the part reads beyond the Sudoku rules and the givens: none."""


def build(givens: np.ndarray, box: tuple[int, int], found: list, rules: Rules) -> Sudoku:
    return Sudoku(givens, *box, "1")
