"""KenKen (Calcudoku), the fifth puzzle kind: the data type (:mod:`.puzzle`), the checker, the native
format, the cages' admissible tuples, the drawing, the symmetries and the generator.  The formulations
are in ``formulations/kenken.py``."""
