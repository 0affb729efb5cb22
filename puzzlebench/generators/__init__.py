"""Deterministic puzzle generators whose puzzles are certified to have exactly one solution.

One module per puzzle kind, ``puzzlebench/kinds/<kind>/generator.py`` (its ``PROCEDURE`` says
how; the kind's :class:`~puzzlebench.kinds.PuzzleKind` methods give its spec, function and procedure), plus
:mod:`.uniqueness` (the solver questions and the certificate), :mod:`puzzlebench.toolkit.generation`
(the dig-out loop and the random fill) and :mod:`.output` (writing an
instance set).  A *spec* says what to make (size, rule variant, difficulty
knob); :func:`generate_puzzle` makes puzzle number ``index`` of a spec and
certifies it.  A kind's spec type is its generator's (``puzzlebench.kinds.sudoku.generator.SudokuSpec``).
:data:`DETERMINISM` says what a generated puzzle depends on.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..errors import PuzzleError
from ..kinds import spec_kind
from ..toolkit.generation import BlankTarget, Certificate, Generated
from . import uniqueness
from .uniqueness import UniquenessOracle

DETERMINISM = """\
Determinism: puzzle ``index`` (0-based) of a size draws from its own
``np.random.default_rng(SeedSequence(seed, spawn_key=(puzzle type, *size and rule key, index)))``,
so it depends on the seed, the puzzle type, the size and rule variant and
its index only, not on the count or on the other sizes of the run.  The
difficulty knob is not part of the key: with the same seed a Sudoku dug to
60% blank is a sub-puzzle of the one dug to 50%.  Every solve is
single-threaded with seed 0.  Whether a blank keeps a Sudoku or Takuzu unique
is a fact, so those come out the same with any solver version; a Killer or
Kakuro also depends on which second solution the search solver returns while
it is repaired, hence on that solver's version."""

__all__ = ["DETERMINISM", "BlankTarget", "Certificate", "Generated", "UniquenessOracle", "generate_puzzle",
           "procedure", "puzzle_kind", "puzzle_rng"]


def puzzle_kind(spec) -> str:
    """The puzzle name ("sudoku", ...) a spec makes."""
    return spec_kind(spec).name


def procedure(spec) -> str:
    """How puzzles of ``spec``'s type are made, for a set's SOURCE.md: the kind's
    :meth:`~puzzlebench.kinds.PuzzleKind.procedure`, the uniqueness :data:`~.uniqueness.CERTIFICATE`
    and :data:`DETERMINISM`."""
    kind = spec_kind(spec)
    text = kind.procedure()
    if not isinstance(text, str) or not text.strip():
        raise PuzzleError(f"puzzle kind {kind.name!r}: its procedure() gave {type(text).__name__}, not the text "
                          "a generated set's SOURCE.md gives of how it was made")
    return f"{text.strip()}\n\n{uniqueness.CERTIFICATE.strip()}\n\n{DETERMINISM}"


def puzzle_rng(seed: int, spec, index: int) -> np.random.Generator:
    """The random generator of puzzle ``index`` (0-based) of ``spec`` (module docstring)."""
    key = (spec_kind(spec).seed_key, *spec.key, index)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def generate_puzzle(spec, seed: int, index: int, oracle: UniquenessOracle) -> Generated:
    """Puzzle ``index`` of ``spec`` for ``seed``, with its uniqueness certificate."""
    generated = spec_kind(spec).generate(spec, puzzle_rng(seed, spec, index), oracle)
    certificate = oracle.certify(generated.puzzle, generated.solution)
    return dataclasses.replace(generated, certificate=certificate)
