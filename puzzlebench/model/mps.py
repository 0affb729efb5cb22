"""Free-format MPS export of a :class:`~puzzlebench.model.Model`.

Every column gets explicit bounds (some readers default an unbounded integer
column to binary), ranged rows use a RANGES entry, and the objective constant is
written as the negated RHS of the objective row, which CBC, HiGHS and SCIP all
read the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from . import Model


def _names(given: list[str] | None, prefix: str, count: int) -> list[str]:
    return list(given) if given is not None else [f"{prefix}{i}" for i in range(count)]


def _row_types(lower: np.ndarray, upper: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """MPS row type, RHS and RANGE (NaN = none) for each row."""
    lo_inf, up_inf = np.isneginf(lower), np.isposinf(upper)
    equal = lower == upper
    kind = np.where(equal, "E", np.where(lo_inf & up_inf, "N", np.where(lo_inf, "L", "G")))
    rhs = np.where(lo_inf, upper, lower)
    rng = np.where(~equal & ~lo_inf & ~up_inf, upper - lower, np.nan)
    return kind, np.where(lo_inf & up_inf, 0.0, rhs), rng


def _num(v: float) -> str:
    return repr(float(v)) if v != int(v) else str(int(v))


def _nums(values: np.ndarray) -> np.ndarray:
    """Each value as :func:`_num` writes it (integers without a decimal point), as str objects."""
    values = np.asarray(values, dtype=float)
    integral = np.isfinite(values) & (values == np.round(values))
    out = np.empty(len(values), dtype=object)
    out[integral] = values[integral].astype(np.int64).astype(str).astype(object)
    out[~integral] = [repr(v) for v in values[~integral].tolist()]
    return out


def _joined(*parts) -> list[str]:
    """Concatenate string arrays (or plain strings) element-wise."""
    line = parts[0]
    for part in parts[1:]:
        line = line + part
    return list(line)


def _column_lines(model: Model, rows: np.ndarray, cols: np.ndarray, kept: np.ndarray) -> list[str]:
    """The COLUMNS section: each column's objective entry (when nonzero, or when the column has
    no other entry) and matrix entries, with integer columns between MARKER lines."""
    csc = model.A.tocsc()
    csc.sort_indices()
    counts = np.diff(csc.indptr)
    entry_col = np.repeat(np.arange(model.num_cols), counts)
    keep = kept[csc.indices]
    entry_col, entry_row, entry_val = entry_col[keep], csc.indices[keep] + 1, csc.data[keep]
    kept_counts = np.bincount(entry_col, minlength=model.num_cols)
    with_objective = np.flatnonzero((model.objective != 0) | (kept_counts == 0))
    entry_col = np.concatenate([with_objective, entry_col])
    entry_row = np.concatenate([np.zeros(len(with_objective), dtype=entry_row.dtype), entry_row])
    entry_val = np.concatenate([model.objective[with_objective], entry_val])
    order = np.lexsort((entry_row, entry_col))
    entry_col, entry_row, entry_val = entry_col[order], entry_row[order], entry_val[order]
    row_names = np.concatenate([np.array(["OBJ"], dtype=object), rows])
    lines = np.array(_joined(" ", cols[entry_col], " ", row_names[entry_row], " ", _nums(entry_val)),
                     dtype=object)
    integer = np.asarray(model.integrality, dtype=bool)
    changes = np.flatnonzero(np.diff(integer.astype(np.int8))) + 1
    bounds = np.concatenate([[0], changes, [model.num_cols]])
    first_entry = np.searchsorted(entry_col, bounds)
    out: list[str] = []
    for a, b, start, end in zip(bounds[:-1], bounds[1:], first_entry[:-1], first_entry[1:]):
        if a == b:
            continue
        if integer[a]:
            out.append(" MARKER 'MARKER' 'INTORG'")
        out += lines[start:end].tolist()
        if integer[a]:
            out.append(" MARKER 'MARKER' 'INTEND'")
    return out


def _bound_lines(model: Model, cols: np.ndarray) -> list[str]:
    """The BOUNDS section: FX for fixed columns, FR for free ones, else LO/MI then UP/PL."""
    lo, up = np.asarray(model.col_lower, float), np.asarray(model.col_upper, float)
    fixed = lo == up
    free = np.isneginf(lo) & np.isposinf(up)
    other = ~fixed & ~free
    first = np.where(fixed, _joined(" FX BND ", cols, " ", _nums(np.where(fixed, lo, 0))), None)
    first[free] = _joined(" FR BND ", cols[free])
    lower_line = np.where(np.isneginf(lo), _joined(" MI BND ", cols),
                          _joined(" LO BND ", cols, " ", _nums(np.where(np.isfinite(lo), lo, 0))))
    upper_line = np.where(np.isposinf(up), _joined(" PL BND ", cols),
                          _joined(" UP BND ", cols, " ", _nums(np.where(np.isfinite(up), up, 0))))
    first[other] = lower_line[other]
    second = np.where(other, upper_line, None)
    pairs = np.stack([first, second], axis=1).ravel()
    return [line for line in pairs.tolist() if line is not None]


def write_mps(model: Model, path) -> None:
    m, n = model.num_rows, model.num_cols
    rows = np.array(_names(model.row_names, "R", m), dtype=object)
    cols = np.array(_names(model.col_names, "C", n), dtype=object)
    kind, rhs, rng = _row_types(model.row_lower, model.row_upper)
    kept = kind != "N"
    out = [f"NAME {model.name}", "ROWS", " N OBJ"]
    out += _joined(" ", kind[kept].astype(object), " ", rows[kept])
    out.append("COLUMNS")
    out += _column_lines(model, rows, cols, kept)
    out.append("RHS")
    if model.offset:
        out.append(f" RHS OBJ {_num(-model.offset)}")
    with_rhs = np.flatnonzero(kept & (rhs != 0))
    out += _joined(" RHS ", rows[with_rhs], " ", _nums(rhs[with_rhs]))
    ranged = np.flatnonzero(kept & ~np.isnan(rng))
    if len(ranged):
        out.append("RANGES")
        out += _joined(" RNG ", rows[ranged], " ", _nums(rng[ranged]))
    out.append("BOUNDS")
    out += _bound_lines(model, cols)
    out.append("ENDATA")
    from ..system.atomic import write_whole
    write_whole(path, "\n".join(out) + "\n")


def mps_column_count(path: str) -> int:
    """The number of distinct columns in the COLUMNS section of an MPS file."""
    names, section = set(), None
    with open(path) as handle:
        for line in handle:
            if line[:1] not in (" ", "\t", "*") and line.strip():
                section = line.split()[0]
            elif section == "COLUMNS" and line.strip() and "'MARKER'" not in line:
                names.add(line.split()[0])
    return len(names)
