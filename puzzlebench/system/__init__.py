"""What the harness asks of the operating system, below everything else: :mod:`.capture` (a solver
library's output on file descriptors 1 and 2, captured), :mod:`.processes` (no process outlives the one
that started it) and :mod:`.atomic` (a file written whole or not at all)."""
