"""Free-format MPS export of a :class:`~puzzlebench.model.Model`.

Every column gets explicit bounds (some readers default an unbounded integer
column to binary), ranged rows use a RANGES entry, and the objective constant is
written as the negated RHS of the objective row, which CBC, HiGHS and SCIP all
read the same way.
"""

from __future__ import annotations

import numpy as np

from .model import Model


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


def write_mps(model: Model, path) -> None:
    m, n = model.num_rows, model.num_cols
    rows = _names(model.row_names, "R", m)
    cols = _names(model.col_names, "C", n)
    kind, rhs, rng = _row_types(model.row_lower, model.row_upper)
    kept = kind != "N"
    out = [f"NAME {model.name}", "ROWS", " N OBJ"]
    out += [f" {kind[i]} {rows[i]}" for i in np.flatnonzero(kept)]
    out.append("COLUMNS")
    csc = model.A.tocsc()
    integer_open = False
    for j in range(n):
        if model.integrality[j] != integer_open:
            out.append(f" MARKER 'MARKER' '{'INTORG' if model.integrality[j] else 'INTEND'}'")
            integer_open = bool(model.integrality[j])
        start, end = csc.indptr[j], csc.indptr[j + 1]
        entries = [(rows[i], v) for i, v in zip(csc.indices[start:end], csc.data[start:end]) if kept[i]]
        if model.objective[j] != 0 or not entries:
            entries.insert(0, ("OBJ", model.objective[j]))
        out += [f" {cols[j]} {r} {_num(v)}" for r, v in entries]
    if integer_open:
        out.append(" MARKER 'MARKER' 'INTEND'")
    out.append("RHS")
    if model.offset:
        out.append(f" RHS OBJ {_num(-model.offset)}")
    out += [f" RHS {rows[i]} {_num(rhs[i])}" for i in np.flatnonzero(kept & (rhs != 0))]
    ranged = np.flatnonzero(kept & ~np.isnan(rng))
    if len(ranged):
        out.append("RANGES")
        out += [f" RNG {rows[i]} {_num(rng[i])}" for i in ranged]
    out.append("BOUNDS")
    for j in range(n):
        lo, up = model.col_lower[j], model.col_upper[j]
        if lo == up:
            out.append(f" FX BND {cols[j]} {_num(lo)}")
            continue
        if np.isneginf(lo) and np.isposinf(up):
            out.append(f" FR BND {cols[j]}")
            continue
        out.append(f" MI BND {cols[j]}" if np.isneginf(lo) else f" LO BND {cols[j]} {_num(lo)}")
        if np.isposinf(up):
            out.append(f" PL BND {cols[j]}")
        else:
            out.append(f" UP BND {cols[j]} {_num(up)}")
    out.append("ENDATA")
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")
