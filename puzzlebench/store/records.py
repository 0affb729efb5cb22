"""What one run is in the results: its record (:class:`RunRecord`) and the context a batch gives it
(:class:`RunContext`).  What a solver takes and returns is the solver contract,
:mod:`puzzlebench.solvers.contract`."""

from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass
class RunRecord:
    """One run: instance x formulation x solver x seed, as stored in the results.

    Times are seconds: ``wall_time`` is the solve call seen from outside,
    ``solver_time`` the solver's own figure and ``build_time`` the formulation's
    model building (propagation included); ``conversion_time`` the part of ``build_time`` an adapter
    of a model written elsewhere (PuLP, Pyomo, a model file) took to make the arrays of it, None for
    a formulation that builds its arrays itself.  ``preprocessing_solved`` is True when
    the formulation's own propagation fixed every cell before the solver ran
    (the solver then only confirms the fixed grid), False when it did not, and
    None for formulations without propagation.  ``solver`` is the solver
    configuration's name; ``solver_adapter`` the adapter it runs,
    ``solver_options`` its solver options as JSON text (``{}`` for none) and
    ``solver_kind`` the adapter's kind ("mip", or "cp" for the reference).
    ``root_lp_time`` is when the solver had its first LP relaxation solved, in seconds, as the
    adapter reads it (each adapter's docstring says from where); None for a solve without an LP
    (CP-SAT, SCIP's CP configurations, presolve solving the model) or a solver that does not say.
    ``status`` "skipped" means the run was not made (reason in ``message``).
    ``model_hash`` and ``model_fingerprint`` name the model the solver received (for a lazy loop,
    the first round's; :meth:`~puzzlebench.model.Model.identity`): the hash is equal exactly when the
    arrays are, the fingerprint also for the same model with its rows and columns reordered; the
    ``all_different`` declarations count only for an adapter that reads them.  Empty when no model
    was built.  ``relaxation`` is the formulation's ``@formulation(..., relaxation=True)`` flag, recorded
    with the run so that reading the results needs no formulation code: True for a model that leaves
    out some of the puzzle's rules (the checker rejecting its grid is expected), False otherwise, None
    in rows written before it was recorded (store schema version 4).
    """

    instance: str
    puzzle: str
    formulation: str
    solver: str
    solver_version: str
    seed: int
    threads: int
    time_limit: float
    status: str
    message: str = ""
    wall_time: float | None = None
    solver_time: float | None = None
    build_time: float | None = None
    conversion_time: float | None = None
    nodes: int | None = None
    lp_iterations: int | None = None
    primal_bound: float | None = None
    dual_bound: float | None = None
    rows: int | None = None
    cols: int | None = None
    nonzeros: int | None = None
    presolved_rows: int | None = None
    presolved_cols: int | None = None
    root_solved: bool | None = None
    root_lp_time: float | None = None
    solution: list[list[int]] | None = None
    verified: bool | None = None
    violations: list[str] = field(default_factory=list)
    rounds: int = 1
    preprocessing_solved: bool | None = None
    solver_adapter: str = ""
    solver_options: str = "{}"
    solver_kind: str = ""
    model_hash: str = ""
    model_fingerprint: str = ""
    relaxation: bool | None = None

    def to_dict(self) -> dict:
        """The fields as a dict of plain values (lists copied, so the dict can be edited freely).

        Equal to ``dataclasses.asdict(self)``, without its deep-copy walk over every
        cell of the solution (a tenth of a millisecond per record adds up in a batch).
        """
        row = {name: getattr(self, name) for name in _RUN_FIELDS}
        if self.solution is not None:
            row["solution"] = [list(line) for line in self.solution]
        row["violations"] = list(self.violations)
        return row

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


_RUN_FIELDS = tuple(RunRecord.field_names())


@dataclass
class RunContext:
    """What a batch job adds to each RunRecord: where the puzzle comes from and what it is.

    ``role`` is "run" for the grid's runs and "noise" for the job's reference solves;
    ``size`` is "RxC"; ``permutation`` 0 for the original puzzle, 1.. for its
    symmetry-permuted copies; ``reference_known`` whether the set gives the puzzle's
    reference solution(s), ``reference_match`` whether the run's grid equals one of them
    (None without a grid or a reference).  ``repeat`` numbers the repeats of one (instance,
    formulation, solver, seed), 0..repeats-1; ``job_position`` is the run's place in its job's
    shuffled order (0-based; None for noise references), and ``order_seed`` the seed that
    shuffle was drawn from (:func:`puzzlebench.run.batch.order_seed`).  ``cpu_pressure`` is the share
    of the wall time since the job's previous row during which some task waited for a CPU
    (``/proc/pressure/cpu``, "some"); None where the kernel does not report it."""

    instance_set: str = ""
    role: str = "run"
    size: str = ""
    givens: int | None = None
    permutation: int = 0
    reference_known: bool = False
    reference_match: bool | None = None
    repeat: int = 0
    job_position: int | None = None
    order_seed: int | None = None
    cpu_pressure: float | None = None
