"""The syntax of io's layouts that the kinds' parts of them share: what a layout's files look like,
with no kind in it (which kind a file states, and what its puzzle is, the layout asks the kinds' parts).

:mod:`.dzn` and :mod:`.expr` -- the MiniZinc data subset; :mod:`.janko` -- janko's header and rows;
:mod:`.tatham` -- Tatham's block code; :mod:`.fpuzzles` -- f-puzzles' JSON grid; :mod:`.grid_words` -- a
grid written as one word (the lines layout); :mod:`.grids` -- the bare grids of the grid layout.
"""

LAYOUTS = ("lines", "janko", "tatham", "dzn", "grid", "killer-json", "sudoku-yaml")
"""io's generic layouts: its formats that hold several kinds and ask each kind's part of them, declared by
the kind (:attr:`puzzlebench.kinds.PuzzleKind.layouts`); each is a module of :mod:`puzzlebench.io`."""
