"""The identity of a model: what a solver reads of it, as a hash and a fingerprint.

Two formulations that give the same model must be told apart from two that do not
(an A/A comparison: an exact copy of a model must never come out faster).  The hash
is equal exactly when a solver reads the same arrays; the fingerprint is equal for
the same model with its rows and columns in any order.  The declarations
(:data:`DECLARATIONS`) count only for a solver that reads them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from . import Model

DECLARATIONS = ("all_different", "products")
"""The kinds of redundant declaration a model may carry beside its rows (:mod:`puzzlebench.model.arrays`)."""


@dataclass(frozen=True)
class ModelIdentity:
    """``hash``: sha256 of the canonical arrays (equal exactly when a solver reads the same model);
    ``fingerprint``: equal for the same model with its rows and columns permuted."""

    hash: str
    fingerprint: str


IDENTITY_VERSION = 1
"""Changes when the digest's definition changes, so that old and new digests never match by accident."""
FINGERPRINT_ROUNDS = 3


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


_GOLDEN, _MUL1, _MUL2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on uint64 arrays: a fixed, well-spread hash.  uint64 arithmetic wraps
    modulo 2^64, as the finaliser's does; each step works in place on one new array."""
    x = x + _GOLDEN
    x ^= x >> _S30
    x *= _MUL1
    x ^= x >> _S27
    x *= _MUL2
    x ^= x >> _S31
    return x


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
        to_rows = _mix(edge_label ^ _mix(col_colour)[cols])  # a node's mix once, then per edge
        to_cols = _mix(edge_label ^ _mix(row_colour + np.uint64(1))[rows])
        row_colour = _label(row_colour, _segment_sums(to_rows[by_row], row_starts))
        col_colour = _label(col_colour, _segment_sums(to_cols[by_col], col_starts))
    counts = f"{len(groups)}" + (f":{len(products)}" if products else "")
    digest = hashlib.sha256(f"puzzlebench-fingerprint-{IDENTITY_VERSION}:{m}:{n}:{A.nnz}:{counts}".encode())
    digest.update(_canonical([model.offset]).tobytes())
    digest.update(np.sort(row_colour).tobytes())
    digest.update(np.sort(col_colour).tobytes())
    return digest.hexdigest()
