"""Which formulations are one model (analysis/identity_groups.py): the identity groups from the runs'
fingerprints and hashes, the look-ups over them, and the order that names a group."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from puzzlebench import registry
from puzzlebench.analysis.identity_groups import Identities, IdentityGroup, identity_groups, in_registration_order
from puzzlebench.registry import registration_order

COLUMNS = ["puzzle", "instance_set", "instance", "permutation", "solver", "formulation", "model_fingerprint",
           "model_hash"]


def row(formulation: str, instance: str, fingerprint, model_hash=None, *, puzzle: str = "sudoku",
        instance_set: str = "sudoku/s", solver: str = "highs", permutation: int = 0) -> dict:
    return {"puzzle": puzzle, "instance_set": instance_set, "instance": instance, "permutation": permutation,
            "solver": solver, "formulation": formulation, "model_fingerprint": fingerprint,
            "model_hash": fingerprint.upper() if model_hash is None and isinstance(fingerprint, str) else model_hash}


def runs(*rows) -> pd.DataFrame:
    return pd.DataFrame(list(rows), columns=COLUMNS)


def same_models(names, instances=("i1", "i2"), **where) -> list[dict]:
    """Runs in which every one of ``names`` built the one model ``f<instance>`` of each instance."""
    return [row(name, i, f"f{i}", **where) for name in names for i in instances]


def group(formulations, *, instances: int = 2, exact: bool = True, puzzle: str = "sudoku",
          instance_set: str = "sudoku/s", solver: str = "highs") -> IdentityGroup:
    return IdentityGroup(puzzle, instance_set, solver, tuple(formulations), instances, exact)


# --- identity_groups ---------------------------------------------------------------------------


def test_no_runs_or_no_fingerprints_no_groups():
    assert identity_groups(runs()) == []
    assert identity_groups(pd.DataFrame(same_models(["x", "y"])).drop(columns="model_fingerprint")) == []


def test_same_fingerprints_on_every_instance_are_a_group_exact_when_the_hashes_agree():
    assert identity_groups(runs(*same_models(["x", "y"]))) == [group(["x", "y"])]
    reordered = runs(*same_models(["x"]), row("y", "i1", "fi1", "other"), row("y", "i2", "fi2"))
    assert identity_groups(reordered) == [group(["x", "y"], exact=False)]


def test_a_formulation_with_two_hashes_of_one_instance_is_not_exact():
    # its first hash agrees with the others': the group is still not exact
    rows = runs(*same_models(["x", "y"]), row("y", "i1", "fi1", "FI1-again"))
    assert identity_groups(rows) == [group(["x", "y"], exact=False)]
    repeated = runs(*same_models(["x", "y"]), *same_models(["y"]))
    assert identity_groups(repeated) == [group(["x", "y"])]


@pytest.mark.parametrize("bad", ["a", "m", "z"])
def test_a_formulation_that_built_two_models_of_one_instance_never_joins(bad):
    # it matches the others on every instance with its first fingerprint, and on i2 entirely
    rows = runs(*same_models(["b", "n", bad]), row(bad, "i1", "another"))
    assert identity_groups(rows) == [group(["b", "n"])]
    assert identity_groups(runs(*same_models([bad, "b"]), row(bad, "i1", "another"))) == []


def test_different_instance_coverage_is_no_group():
    rows = runs(*same_models(["x", "y"], instances=("i1", "i2")), *same_models(["z"], instances=("i1",)))
    assert identity_groups(rows) == [group(["x", "y"])]
    other_instance = runs(*same_models(["x"], instances=("i1", "i2")), *same_models(["y"], instances=("i1", "i3")))
    assert identity_groups(other_instance) == []


def test_the_order_of_the_runs_does_not_matter():
    rows = runs(row("x", "i1", "a"), row("x", "i2", "b"), row("x", "i3", "c"),
                row("y", "i3", "c"), row("y", "i1", "a"), row("y", "i2", "b"))
    assert identity_groups(rows) == [group(["x", "y"], instances=3)]
    assert identity_groups(rows.iloc[::-1]) == [group(["x", "y"], instances=3)]


def test_one_fingerprint_on_different_instances_is_no_group():
    # the same model of another instance (e.g. two empty grids) is not the same coverage
    rows = runs(row("x", "i1", "a"), row("x", "i2", "a"), row("y", "i1", "a"), row("y", "i3", "a"))
    assert identity_groups(rows) == []


def test_a_permutation_is_another_instance():
    rows = runs(row("x", "i1", "a"), row("x", "i1", "b", permutation=1),
                row("y", "i1", "a"), row("y", "i1", "b", permutation=1))
    assert identity_groups(rows) == [group(["x", "y"])]


def test_runs_that_built_no_model_are_left_out():
    rows = runs(*same_models(["x", "y"]), row("x", "i3", ""), row("y", "i4", np.nan, np.nan))
    assert identity_groups(rows) == [group(["x", "y"])]


def test_one_different_fingerprint_is_no_group():
    rows = runs(*same_models(["x"]), row("y", "i1", "fi1"), row("y", "i2", "other"))
    assert identity_groups(rows) == []


def test_groups_are_per_puzzle_set_and_solver_and_sorted():
    rows = runs(
        *same_models(["y", "x"], solver="highs"),
        *same_models(["x"], solver="cpsat"), row("y", "i1", "fi1", solver="cpsat"), row("y", "i2", "z", solver="cpsat"),
        *same_models(["x", "y", "w"], instances=("i1", "i2", "i3"), instance_set="sudoku/a", solver="scip"),
        *same_models(["y", "x"], instance_set="sudoku/a", solver="cbc"),
        *same_models(["u", "v"], puzzle="kakuro", instance_set="kakuro/k"),
        *same_models(["q", "r"], instances=("i1",), instance_set="sudoku/s", solver="cbc"),
        *same_models(["s", "t"], instances=("i9",), instance_set="sudoku/s", solver="cbc"),
    )
    assert identity_groups(rows) == [
        group(["u", "v"], puzzle="kakuro", instance_set="kakuro/k"),
        group(["x", "y"], instance_set="sudoku/a", solver="cbc"),
        group(["w", "x", "y"], instances=3, instance_set="sudoku/a", solver="scip"),
        group(["q", "r"], instances=1, solver="cbc"),
        group(["s", "t"], instances=1, solver="cbc"),
        group(["x", "y"]),
    ]


def test_two_groups_on_one_cell():
    rows = runs(*same_models(["a", "b"]), *[row(n, i, f"g{i}") for n in ("c", "d") for i in ("i1", "i2")],
                *[row(n, i, f"g{i}", f"h{n}") for n in ("e",) for i in ("i1", "i2")])
    assert identity_groups(rows) == [group(["a", "b"]), group(["c", "d", "e"], exact=False)]


# --- the order that names a group ----------------------------------------------------------------


def test_registration_order_is_the_order_formulations_registered_in():
    registry.formulations()
    registered = [name for puzzle, name in registry._FORMULATIONS if puzzle == "sudoku"]
    assert registration_order("sudoku") == registered and registered[0] == "binary"
    assert registration_order("sudoku")[:3] == ["binary", "binary-symbreak", "binary-reduced"]
    assert registration_order("no-such-puzzle") == []


def test_registered_names_first_in_registration_order_then_the_others_by_name():
    assert in_registration_order("sudoku", ["zeta", "binary-reduced", "alpha", "binary", "binary-symbreak"]) == (
        "binary", "binary-symbreak", "binary-reduced", "alpha", "zeta")
    assert in_registration_order("no-such-puzzle", ["b", "a", "c"]) == ("a", "b", "c")
    assert in_registration_order("sudoku", []) == ()


def test_a_group_is_named_by_its_first_registered_member():
    rows = runs(*same_models(["aardvark", "binary", "binary-reduced", "binary-symbreak"]))
    assert identity_groups(rows) == [group(["binary", "binary-symbreak", "binary-reduced", "aardvark"])]
    kakuro = runs(*same_models(["aa", "combinations", "binary"], puzzle="kakuro", instance_set="kakuro/k"))
    assert identity_groups(kakuro)[0].formulations == ("binary", "combinations", "aa")


def test_merged_groups_are_in_registration_order():
    groups = [group(["binary-symbreak", "binary-reduced"]),
              group(["binary", "combinations"], puzzle="kakuro", instance_set="kakuro/k")]
    ids = Identities(groups)
    assert ids.merged({"binary-reduced": {("sudoku/s", "highs")}, "binary-symbreak": {("sudoku/s", "highs")}}) == [
        ("binary-symbreak", "binary-reduced")]
    assert ids.merged({"combinations": {("kakuro/k", "highs")}, "binary": {("kakuro/k", "highs")}}) == [
        ("binary", "combinations")]


# --- the look-ups -------------------------------------------------------------------------------


def lookups() -> Identities:
    return Identities([group(["a", "b", "c"]), group(["a", "b"], solver="cpsat"), group(["d", "e"], solver="cpsat"),
                       group(["a", "b"], instance_set="sudoku/t", exact=False),
                       group(["b", "c"], instance_set="sudoku/u")])


def test_same_is_membership_of_one_group_on_the_set_and_solver():
    ids = lookups()
    assert ids.same("sudoku/s", "highs", "a", "b") and ids.same("sudoku/s", "highs", "c", "a")
    assert ids.same("sudoku/s", "cpsat", "b", "a") and not ids.same("sudoku/s", "cpsat", "a", "c")
    assert not ids.same("sudoku/s", "cpsat", "a", "d") and not ids.same("sudoku/s", "cpsat", "d", "a")
    assert not ids.same("sudoku/t", "highs", "a", "c") and not ids.same("sudoku/x", "highs", "a", "b")
    assert not ids.same("sudoku/s", "scip", "a", "b") and not ids.same("sudoku/s", "highs", "z", "a")
    assert ids.groups == lookups().groups


def test_same_everywhere_needs_one_solver_and_one_model_on_every_set():
    ids = lookups()
    assert ids.same_everywhere([("sudoku/s", "highs", "highs", "a", "b"), ("sudoku/t", "highs", "highs", "a", "b")])
    assert ids.same_everywhere([])
    assert not ids.same_everywhere([("sudoku/s", "highs", "cpsat", "a", "b")])
    assert not ids.same_everywhere([("sudoku/s", "highs", "highs", "a", "b"), ("sudoku/u", "highs", "highs", "a", "b")])
    assert not ids.same_everywhere([("sudoku/u", "highs", "highs", "a", "b"), ("sudoku/s", "highs", "highs", "a", "b")])
    assert ids.same_everywhere(iter([("sudoku/s", "cpsat", "cpsat", "b", "a")]))


def test_by_set_merges_a_group_over_its_solvers_exact_only_if_each_is():
    ids = Identities([group(["a", "b"]), group(["a", "b"], solver="cpsat"),
                      group(["a", "b"], solver="scip", exact=False), group(["a", "b"], instance_set="sudoku/t"),
                      group(["a", "b", "c"], solver="cbc"),
                      group(["a", "b"], instance_set="sudoku/t", solver="cpsat"),
                      group(["a", "b"], puzzle="kakuro", instance_set="sudoku/t", solver="cpsat", exact=False)])
    assert ids.by_set() == [("sudoku", "sudoku/s", ("a", "b"), ("highs", "cpsat", "scip"), False),
                            ("sudoku", "sudoku/t", ("a", "b"), ("highs", "cpsat"), True),
                            ("sudoku", "sudoku/s", ("a", "b", "c"), ("cbc",), True),
                            ("kakuro", "sudoku/t", ("a", "b"), ("cpsat",), False)]
    assert Identities([group(["a", "b"], exact=False), group(["a", "b"], solver="x")]).by_set() == [
        ("sudoku", "sudoku/s", ("a", "b"), ("highs", "x"), False)]
    assert Identities([]).by_set() == []


def test_merged_joins_formulations_one_model_on_every_shared_cell():
    ids = lookups()
    s, t, u = ("sudoku/s", "highs"), ("sudoku/t", "highs"), ("sudoku/u", "highs")
    # a and b are one model on s and t; c joins a on s
    assert ids.merged({"a": {s, t}, "b": {s, t}, "c": {s}}) == [("a", "b", "c")]
    # on u, a and c did not run together, but b and c are one model there: a and c never share a cell
    assert ids.merged({"a": {s}, "b": {s, u}, "c": {u}}) == [("a", "b", "c")]
    # on t only a and b are one model
    assert ids.merged({"a": {t}, "c": {t}}) == []
    assert ids.merged({"b": {s, u}, "c": {s, u}, "z": {s}}) == [("b", "c")]
    # one shared cell where they differ is enough to keep two formulations apart
    assert ids.merged({"a": {s, t}, "c": {s, t}}) == []
    # no shared cell: nothing says they are one model
    assert ids.merged({"a": {s}, "b": {t}}) == []
    assert ids.merged({}) == [] and ids.merged({"a": {s}}) == []


def test_merged_finds_every_group_and_chains_through_members():
    ids = Identities([group(["a", "b"]), group(["c", "d"]), group(["b", "e"], solver="cpsat"),
                      group(["e", "f"], solver="scip")])
    s, p, q = ("sudoku/s", "highs"), ("sudoku/s", "cpsat"), ("sudoku/s", "scip")
    assert ids.merged({"a": {s}, "b": {s, p}, "c": {s}, "d": {s}, "e": {p, q}, "f": {q}}) == [
        ("a", "b", "e", "f"), ("c", "d")]
    assert ids.merged({"f": {q}, "e": {p, q}, "b": {s, p}, "a": {s}}) == [("a", "b", "e", "f")]
