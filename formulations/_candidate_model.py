"""The binary model over the candidates left by propagation (:mod:`._propagate`).

Columns: x[c,k] for every live candidate (cand[c,k]), then z[g,s] for every
admissible digit set s of every sum group g that propagation did not fix.
With F the fixed cells (one candidate) and S_g the admissible sets of g:

    sum_k x[c,k] = 1                                   for every cell c not in F
    sum_{c in u} x[c,k] = 1                            for every exact-once unit u and digit k
                                                       not held by a cell of u in F
    sum_{s in S_g} z[g,s] = 1                          for every sum group g not inside F
    sum_{c in g} x[c,k] - sum_{s in S_g : k in s} z[g,s] = 0
                                                       for the same g and every digit k that is
                                                       a candidate in g or in a set of S_g
    x[c,k] = 1 (bounds)                                for c in F, its one candidate k
    x, z binary, objective 0

Sums run over live candidates only.  The fixed cells stay as fixed columns, so
the model is never empty, even when propagation solved the puzzle (then it has
no rows).  A row left without terms reads 0 = 1; when propagation found a
contradiction one such row is added, so every solver reports infeasibility.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from puzzlebench.model import Model, rows_from_triplets

from ._propagate import Reduction


def candidate_model(reduction: Reduction, units: np.ndarray, sum_groups: list[np.ndarray], *,
                    name: str, to_grid) -> Model:
    """The model of the module docstring for the (U, L) cell array ``units`` (U may be 0) and the
    cells of each sum group; ``to_grid(values)`` turns per-cell digits into the puzzle's grid."""
    cand = reduction.cand
    ncells, digits = cand.shape
    fixed = reduction.fixed
    var_cell, var_digit = np.nonzero(cand)
    nx = len(var_cell)
    x_index = np.full(cand.shape, -1)
    x_index[var_cell, var_digit] = np.arange(nx)

    open_cells = np.flatnonzero(~fixed)
    cell_rank = np.full(ncells, -1)
    cell_rank[open_cells] = np.arange(len(open_cells))
    open_x = np.flatnonzero(~fixed[var_cell])
    row, col, val = [cell_rank[var_cell[open_x]]], [open_x], [np.ones(len(open_x))]
    rhs = [np.ones(len(open_cells))]

    held = np.zeros((len(units), digits), bool)
    u_fixed, pos = np.nonzero(fixed[units])
    held[u_fixed, cand[units[u_fixed, pos]].argmax(axis=1)] = True
    open_unit, open_digit = np.nonzero(~held)
    pair_rank = np.full(held.shape, -1)
    pair_rank[open_unit, open_digit] = len(open_cells) + np.arange(len(open_unit))
    unit_x = x_index[units[:, :, None], np.arange(digits)[None, None, :]]
    live = (unit_x >= 0) & (pair_rank[:, None, :] >= 0)
    row.append(np.broadcast_to(pair_rank[:, None, :], unit_x.shape)[live])
    col.append(unit_x[live])
    val.append(np.ones(int(live.sum())))
    rhs.append(np.ones(len(open_unit)))

    nrows, nz = len(open_cells) + len(open_unit), 0
    for cells, sets in zip(sum_groups, reduction.sets):
        if fixed[cells].all():
            continue
        z = nx + nz + np.arange(len(sets))
        group_x = x_index[cells]
        in_group = group_x >= 0
        used = in_group.any(axis=0) | sets.any(axis=0)
        link = np.full(digits, -1)
        link[used] = nrows + 1 + np.arange(int(used.sum()))
        set_index, set_digit = np.nonzero(sets)
        row += [np.full(len(sets), nrows), np.broadcast_to(link, group_x.shape)[in_group], link[set_digit]]
        col += [z, group_x[in_group], z[set_index]]
        val += [np.ones(len(sets)), np.ones(int(in_group.sum())), -np.ones(len(set_index))]
        rhs += [np.ones(1), np.zeros(int(used.sum()))]
        nrows += 1 + int(used.sum())
        nz += len(sets)
    if not reduction.consistent:
        rhs.append(np.ones(1))
        nrows += 1
    ncols = nx + nz
    rhs = np.concatenate(rhs)
    rows = rows_from_triplets(np.concatenate(row), np.concatenate(col), np.concatenate(val), nrows, ncols,
                              rhs, rhs)
    lower = np.zeros(ncols)
    lower[:nx] = fixed[var_cell]

    def decode(x: np.ndarray) -> np.ndarray:
        values = np.zeros(ncells, np.int64)
        chosen = np.flatnonzero(np.asarray(x[:nx]) > 0.5)
        values[var_cell[chosen]] = var_digit[chosen] + 1
        return to_grid(values)

    model = Model.from_rows([rows], col_lower=lower, col_upper=np.ones(ncols), integrality=np.ones(ncols, bool),
                            decode=decode, name=name)
    model.presolve_info["solved_in_preprocessing"] = reduction.solved
    return model


def with_cell_values(model: Model, reduction: Reduction, units: np.ndarray) -> Model:
    """``model`` (the candidate model of ``reduction``) plus one integer y_c per cell and the
    declaration that the y of every unit are all different:

        y_c - sum_{k in K(c)} k * x[c,k] = 0          for every cell c
        min K(c) <= y_c <= max K(c), y_c integer;     all_different(y_c : c in u) for u in units

    The declaration restates the unit rows, so it removes no solution; the link rows
    say which binaries encode y_c, which lets a propagator work on the binaries.  The
    y columns follow the model's columns, so ``decode`` (which reads x) is unchanged.
    """
    cand = reduction.cand
    ncells = cand.shape[0]
    var_cell, var_digit = np.nonzero(cand)
    nx, ncols = len(var_cell), model.num_cols + ncells
    y = model.num_cols + np.arange(ncells)
    link = rows_from_triplets(np.concatenate([var_cell, np.arange(ncells)]), np.concatenate([np.arange(nx), y]),
                              np.concatenate([-(var_digit + 1.0), np.ones(ncells)]), ncells, ncols, 0.0, 0.0)
    digits = np.arange(1, cand.shape[1] + 1)
    has = cand.any(axis=1)
    y_lower = np.where(has, np.where(cand, digits, cand.shape[1]).min(axis=1), 1.0)
    y_upper = np.where(has, np.where(cand, digits, 1).max(axis=1), 1.0)
    A = sp.vstack([sp.hstack([model.A, sp.csr_matrix((model.num_rows, ncells))]), link.A], format="csr")
    extended = Model(A, np.concatenate([model.row_lower, link.lower]), np.concatenate([model.row_upper, link.upper]),
                     np.concatenate([model.col_lower, y_lower]), np.concatenate([model.col_upper, y_upper]),
                     np.concatenate([model.integrality, np.ones(ncells, bool)]),
                     np.concatenate([model.objective, np.zeros(ncells)]), model.decode, model.offset, model.name,
                     presolve_info=dict(model.presolve_info), all_different=[y[u] for u in np.asarray(units)])
    return extended
