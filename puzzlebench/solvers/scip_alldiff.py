"""``scip-alldiff``: SCIP's CP-solver configuration plus a propagator of ``Model.all_different``.

A formulation's all-different declaration (groups of integer columns y_1..y_L
that take pairwise different values) is redundant for the rows, so MIP solvers
ignore it.  This configuration gives SCIP a constraint handler that propagates
it, generalized arc consistency per group at every node (Regin 1994):

- the domain D_i of y_i is read from the node's local bounds: when the model has
  a link row ``y_i - sum_v v * b_iv = 0`` over binaries b_iv (a one-hot
  encoding, e.g. ``sudoku/propagated-alldiff``), D_i = {v : b_iv not fixed to 0};
  otherwise D_i = the integers of [lb(y_i), ub(y_i)] (groups whose intervals span
  more than :data:`MAX_INTERVAL` values are not propagated);
- the value graph has an edge (i, v) per v in D_i.  A maximum matching M
  (``scipy.sparse.csgraph.maximum_bipartite_matching``) that leaves some y_i
  unmatched proves the node infeasible.  Otherwise edge (i, v) is in some
  matching covering every y_i iff it is in M or both ends lie in one strongly
  connected component of the graph with matched edges oriented value -> y,
  the others y -> value, and a node t with edges (free value -> t) and
  (t -> every y): that covers the even alternating cycles and the alternating
  paths from free values.  Every other edge is removed: b_iv gets upper bound 0,
  or (interval domains) the bounds of y_i move inward past removed end values.

All groups go into one graph (block diagonal; one t serves all, since a cycle
through t stays within the group it enters), so one matching and one
strongly-connected-components call propagate every group.  This is the Hall-set
reasoning of naked and hidden subsets of every size, at every node, with no LP.

Enforcement and checking are left to the rows (the handler accepts every
solution).  Presolve keeps the encoding binaries: multi-aggregation is off,
because a multi-aggregated variable has no local bounds to read or tighten.
``message`` ends with the handler's figures: calls, seconds spent in them, and
the values it removed.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import scipy.sparse as sp

from ..model import Model
from ..registry import adapter
from .base import Reading
from .configs import SHIPPED
from .contract import SolveOptions
from .scip import ScipAdapter, Session, _load_arrays

MAX_INTERVAL = 64
"""The widest interval domain a group's columns may have and still be propagated."""


class ValueGraph:
    """The edges (y position, value) of every declared group, with the column that carries each.

    Edge e joins left node ``left[e]`` (a position of a group) and right node
    ``right[e]`` (a value of that group).  ``binary[e]`` is the encoding binary
    column of the edge or -1 (an interval domain), ``column[e]`` the y column,
    ``value[e]`` the value.
    """

    def __init__(self, model: Model):
        links = _one_hot_links(model)
        left, right, binary, column, value = [], [], [], [], []
        nleft = nright = 0
        for group in model.all_different:
            group = np.asarray(group)
            domains = []
            for j in group.tolist():
                if j in links:
                    domains.append(links[j])
                else:
                    lo, up = np.ceil(model.col_lower[j]), np.floor(model.col_upper[j])
                    if not (np.isfinite(lo) and np.isfinite(up)) or up - lo + 1 > MAX_INTERVAL:
                        domains = None
                        break
                    values = np.arange(lo, up + 1)
                    domains.append((values, np.full(len(values), -1)))
            if domains is None or not len(group):
                continue
            values = np.unique(np.concatenate([d[0] for d in domains]))
            for position, (j, (vals, cols)) in enumerate(zip(group.tolist(), domains)):
                left.append(np.full(len(vals), nleft + position))
                right.append(nright + np.searchsorted(values, vals))
                binary.append(cols)
                column.append(np.full(len(vals), j))
                value.append(vals)
            nleft += len(group)
            nright += len(values)
        empty = np.zeros(0, np.int64)
        self.left = np.concatenate(left).astype(np.int64) if left else empty
        self.right = np.concatenate(right).astype(np.int64) if right else empty
        self.binary = np.concatenate(binary).astype(np.int64) if binary else empty
        self.column = np.concatenate(column).astype(np.int64) if column else empty
        self.value = np.concatenate(value).astype(float) if value else np.zeros(0)
        self.nleft, self.nright = nleft, nright

    def supported(self, alive: np.ndarray) -> np.ndarray | None:
        """Of the ``alive`` edges, those in some matching that covers every left node; None when
        no such matching exists."""
        from scipy.sparse.csgraph import connected_components, maximum_bipartite_matching  # this adapter's alone
        edges = np.flatnonzero(alive)
        graph = sp.csr_matrix((np.ones(len(edges)), (self.left[edges], self.right[edges])),
                              shape=(self.nleft, self.nright))
        match = maximum_bipartite_matching(graph, perm_type="column")
        if (match < 0).any():
            return None
        matched = match[self.left[edges]] == self.right[edges]
        free = np.ones(self.nright, bool)
        free[match] = False
        t = self.nleft + self.nright
        free_values = np.flatnonzero(free)
        source = np.concatenate([self.left[edges][~matched], self.nleft + self.right[edges][matched],
                                 self.nleft + free_values, np.full(self.nleft, t)])
        target = np.concatenate([self.nleft + self.right[edges][~matched], self.left[edges][matched],
                                 np.full(len(free_values), t), np.arange(self.nleft)])
        directed = sp.csr_matrix((np.ones(len(source)), (source, target)), shape=(t + 1, t + 1))
        _, label = connected_components(directed, directed=True, connection="strong")
        keep = matched | (label[self.left[edges]] == label[self.nleft + self.right[edges]])
        out = np.zeros_like(alive)
        out[edges[keep]] = True
        return out


def _one_hot_links(model: Model) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For every declared column y with a row ``a*y - sum_v a*v*b_v = 0`` over binaries b_v of
    distinct integer values v: y -> (values, binary columns)."""
    declared = np.unique(np.concatenate([np.asarray(g) for g in model.all_different])) \
        if model.all_different else np.zeros(0, np.int64)
    binary = model.integrality & (model.col_lower >= 0) & (model.col_upper <= 1)
    equal_zero = (model.row_lower == 0) & (model.row_upper == 0)
    A, At = model.A, model.A.tocsc()
    links = {}
    for j in declared.tolist():
        for r in At.indices[At.indptr[j]:At.indptr[j + 1]].tolist():
            if not equal_zero[r]:
                continue
            cols = A.indices[A.indptr[r]:A.indptr[r + 1]]
            coefs = A.data[A.indptr[r]:A.indptr[r + 1]]
            own = cols == j
            others, scale = cols[~own], coefs[own][0]
            values = -coefs[~own] / scale
            if (binary[others].all() and np.allclose(values, np.round(values))
                    and len(np.unique(np.round(values))) == len(values)):
                links[j] = (np.round(values), others)
                break
    return links


class AllDifferentHandler:
    """The propagation of the module docstring over the SCIP variables of one loaded model."""

    def __init__(self, graph: ValueGraph, variables: list):
        self.graph, self.variables = graph, variables
        self.calls, self.seconds, self.removed = 0, 0.0, 0
        self._transformed = None

    def propagate(self, scip) -> str:
        """One propagation at the current node: "cutoff", "reduced" or "unchanged"."""
        start = time.perf_counter()
        self.calls += 1
        try:
            return self._propagate(scip)
        finally:
            self.seconds += time.perf_counter() - start

    def _propagate(self, scip) -> str:
        g = self.graph
        if self._transformed is None:
            self._transformed = [scip.getTransformedVar(v) for v in self.variables]
        var = self._transformed
        encoded = g.binary >= 0
        alive = np.ones(len(g.left), bool)
        alive[encoded] = np.array([var[j].getUbLocal() > 0.5 for j in g.binary[encoded].tolist()], bool)
        interval = ~encoded
        if interval.any():
            cols = g.column[interval].tolist()
            lower = np.array([var[j].getLbLocal() for j in cols])
            upper = np.array([var[j].getUbLocal() for j in cols])
            alive[interval] = (g.value[interval] >= lower - 1e-6) & (g.value[interval] <= upper + 1e-6)
        keep = g.supported(alive)
        if keep is None:
            return "cutoff"
        gone = alive & ~keep
        if not gone.any():
            return "unchanged"
        changed = False
        for j in g.binary[gone & encoded].tolist():
            infeasible, tightened = scip.tightenVarUb(var[j], 0.0)
            if infeasible:
                return "cutoff"
            changed |= tightened
        for j in np.unique(g.column[gone & interval]).tolist():
            values = g.value[keep & (g.column == j)]
            for tighten, bound in ((scip.tightenVarLb, values.min()), (scip.tightenVarUb, values.max())):
                infeasible, tightened = tighten(var[j], float(bound))
                if infeasible:
                    return "cutoff"
                changed |= tightened
        if not changed:  # only inner values of interval domains: nothing SCIP can hold
            return "unchanged"
        self.removed += int(gone.sum())
        return "reduced"

    def figures(self) -> str:
        return f"alldiff: {self.calls} calls, {self.seconds:.2f} s, {self.removed} values removed"


def _include(scip, handler: AllDifferentHandler) -> None:
    """Register ``handler`` with ``scip`` as a constraint handler with one constraint."""
    from pyscipopt import SCIP_PROPTIMING, SCIP_RESULT, Conshdlr

    outcome = {"cutoff": SCIP_RESULT.CUTOFF, "reduced": SCIP_RESULT.REDUCEDDOM,
               "unchanged": SCIP_RESULT.DIDNOTFIND}

    class Handler(Conshdlr):
        def consprop(self, constraints, nusefulconss, nmarkedconss, proptiming):
            return {"result": outcome[handler.propagate(self.model)]}

        def conscheck(self, constraints, solution, checkintegrality, checklprows, printreason, completely):
            return {"result": SCIP_RESULT.FEASIBLE}

        def consenfolp(self, constraints, nusefulconss, solinfeasible):
            return {"result": SCIP_RESULT.FEASIBLE}

        def consenfops(self, constraints, nusefulconss, solinfeasible, objinfeasible):
            return {"result": SCIP_RESULT.FEASIBLE}

        def conslock(self, constraint, locktype, nlockspos, nlocksneg):
            pass

    conshdlr = Handler()
    scip.includeConshdlr(conshdlr, "alldiff", "all-different propagation by bipartite matching",
                         enfopriority=-1, chckpriority=-1, propfreq=1, eagerfreq=-1, maxprerounds=0,
                         needscons=True, proptiming=SCIP_PROPTIMING.BEFORELP)
    scip.addPyCons(scip.createCons(conshdlr, "alldiff", initial=False, separate=False, enforce=True,
                                   check=True, propagate=True))


ALLDIFF_SETTINGS = {**SHIPPED["scip-cp"].options, "presolving/donotmultaggr": True}
"""``scip-cp``'s settings, with multi-aggregation off (module docstring)."""


@adapter
class ScipAllDifferentAdapter(ScipAdapter):
    """SCIP with :data:`ALLDIFF_SETTINGS` under the run's own solver options, and the handler of the
    module docstring (an MPS file declares no all-different groups: the handler has nothing to
    propagate, the settings are the same)."""

    name = "scip-alldiff"
    all_different = True
    description = ("SCIP's CP-solver configuration (scip-cp) plus a constraint handler propagating the "
                   "formulation's all-different groups by bipartite matching at every node; single-threaded.")

    def load_arrays(self, session: Session, model: Model) -> tuple[list, AllDifferentHandler | None]:
        variables = _load_arrays(session.scip, model)
        graph = ValueGraph(model)
        handler = AllDifferentHandler(graph, variables) if graph.nleft else None
        if handler is not None:
            _include(session.scip, handler)
        return variables, handler

    def load_mps(self, session: Session, path: str) -> tuple[list, None]:
        return super().load_mps(session, path), None

    def apply_options(self, session: Session, options: SolveOptions) -> None:
        super().apply_options(session, replace(options, solver_options={**ALLDIFF_SETTINGS,
                                                                        **options.solver_options}))

    def read(self, session: Session, loaded: tuple[list, AllDifferentHandler | None]) -> Reading:
        """SCIP's reading, the handler's figures at the end of its message."""
        variables, handler = loaded
        reading = super().read(session, variables)
        return reading if handler is None else replace(reading, message=f"{reading.message}; {handler.figures()}")


_ADAPTER = ScipAllDifferentAdapter()
solve_scip_alldiff = _ADAPTER.solve
solve_scip_alldiff_mps = _ADAPTER.solve_mps
