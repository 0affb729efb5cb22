"""The solver-neutral MILP: arrays in, arrays out.

    minimize    c^T x + offset
    subject to  row_lower <= A x <= row_upper
                col_lower <=  x  <= col_upper
                x_j integer for integrality[j]

A formulation builds one :class:`Model` from a puzzle with vectorized numpy /
scipy code; every solver adapter reads the same arrays.  ``decode`` turns a
solution vector back into the puzzle's grid.  A formulation that adds
constraints lazily supplies ``separate``: given an integer solution it returns
the violated rows to add (a :class:`Rows`), or None when the solution is valid.

``all_different`` optionally declares groups of integer columns that must take
pairwise different values.  It is redundant: the rows must already enforce
it, so MIP solvers ignore it; a constraint-programming solver may add it as
its native global constraint (CP-SAT's AddAllDifferent).  ``all_different_rows``
lists the rows written only for MIP solvers that those groups imply (pairwise
big-M disjunctions, implied sums); a solver that adds the groups natively leaves
them out, so that it gets its natural model rather than a burdened one.

``products`` likewise declares products of integer columns equal to a constant
(:class:`Product`: prod_{j in columns} x_j = target), again redundant: the rows
``product_rows`` (a table of admissible tuples, logarithms) enforce them for MIP
solvers, and a solver that reads products (CP-SAT's AddMultiplicationEquality) leaves
those rows out.  :data:`~puzzlebench.model.identity.DECLARATIONS` names the kinds of declaration; an adapter says
which it reads.

:meth:`Model.identity` names a model by what a solver reads, so that two formulations
that give the same model can be told apart from two that do not: a structural hash of
the canonical arrays, and a fingerprint that is the same for the model with its rows and
columns in any order (:mod:`puzzlebench.model.identity`).

``conversion_time`` is the seconds an adapter of a model written elsewhere (a PuLP or Pyomo
model, a model file: :mod:`puzzlebench.model.layers`) took to make these arrays of it; None for a
model built as arrays.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from .identity import ModelIdentity

INF = np.inf


@dataclass(frozen=True)
class Rows:
    """A block of linear rows ``lower <= A x <= upper``."""

    A: sp.csr_matrix
    lower: np.ndarray
    upper: np.ndarray

    @staticmethod
    def stack(blocks: list["Rows"], ncols: int) -> "Rows":
        blocks = [b for b in blocks if b.A.shape[0]]
        if not blocks:
            return Rows(sp.csr_matrix((0, ncols)), np.zeros(0), np.zeros(0))
        if len(blocks) == 1:  # nothing to stack (saves scipy's vstack, a third of a 9x9 build)
            return blocks[0]
        return Rows(sp.vstack([b.A for b in blocks], format="csr"),
                    np.concatenate([b.lower for b in blocks]),
                    np.concatenate([b.upper for b in blocks]))


def rows_from_triplets(row: np.ndarray, col: np.ndarray, val, nrows: int, ncols: int,
                       lower, upper) -> Rows:
    """Build a :class:`Rows` block from COO triplets; scalars broadcast."""
    val = np.broadcast_to(np.asarray(val, dtype=float), np.shape(row))
    A = sp.csr_matrix((val, (row, col)), shape=(nrows, ncols))
    A.sum_duplicates()
    return Rows(A, np.broadcast_to(np.asarray(lower, float), (nrows,)).copy(),
                np.broadcast_to(np.asarray(upper, float), (nrows,)).copy())


@dataclass(frozen=True)
class Product:
    """The declaration prod_{j in columns} x_j = target over integer columns."""

    columns: np.ndarray
    target: int

    def __post_init__(self):
        object.__setattr__(self, "columns", np.asarray(self.columns, dtype=np.int64))
        object.__setattr__(self, "target", int(self.target))


@dataclass(frozen=True)
class ModelStats:
    rows: int
    cols: int
    nonzeros: int
    binaries: int
    integers: int


@dataclass(eq=False)
class Model:
    """A MILP in arrays (see the module docstring)."""

    A: sp.csr_matrix
    row_lower: np.ndarray
    row_upper: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    integrality: np.ndarray
    objective: np.ndarray
    decode: Callable[[np.ndarray], np.ndarray]
    offset: float = 0.0
    name: str = "model"
    col_names: list[str] | None = None
    row_names: list[str] | None = None
    separate: Callable[[np.ndarray], Rows | None] | None = None
    presolve_info: dict = field(default_factory=dict)
    all_different: list[np.ndarray] = field(default_factory=list)
    all_different_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    products: list[Product] = field(default_factory=list)
    product_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    conversion_time: float | None = None

    def __post_init__(self):
        self.A = sp.csr_matrix(self.A)
        self.A.sum_duplicates()
        self.A.sort_indices()
        m, n = self.A.shape
        for name, size in (("row_lower", m), ("row_upper", m), ("col_lower", n), ("col_upper", n),
                           ("objective", n), ("integrality", n)):
            arr = np.asarray(getattr(self, name), dtype=bool if name == "integrality" else float)
            if arr.shape != (size,):
                raise ValueError(f"Model.{name} has shape {arr.shape}, expected ({size},)")
            setattr(self, name, arr)
        for product in self.products:
            if not (len(product.columns) and ((product.columns >= 0) & (product.columns < n)).all()
                    and self.integrality[product.columns].all()):
                raise ValueError(f"Model.products: {product.columns.tolist()} are not integer columns of the model")

    @classmethod
    def from_rows(cls, blocks: list[Rows], *, col_lower, col_upper, integrality, objective=None,
                  decode, **kwargs) -> "Model":
        ncols = len(col_lower)
        rows = Rows.stack(blocks, ncols)
        objective = np.zeros(ncols) if objective is None else objective
        return cls(rows.A, rows.lower, rows.upper, col_lower, col_upper, integrality, objective,
                   decode, **kwargs)

    @property
    def num_rows(self) -> int:
        return self.A.shape[0]

    @property
    def num_cols(self) -> int:
        return self.A.shape[1]

    def stats(self) -> ModelStats:
        binary = self.integrality & (self.col_lower >= 0) & (self.col_upper <= 1)
        return ModelStats(rows=self.num_rows, cols=self.num_cols, nonzeros=int(self.A.nnz),
                          binaries=int(binary.sum()), integers=int((self.integrality & ~binary).sum()))

    def with_rows(self, extra: Rows) -> "Model":
        """A copy of this model with ``extra`` rows appended (used by lazy separation)."""
        return replace(self, A=sp.vstack([self.A, extra.A], format="csr"),
                       row_lower=np.concatenate([self.row_lower, extra.lower]),
                       row_upper=np.concatenate([self.row_upper, extra.upper]), row_names=None)

    def identity(self, declarations: bool | Collection[str] = False) -> "ModelIdentity":
        """The model's structural hash and permutation-invariant fingerprint
        (:func:`~puzzlebench.model.identity.model_identity`); ``declarations``: the kinds of declaration
        (of :data:`~puzzlebench.model.identity.DECLARATIONS`; True: all) to include with the rows they stand for, those a solver reads."""
        from .identity import model_identity
        return model_identity(self, declarations)

    def activity(self, x: np.ndarray) -> np.ndarray:
        return self.A @ x

    def is_feasible(self, x: np.ndarray, tol: float = 1e-6) -> bool:
        """Whether ``x`` satisfies every row, bound and integrality of the model."""
        ax = self.A @ x
        return bool((ax >= self.row_lower - tol).all() and (ax <= self.row_upper + tol).all()
                    and (x >= self.col_lower - tol).all() and (x <= self.col_upper + tol).all()
                    and (np.abs(x[self.integrality] - np.round(x[self.integrality])) <= tol).all())

    def to_mps(self, path) -> None:
        """Write the model as a fixed-name free MPS file (see :mod:`puzzlebench.model.mps`)."""
        from .mps import write_mps
        write_mps(self, path)
