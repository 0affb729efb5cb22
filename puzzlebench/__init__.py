"""puzzlebench: integer-programming formulations of logic puzzles, compared across MIP solvers."""

from .errors import PuzzleError
from .puzzles import Cage, Kakuro, KillerSudoku, Run, Sudoku, Takuzu

__version__ = "0.1.0"
__all__ = ["PuzzleError", "Sudoku", "KillerSudoku", "Cage", "Kakuro", "Run", "Takuzu", "__version__"]
