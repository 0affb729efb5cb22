"""Which formulations give the same model: identity groups from the runs' model fingerprints.

Every run records the structural hash and the permutation-invariant fingerprint of the model its
solver received (``model_hash``, ``model_fingerprint``: :meth:`puzzlebench.model.Model.identity`).
Two formulations are one *identity group* on an instance set and solver when, among the runs that
built a model, they were run on the same instances and every instance gave both the same single
fingerprint.  The group is *exact* when the hashes agree too (the same arrays, not only the same
model reordered).  Members of a group are never compared with each other: a difference between
them is the machine's noise or the solver's performance variability, not a formulation effect.
Groups are per solver because what a solver reads differs (a CP solver reads the all-different
declarations that MIP solvers ignore).  A group is named by its first registered member: its
formulations are in the order the puzzle's formulations were registered in (the seed model
``binary`` first), names not registered after them by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import pandas as pd

from .outcomes import INSTANCE


def in_registration_order(puzzle: str, names) -> tuple[str, ...]:
    """``names`` in the order of :func:`registration_order`, those not registered after them by name."""
    from puzzlebench.registry import registration_order
    rank = {name: i for i, name in enumerate(registration_order(puzzle))}
    return tuple(sorted(names, key=lambda name: (rank.get(name, len(rank)), name)))


@dataclass(frozen=True)
class IdentityGroup:
    """Formulations (first registered first: :func:`in_registration_order`) that gave one model on
    every instance of ``instance_set`` with ``solver``."""

    puzzle: str
    instance_set: str
    solver: str
    formulations: tuple[str, ...]
    instances: int
    exact: bool


def identity_groups(runs: pd.DataFrame) -> list[IdentityGroup]:
    """The groups of two or more formulations (see the module doc), sorted by set, solver, members."""
    if "model_fingerprint" not in runs or not len(runs):
        return []
    built = runs[runs["model_fingerprint"].fillna("").ne("")]
    groups = []
    for (puzzle, name, solver), part in built.groupby(["puzzle", "instance_set", "solver"], sort=True):
        signature = {}
        for formulation, runs_of in part.groupby("formulation", sort=True):
            per_instance = runs_of.groupby(INSTANCE, sort=True).agg(
                fingerprints=("model_fingerprint", "nunique"), fingerprint=("model_fingerprint", "first"),
                hashes=("model_hash", "nunique"), hash=("model_hash", "first"))
            if (per_instance["fingerprints"] > 1).any():
                continue  # the formulation built different models of one instance: no identity claimed
            key = tuple(zip(per_instance.index, per_instance["fingerprint"]))
            signature.setdefault(key, []).append((formulation, tuple(per_instance["hash"]),
                                                  bool((per_instance["hashes"] == 1).all())))
        for key, members in signature.items():
            if len(members) > 1:
                exact = all(single for _, _, single in members) and len({h for _, h, _ in members}) == 1
                names = in_registration_order(puzzle, [m for m, _, _ in members])
                groups.append(IdentityGroup(puzzle, name, solver, names, len(key), exact))
    return sorted(groups, key=lambda g: (g.puzzle, g.instance_set, g.solver, g.formulations))


class Identities:
    """Look-ups over :func:`identity_groups`."""

    def __init__(self, groups: list[IdentityGroup]):
        self.groups = groups
        self._member = {(g.instance_set, g.solver, f): g for g in groups for f in g.formulations}

    def same(self, instance_set: str, solver: str, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` gave one model on every instance of the set with ``solver``."""
        group = self._member.get((instance_set, solver, a))
        return group is not None and b in group.formulations

    def same_everywhere(self, pairs) -> bool:
        """Whether every (instance_set, solver_a, solver_b, a, b) of ``pairs`` is one model on one solver."""
        return all(sa == sb and self.same(name, sa, a, b) for name, sa, sb, a, b in pairs)

    def by_set(self) -> list[tuple[str, str, tuple[str, ...], tuple[str, ...], bool]]:
        """(puzzle, instance_set, formulations, solvers, exact) of each group, merged over the solvers
        on which it is the same group."""
        merged: dict[tuple, list] = {}
        for g in self.groups:
            entry = merged.setdefault((g.puzzle, g.instance_set, g.formulations), [[], True])
            entry[0].append(g.solver)
            entry[1] = entry[1] and g.exact
        return [(p, s, f, tuple(solvers), exact) for (p, s, f), (solvers, exact) in merged.items()]

    def merged(self, ran: dict[str, set]) -> list[tuple[str, ...]]:
        """Groups of the formulations of ``ran`` (formulation -> the (set, solver) cells it ran on)
        that are one model on every cell where both of a pair ran (and share at least one), each in
        registration order (:func:`in_registration_order`)."""
        names = sorted(ran)
        parent = {name: name for name in names}

        def root(name):
            while parent[name] != name:
                name = parent[name]
            return name

        for a, b in combinations(names, 2):
            cells = ran[a] & ran[b]
            if cells and all(self.same(s, v, a, b) for s, v in cells):
                parent[root(b)] = root(a)
        groups: dict[str, list[str]] = {}
        for name in names:
            groups.setdefault(root(name), []).append(name)
        return [self._ordered(g, ran) for g in groups.values() if len(g) > 1]

    def _ordered(self, names: list[str], ran: dict[str, set]) -> tuple[str, ...]:
        """A merged group in registration order (its puzzle: that of the groups its members are in
        on the cells they ran on)."""
        puzzles = {self._member[(s, v, n)].puzzle for n in names for s, v in ran[n] if (s, v, n) in self._member}
        return in_registration_order(min(puzzles), names)
