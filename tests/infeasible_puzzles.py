"""Small puzzles with no solution, one per puzzle type, shared by the solver and propagation tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from puzzlebench import Kakuro, KillerSudoku, Sudoku, Takuzu
from puzzlebench.io import read_puzzle
from puzzlebench.kinds.kenken.puzzle import KenKen, KenKenCage

SEED_KILLER = Path(__file__).resolve().parents[1] / "instances/killer/seed/fjmc_blog2026.txt"


def infeasible_puzzles() -> dict:
    """Per puzzle name, an instance whose givens contradict the rules."""
    sudoku = np.zeros((4, 4), int)
    sudoku[0, :2] = 1, 2
    sudoku[2, 2], sudoku[3, 2] = 3, 4        # cell (1,3) has no candidate
    killer_givens = np.zeros((9, 9), int)
    killer_givens[0, 0] = 1                  # the unique solution has 9 there
    takuzu = -np.ones((4, 4), int)
    takuzu[0, :2] = 0                        # forces (0,2) = 1: column 3 then has three 1s
    takuzu[2, 2] = takuzu[3, 2] = 1
    return {
        "sudoku": Sudoku(sudoku, name="no-candidate"),
        "killer": KillerSudoku(killer_givens, 3, 3, name="wrong-given", cages=read_puzzle(SEED_KILLER).puzzle.cages),
        "kakuro": Kakuro(white=[[0, 0, 0], [0, 1, 1], [0, 1, 1]], across=[[0, 0, 0], [3, 0, 0], [3, 0, 0]],
                         down=[[0, 3, 4], [0, 0, 0], [0, 0, 0]], name="sum-clash"),
        "takuzu": Takuzu(takuzu, name="forced-triple"),
        "kenken": KenKen(2, (KenKenCage(((0, 0), (0, 1)), "x", 2), KenKenCage(((1, 0),), "", 1),
                             KenKenCage(((1, 1),), "", 1)), name="row-clash"),  # row 2 would hold 1 twice
    }
