"""Domain reduction for digit puzzles (Sudoku, Killer, Kakuro) by propagation to a fixpoint.

The state is a candidate table ``cand[c, k]`` (cells x digits, boolean): digit
k+1 is still possible in cell c.  The rules act on *groups* of cells whose
digits are pairwise different: the exact-once units (rows, columns, boxes,
diagonals: each digit once) and the sum groups (Killer cages, Kakuro runs:
distinct digits summing to a total V_g).  ``once[g, k]`` marks the pairs where
digit k must appear in group g: every digit of an exact-once unit, and the
digits every admissible digit set of a sum group contains.  Repeated until no
candidate is removed:

- naked single: c has the one candidate k  =>  k is removed from every cell
  sharing a group with c;
- hidden single: once[g,k] and c is the only cell of g with candidate k  =>
  c holds k;
- locked candidates: once[g,k] and every candidate place of k in g lies in
  another group h  =>  k is removed from h \\ g (box/line "pointing" and
  "claiming", and a cage's required digits leaving the rest of its box);
- sum groups, generalised arc consistency: k stays in c of sum group g only if
  some assignment of pairwise distinct candidates to the cells of g, with c
  holding k, sums to V_g.  This is a dynamic programme over digit sets
  (bitmasks): F_i = the sets the first i cells can take, B_i = those of F_i
  that the remaining cells complete to a set summing to V_g.  The admissible
  digit sets of g are F_|g| restricted to sum V_g: every digit of such a set
  has a place and the placement is possible, and a set missing a digit some
  cell must take cannot appear.

With ``subsets = s >= 2`` (the ``propagated-subsets`` formulations), three more rules,
each the one statement "t items whose values lie within t values own those
values" on a different (items x values) table, for t = 2..s:

- naked subset: t cells of a group whose candidates together are t digits  =>
  those digits are removed from the group's other cells (pairs, triples, quads);
- hidden subset: t digits of an exact-once unit whose places together are t
  cells  =>  those cells lose every other digit;
- fish (X-wing t = 2, swordfish t = 3, jellyfish t = 4): for a digit k and the
  lines of a grid (every row and every column an exact-once unit), t rows whose
  places of k lie in t columns  =>  k is removed from those columns' other rows
  (and the same with rows and columns swapped).

A table of items x values is tested for every t-subset of its items that have
2..t values (an item with one value is the singles' business): when the union
of their values (bitmasks) has t bits, the rule fires; fewer than t bits is a
contradiction (t items, fewer values).  The subset rules
run once singles and locked candidates are at their fixpoint, and the singles
run again after any of them removed a candidate.

The singles run in every pass, locked candidates only in passes where the
singles removed nothing, and the sum groups (only those whose cells changed)
once the other rules are at their fixpoint.  ``Reduction.removed`` counts the
candidates each rule removed.

Every rule keeps every solution, so a cell left without candidate (or an
exact-once pair (g,k) with no place) proves the puzzle infeasible; propagation
stops there and reports it.  Everything is vectorized over cells, groups and
digits; the dynamic programme runs on all sum groups of one size at once, on
tables of 2^N digit sets, hence N <= :data:`MAX_SET_DIGITS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

import numpy as np

from puzzlebench.errors import PuzzleError

MAX_SET_DIGITS = 16
"""The most digits a puzzle with sum groups may have: the set tables have 2^N entries."""

MAX_SUBSET = 4
"""The largest subset (naked/hidden quads, jellyfish) the subset rules look for."""

RULES = ("naked single", "hidden single", "locked candidates", "sum groups", "naked subsets",
         "hidden subsets", "fish")
"""The rules, in the order ``Reduction.removed`` lists them."""


@dataclass(frozen=True)
class Reduction:
    """The fixpoint: candidates, admissible digit sets per sum group, and whether it is consistent.

    ``sets[g]`` is a (sets, digits) boolean matrix of the digit sets sum group g
    can still take (one row per set); no rows when propagation met a
    contradiction before filtering g.
    """

    cand: np.ndarray
    sets: list[np.ndarray]
    consistent: bool
    removed: dict[str, int] = field(default_factory=dict)  # candidates removed per rule (RULES)

    @property
    def fixed(self) -> np.ndarray:
        """Cells with exactly one candidate."""
        return self.cand.sum(axis=1) == 1

    @property
    def solved(self) -> bool:
        """Propagation alone fixed every cell, consistently."""
        return self.consistent and bool(self.fixed.all())


def given_candidates(givens: np.ndarray, digits: int) -> np.ndarray:
    """cand for flat ``givens`` (0 = blank): a given cell has its digit only, a blank every digit."""
    givens = np.asarray(givens).ravel()
    cand = np.ones((givens.size, digits), bool)
    given = np.flatnonzero(givens)
    cand[given] = False
    cand[given, givens[given] - 1] = True
    return cand


def propagate(cand: np.ndarray, units: np.ndarray, sum_groups: list[np.ndarray] = (),
              sum_totals=(), *, subsets: int = 1, grid: np.ndarray | None = None) -> Reduction:
    """Apply the rules of the module docstring to ``cand`` until none removes a candidate.

    ``units`` is a (U, L) array of the exact-once units' cells (U may be 0);
    ``sum_groups`` the cells of each sum group, ``sum_totals`` their totals.
    ``subsets`` is the largest subset size of the subset rules (1: none, up to
    :data:`MAX_SUBSET`); ``grid`` an (R, C) array of cells whose rows and columns
    are exact-once units, for the fish (None: no fish).
    """
    if not 1 <= subsets <= MAX_SUBSET:
        raise ValueError(f"subsets must be 1..{MAX_SUBSET}, not {subsets}")
    if subsets > 1 and max(np.shape(cand)[1], np.shape(units)[1] if np.size(units) else 0) > 63:
        raise PuzzleError(f"the subset rules hold values as bits of int64 and support up to 63 digits "
                          f"and cells per unit, not {max(np.shape(cand)[1], np.shape(units)[1])}; "
                          f"use another formulation")
    ncells, digits = np.shape(cand)
    if len(sum_groups) and digits > MAX_SET_DIGITS:
        raise PuzzleError(f"sum-group propagation tabulates the 2^N digit sets and supports N <= "
                          f"{MAX_SET_DIGITS}, not {digits}; use another formulation")
    work = np.zeros((ncells + 1, digits), bool)   # row ncells: padding, a cell without candidates
    work[:ncells] = cand
    groups = [np.asarray(u) for u in units] + [np.asarray(g) for g in sum_groups]
    rules = _group_rules(ncells, tuple(len(g) for g in groups),
                         np.concatenate(groups).astype(np.int64).tobytes() if groups else b"")
    eliminated = np.zeros(ncells + 1, bool)  # fixed cells whose digit has left their peers
    sums = _SumGroups(sum_groups, np.asarray(sum_totals, dtype=np.int64), digits)
    once = np.zeros((len(groups), digits), bool)
    once[: len(units)] = True
    removed = dict.fromkeys(RULES, 0)
    subset_rules = _SubsetRules(units, sum_groups, grid, subsets)
    while True:
        while rules.step(work, once, eliminated, removed):
            pass
        if not rules.consistent(work, once):
            break
        if subset_rules.step(work, removed):
            continue
        if not len(sum_groups):
            break
        before = work.copy()
        sums.filter(work)
        once[len(units):] = sums.required
        removed["sum groups"] += int(before.sum() - work.sum())
        if (work == before).all():
            break
    return Reduction(work[:ncells], sums.sets, rules.consistent(work, once), removed)


@lru_cache(maxsize=64)
def _group_rules(ncells: int, lengths: tuple[int, ...], cells: bytes) -> _GroupRules:
    """The (read-only) rule tables of the groups whose cells, concatenated, are ``cells``; cached,
    because every Sudoku of one shape has the same units."""
    flat = np.frombuffer(cells, dtype=np.int64)
    return _GroupRules(np.split(flat, np.cumsum(lengths)[:-1]) if lengths else [], ncells)


def _padded(values: np.ndarray, keys: np.ndarray, nkeys: int, fill: int) -> np.ndarray:
    """A (nkeys, width) array whose row r holds the ``values`` with key r, padded with ``fill``."""
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    counts = np.bincount(keys, minlength=nkeys)
    out = np.full((nkeys, max(int(counts.max(initial=0)), 1)), fill, dtype=np.int64)
    out[keys, np.arange(len(keys)) - (np.cumsum(counts) - counts)[keys]] = values
    return out


class _GroupRules:
    """Naked singles, hidden singles and locked candidates, one vectorized pass at a time.

    ``cand`` has one padding row (index ``ncells``, never a candidate) and the
    group table one padding group (index G, no cells) that padded index arrays
    point at.
    """

    def __init__(self, groups: list[np.ndarray], ncells: int):
        ngroups = len(groups)
        slot_group = np.repeat(np.arange(ngroups), [len(g) for g in groups])
        slot_cell = np.concatenate(groups).astype(np.int64) if groups else np.zeros(0, np.int64)
        self.ncells, self.ngroups = ncells, ngroups
        self.cells = _padded(slot_cell, slot_group, ngroups, ncells)            # (G, L)
        self.cell_groups = _padded(slot_group, slot_cell, ncells + 1, ngroups)  # (cells + 1, degree)
        padded_cells = np.vstack([self.cells, np.full((1, self.cells.shape[1]), ncells)])
        peers = padded_cells[self.cell_groups].reshape(ncells + 1, -1)
        self.peers = np.where(peers == np.arange(ncells + 1)[:, None], ncells, peers)
        first, second = self.cell_groups[:, :, None], self.cell_groups[:, None, :]
        shared = (first < ngroups) & (second < ngroups) & (first != second)
        keys = (first * ngroups + second)[shared]
        where = np.broadcast_to(np.arange(ncells + 1)[:, None, None], shared.shape)[shared]
        pairs, pair_of, size = np.unique(keys, return_inverse=True, return_counts=True)
        keep = size[pair_of] >= 2
        rank = np.cumsum(size >= 2) - 1
        pairs = pairs[size >= 2]
        self.inner_group, outer_group = pairs // max(ngroups, 1), pairs % max(ngroups, 1)
        self.inside = _padded(where[keep], rank[pair_of[keep]], len(pairs), ncells)
        outer_cells = self.cells[outer_group]
        in_inner = (self.cell_groups[outer_cells] == self.inner_group[:, None, None]).any(axis=2)
        self.outside = np.where(in_inner, ncells, outer_cells)

    def step(self, cand: np.ndarray, once: np.ndarray, eliminated: np.ndarray,
             removed: dict[str, int]) -> bool:
        """One pass of the rules over ``cand`` (in place): naked and hidden singles, and locked
        candidates only when the singles removed nothing.  Whether a candidate went.
        ``eliminated`` marks the fixed cells whose digit already left their peers (updated);
        ``removed`` counts the candidates each rule removed (updated)."""
        before = int(cand.sum())
        new = (cand.sum(axis=1) == 1) & ~eliminated
        if new.any():
            cells = np.flatnonzero(new)
            cand[self.peers[cells], cand[cells].argmax(axis=1)[:, None]] = False
            eliminated |= new
        after_naked = int(cand.sum())
        removed["naked single"] += before - after_naked
        count = cand[self.cells].sum(axis=1)
        hidden = once & (count == 1)
        if hidden.any():
            g, k = np.nonzero(hidden)
            cell = self.cells[g, cand[self.cells[g], k[:, None]].argmax(axis=1)]
            forced = np.zeros_like(cand)
            forced[cell, k] = True
            hit = forced.any(axis=1)
            cand[hit] &= forced[hit] & (forced[hit].sum(axis=1) == 1)[:, None]
        after_singles = int(cand.sum())
        removed["hidden single"] += after_naked - after_singles
        if after_singles == before and len(self.inner_group):
            inner = cand[self.cells].sum(axis=1)[self.inner_group]
            pair, k = np.nonzero(once[self.inner_group] & (inner > 0) & (cand[self.inside].sum(axis=1) == inner))
            cand[self.outside[pair].ravel(), np.repeat(k, self.outside.shape[1])] = False
            removed["locked candidates"] += after_singles - int(cand.sum())
        return int(cand.sum()) < before and bool(cand[: self.ncells].any(axis=1).all())

    def consistent(self, cand: np.ndarray, once: np.ndarray) -> bool:
        """No cell without candidate and no required (group, digit) without a place."""
        return bool(cand[: self.ncells].any(axis=1).all()) and not (once & ~cand[self.cells].any(axis=1)).any()


@lru_cache(maxsize=None)
def _subset_table(items: int, size: int) -> np.ndarray:
    """Every ``size``-subset of ``range(items)``, one per row."""
    return np.array(list(combinations(range(items), size)), dtype=np.int64).reshape(-1, size)


def owned_values(table: np.ndarray, largest: int) -> tuple[np.ndarray, np.ndarray]:
    """The subsets of the module docstring in one (items x values) boolean ``table``, as two
    boolean matrices, one row per subset: its items S and its values V, with
    2 <= |S| = |V| <= ``largest`` and every item of S having 2..|S| values, all in V.  A subset
    whose values are fewer than its items comes back with V empty (a contradiction).  Items
    with one value are left out: the singles have removed that value from the others, so a
    subset containing such an item contains a smaller one without it.  Values are bit
    positions, so the table has at most 63 columns."""
    nitems, nvalues = table.shape
    bits = np.int64(1) << np.arange(nvalues, dtype=np.int64)
    masks = (table * bits).sum(axis=1)
    counts = np.bitwise_count(masks)
    members, values = [np.zeros((0, nitems), bool)], [np.zeros((0, nvalues), bool)]
    for size in range(2, largest + 1):
        eligible = np.flatnonzero((counts >= 2) & (counts <= size))
        if len(eligible) < size:
            continue
        chosen = eligible[_subset_table(len(eligible), size)]
        union = np.bitwise_or.reduce(masks[chosen], axis=1)
        hit = np.bitwise_count(union) <= size
        if hit.any():
            member = np.zeros((int(hit.sum()), nitems), bool)
            np.put_along_axis(member, chosen[hit], True, axis=1)
            held = (union[hit, None] & bits) != 0
            held[np.bitwise_count(union[hit]) < size] = False
            members.append(member)
            values.append(held)
    return np.concatenate(members), np.concatenate(values)


def _own(table: np.ndarray, largest: int) -> np.ndarray:
    """``table`` with the values of every subset of :func:`owned_values` removed from the other
    items, and the items of a contradicting subset emptied."""
    member, held = owned_values(table, largest)
    if not len(member):
        return table
    removed = ((~member).T.astype(np.int64) @ held.astype(np.int64)) > 0
    removed[member[~held.any(axis=1)].any(axis=0)] = True
    return table & ~removed


class _SubsetRules:
    """Naked subsets, hidden subsets and fish (module docstring), as one pass over ``cand``."""

    def __init__(self, units: np.ndarray, sum_groups, grid: np.ndarray | None, largest: int):
        self.largest = largest
        self.units = [np.asarray(u) for u in units]
        self.groups = self.units + [np.asarray(g) for g in sum_groups]
        self.grid = None if grid is None else np.asarray(grid)

    def step(self, cand: np.ndarray, removed: dict[str, int]) -> bool:
        """Apply each rule once (in place); whether a candidate went."""
        if self.largest < 2:
            return False
        start = before = int(cand.sum())
        for cells in self.groups:                   # naked: items = cells, values = digits
            cand[cells] = _own(cand[cells], self.largest)
        removed["naked subsets"] += before - (before := int(cand.sum()))
        for cells in self.units:                    # hidden: items = digits, values = cells
            cand[cells] = _own(cand[cells].T, self.largest).T
        removed["hidden subsets"] += before - (before := int(cand.sum()))
        if self.grid is not None:                   # fish: per digit, items = rows, values = columns
            for k in range(cand.shape[1]):
                places = _own(cand[self.grid, k], self.largest)
                cand[self.grid, k] = _own(places.T, self.largest).T
            removed["fish"] += before - int(cand.sum())
        return int(cand.sum()) < start


@lru_cache(maxsize=None)
def _set_layers(digits: int) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """The 2^N digit sets as bitmasks m, in layers L_i of sets of i digits, with for every layer i:

    - ``digits_of[i]``: (|L_i|, N) boolean, digit k+1 in set j;
    - ``down[i]`` (i < N): (N, |L_{i+1}|), for m in L_{i+1} the index in L_i of m - {k+1},
      or |L_i| when k+1 is not in m;
    - ``up[i]`` (i < N): (N, |L_i|), for m in L_i the index in L_{i+1} of m + {k+1},
      or |L_{i+1}| when k+1 is in m;
    - ``layer_sum[i]``: (|L_i|,) the digit sum of each set;

    the out-of-range index points at a padding entry that is always False.
    """
    masks = np.arange(1 << digits)
    bits = 1 << np.arange(digits)
    member = (masks[:, None] & bits[None, :]) != 0
    size = member.sum(axis=1)
    layers = [masks[size == i] for i in range(digits + 1)]
    position = np.zeros(1 << digits, np.int64)
    for layer in layers:
        position[layer] = np.arange(len(layer))
    digits_of = [member[layer] for layer in layers]
    down = [np.where(digits_of[i + 1].T, position[layers[i + 1][None, :] ^ bits[:, None]], len(layers[i]))
            for i in range(digits)]
    up = [np.where(digits_of[i].T, len(layers[i + 1]), position[layers[i][None, :] | bits[:, None]])
          for i in range(digits)]
    return digits_of, down, up, [d @ np.arange(1, digits + 1) for d in digits_of]


def _false_padded(table: np.ndarray) -> np.ndarray:
    """``table`` (groups x sets) with one more column, False: where out-of-range indices point."""
    return np.concatenate([table, np.zeros((len(table), 1), bool)], axis=1)


class _SumGroups:
    """Generalised arc consistency on 'distinct digits summing to V', all groups of one size at once.

    Only groups whose cells changed since the group was last filtered are filtered again.
    """

    def __init__(self, groups: list[np.ndarray], totals: np.ndarray, digits: int):
        self.totals, self.digits = totals, digits
        sizes = np.array([len(g) for g in groups], dtype=np.int64)
        self.slot_cells = np.concatenate(groups) if len(groups) else np.zeros(0, np.int64)
        self.slot_group = np.repeat(np.arange(len(groups)), sizes)
        slots = np.split(np.arange(len(self.slot_cells)), np.cumsum(sizes)[:-1]) if len(groups) else []
        self.by_size = [(index, np.stack([slots[i] for i in index]))
                        for index in (np.flatnonzero(sizes == s) for s in np.unique(sizes))]
        self.seen = np.zeros((len(self.slot_cells), digits), bool)  # what each group's filter left
        self.sets = [np.zeros((0, digits), bool) for _ in groups]
        self.required = np.zeros((len(groups), digits), bool)  # digits in every admissible set

    def filter(self, cand: np.ndarray) -> None:
        """Remove unsupported candidates of the changed groups' cells (in place); update ``sets``
        and ``required``."""
        digits_of, down, up, layer_sum = _set_layers(self.digits)
        changed = (cand[self.slot_cells] != self.seen).any(axis=1)
        dirty = np.bincount(self.slot_group, weights=changed, minlength=len(self.sets)) > 0
        for index, slots in self.by_size:
            keep = dirty[index]
            index, slots = index[keep], slots[keep]
            if not len(index):
                continue
            cells = self.slot_cells[slots]
            c = cand[cells]                                    # (G, s, N)
            reach = np.ones((len(index), 1), bool)
            forward = [reach]
            for i in range(cells.shape[1]):                    # F_{i+1}[m] = OR_{k in m} cand_i[k] and F_i[m - k]
                reach = (_false_padded(reach)[:, down[i]] & c[:, i, :, None]).any(axis=1)
                forward.append(reach)
            size = cells.shape[1]
            done = reach & (layer_sum[size] == self.totals[index][:, None])
            for g, row in zip(index.tolist(), done):
                self.sets[g] = digits_of[size][row]
            self.required[index] = done.any(axis=1)[:, None] & ~(done[:, :, None] & ~digits_of[size]).any(axis=1)
            for i in reversed(range(size)):                    # B_i[m] = F_i[m] and OR_{k not in m} cand_i[k] and B_{i+1}[m + k]
                extend = _false_padded(done)[:, up[i]] & c[:, i, :, None] & forward[i][:, None, :]
                support = extend.any(axis=2)
                np.logical_and.at(cand, cells[:, i], support)  # a cell may sit in two groups
                self.seen[slots[:, i]] = c[:, i] & support
                done = extend.any(axis=1)
