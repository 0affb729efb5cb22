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
those rows out.  :data:`DECLARATIONS` names the kinds of declaration; an adapter says
which it reads.

:meth:`Model.identity` names a model by what a solver reads, so that two formulations
that give the same model can be told apart from two that do not: a structural hash of
the canonical arrays, and a fingerprint that is the same for the model with its rows and
columns in any order (see :func:`model_identity`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np
import scipy.sparse as sp

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


DECLARATIONS = ("all_different", "products")
"""The kinds of redundant declaration a model may carry beside its rows (module docstring)."""


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
        """The model's structural hash and permutation-invariant fingerprint (:func:`model_identity`);
        ``declarations``: the kinds of declaration (of :data:`DECLARATIONS`; True: all) to include with
        the rows they stand for, those a solver reads."""
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
        """Write the model as a fixed-name free MPS file (see :mod:`puzzlebench.mps`)."""
        from .mps import write_mps
        write_mps(self, path)


@dataclass(frozen=True)
class ModelIdentity:
    """``hash``: sha256 of the canonical arrays (equal exactly when a solver reads the same model);
    ``fingerprint``: equal for the same model with its rows and columns permuted."""

    hash: str
    fingerprint: str


IDENTITY_VERSION = 1
"""Changes when the digest's definition changes, so that old and new digests never match by accident."""
FINGERPRINT_ROUNDS = 3
_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def _canonical(values) -> np.ndarray:
    """Float64, little-endian, with -0.0 as 0.0 (the same number, different bytes)."""
    return np.asarray(values, dtype="<f8") + 0.0


def _declared(model: Model) -> tuple[list[np.ndarray], np.ndarray]:
    """The all-different groups (each sorted, the groups sorted) and the sorted rows they stand for."""
    groups = sorted((np.sort(np.asarray(g, dtype="<i8")) for g in model.all_different), key=lambda g: g.tolist())
    return groups, np.sort(np.asarray(model.all_different_rows, dtype="<i8"))


def _declared_products(model: Model) -> list[tuple[int, np.ndarray]]:
    """The product declarations as (target, sorted columns), sorted."""
    return sorted(((p.target, np.sort(p.columns).astype("<i8")) for p in model.products),
                  key=lambda p: (p[0], p[1].tolist()))


def declaration_kinds(declarations: bool | Collection[str]) -> frozenset[str]:
    """The kinds of declaration ``declarations`` names (True: all of :data:`DECLARATIONS`, False: none);
    ValueError for a name not among them."""
    if isinstance(declarations, bool):
        return frozenset(DECLARATIONS if declarations else ())
    unknown = set(declarations) - set(DECLARATIONS)
    if unknown:
        raise ValueError(f"unknown declarations {sorted(unknown)}; known: {', '.join(DECLARATIONS)}")
    return frozenset(declarations)


def model_identity(model: Model, declarations: bool | Collection[str] = False) -> ModelIdentity:
    """The structural hash and fingerprint of what a solver reads of ``model``.

    Hash: sha256 over the matrix A in canonical CSR (duplicates summed, explicit zeros
    dropped, column indices sorted in each row), the row bounds, the column bounds, the
    integrality, the objective and offset (sense: always minimise), each array with its dtype
    and shape, and with ``declarations`` (:func:`declaration_kinds`) the sorted all-different
    groups and the rows they stand for, and the sorted product declarations (when there are any)
    and the rows they stand for.  Fingerprint: :data:`FINGERPRINT_ROUNDS` rounds of Weisfeiler-Lehman colour
    refinement on the bipartite graph of rows and columns (row colour from its bounds, column
    colour from its bounds, integrality and objective coefficient, each edge labelled by its
    coefficient; a declared group or product is one more row node of its own kind, a product's
    coloured by its target), then sha256 of the
    sorted colour multisets: the same for any order of the rows and columns.  Equal
    fingerprints with different hashes mean the same model reordered (or, rarely, two models
    colour refinement cannot tell apart); different fingerprints always mean different models.
    """
    A = sp.csr_matrix(model.A, dtype=float, copy=True)
    A.sum_duplicates()
    A.eliminate_zeros()
    A.sort_indices()
    arrays = {"shape": np.asarray(A.shape, dtype="<i8"), "indptr": A.indptr.astype("<i8"),
              "indices": A.indices.astype("<i8"), "data": _canonical(A.data),
              "row_lower": _canonical(model.row_lower), "row_upper": _canonical(model.row_upper),
              "col_lower": _canonical(model.col_lower), "col_upper": _canonical(model.col_upper),
              "integrality": np.asarray(model.integrality, dtype=np.uint8),
              "objective": _canonical(model.objective), "offset": _canonical([model.offset])}
    kinds = declaration_kinds(declarations)
    groups, replaced = _declared(model) if "all_different" in kinds else ([], np.zeros(0, "<i8"))
    if "all_different" in kinds:
        arrays["all_different_rows"] = replaced
        for number, group in enumerate(groups):
            arrays[f"all_different_{number}"] = group
    products = _declared_products(model) if "products" in kinds else []
    if products:  # only then: the digests of models without products stay as they were
        product_rows = np.sort(np.asarray(model.product_rows, dtype="<i8"))
        arrays["product_rows"] = product_rows
        replaced = np.union1d(replaced, product_rows)
        for number, (target, columns) in enumerate(products):
            arrays[f"product_{number}"] = np.concatenate([[target], columns]).astype("<i8")
    digest = hashlib.sha256(f"puzzlebench-model-{IDENTITY_VERSION}".encode())
    for name, array in arrays.items():
        digest.update(f"|{name}:{array.dtype.str}:{array.shape}|".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return ModelIdentity(digest.hexdigest(), _fingerprint(A, model, groups, products, replaced))


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on uint64 arrays (wrapping arithmetic): a fixed, well-spread hash."""
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & _M64
    x = ((x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & _M64
    x = ((x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & _M64
    return x ^ (x >> np.uint64(31))


def _bits(values) -> np.ndarray:
    return _canonical(values).view(np.uint64)


def _label(*columns: np.ndarray) -> np.ndarray:
    """One uint64 label per element from several uint64 columns, order-sensitive."""
    out = np.zeros(len(columns[0]), np.uint64)
    for column in columns:
        out = _mix(out ^ column)
    return out


def _segment_sums(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums (mod 2^64) of ``values`` over the segments ``starts[i]:starts[i+1]`` (empty ones 0)."""
    prefix = np.concatenate([np.zeros(1, np.uint64), np.cumsum(values, dtype=np.uint64)])
    return prefix[starts[1:]] - prefix[starts[:-1]]


def _fingerprint(A: sp.csr_matrix, model: Model, groups: list[np.ndarray], products: list[tuple[int, np.ndarray]],
                 replaced: np.ndarray) -> str:
    m, n = A.shape
    rows = np.repeat(np.arange(m), np.diff(A.indptr))
    cols = A.indices.astype(np.int64)
    edge = _bits(A.data)
    in_replaced = np.zeros(m, np.uint64)
    in_replaced[replaced] = 1
    row_colour = _label(_bits(model.row_lower), _bits(model.row_upper), in_replaced)
    if groups:  # each declared group: one more row node, joined to its columns by an edge of its own kind
        sizes = np.array([len(g) for g in groups])
        rows = np.concatenate([rows, m + np.repeat(np.arange(len(groups)), sizes)])
        cols = np.concatenate([cols, *groups])
        edge = np.concatenate([edge, np.full(int(sizes.sum()), 0xA11D1FF, np.uint64)])
        row_colour = np.concatenate([row_colour, np.full(len(groups), 0xA11D1FF, np.uint64)])
    if products:  # each product: one more row node, coloured by its target, with edges of its own kind
        sizes = np.array([len(columns) for _, columns in products])
        rows = np.concatenate([rows, len(row_colour) + np.repeat(np.arange(len(products)), sizes)])
        cols = np.concatenate([cols, *(columns for _, columns in products)])
        edge = np.concatenate([edge, np.full(int(sizes.sum()), 0x9A0D, np.uint64)])
        targets = np.array([target for target, _ in products], dtype=np.int64).view(np.uint64)
        row_colour = np.concatenate([row_colour, _mix(targets ^ np.uint64(0x9A0D))])
    col_colour = _label(_bits(model.col_lower), _bits(model.col_upper),
                        np.asarray(model.integrality, np.uint64), _bits(model.objective))
    by_row = np.argsort(rows, kind="stable")
    by_col = np.argsort(cols, kind="stable")
    row_starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(row_colour)))])
    col_starts = np.concatenate([[0], np.cumsum(np.bincount(cols, minlength=n))])
    edge_label = _mix(edge)
    for _ in range(FINGERPRINT_ROUNDS):
        to_rows = _mix(edge_label ^ _mix(col_colour[cols]))
        to_cols = _mix(edge_label ^ _mix(row_colour[rows] + np.uint64(1)))
        row_colour = _label(row_colour, _segment_sums(to_rows[by_row], row_starts))
        col_colour = _label(col_colour, _segment_sums(to_cols[by_col], col_starts))
    counts = f"{len(groups)}" + (f":{len(products)}" if products else "")
    digest = hashlib.sha256(f"puzzlebench-fingerprint-{IDENTITY_VERSION}:{m}:{n}:{A.nnz}:{counts}".encode())
    digest.update(_canonical([model.offset]).tobytes())
    digest.update(np.sort(row_colour).tobytes())
    digest.update(np.sort(col_colour).tobytes())
    return digest.hexdigest()
