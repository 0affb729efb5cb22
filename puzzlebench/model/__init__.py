"""The model stage: the solver-neutral MILP a formulation builds and every adapter reads.

``arrays`` holds the model (:class:`Model`, its :class:`Rows` and declarations), ``identity``
names a model by what a solver reads of it (hash and fingerprint), ``mps`` writes it as MPS, and
``layers`` reads a model written in PuLP or Pyomo (``from_pulp``, ``from_pyomo``).
The model's names are importable from here (``puzzlebench.model.Model``).
"""

from ..system.lazy_numpy import defer_submodules

defer_submodules()  # before scipy's import reads every name of numpy (puzzlebench.system.lazy_numpy)

from .arrays import (  # noqa: E402 -- after the deferral above
           INF,
           Model,
           ModelStats,
           Product,
           Rows,
           rows_from_triplets,
)
from .identity import DECLARATIONS, ModelIdentity, declaration_kinds, model_identity

__all__ = ["DECLARATIONS", "INF", "Model", "ModelIdentity", "ModelStats", "Product", "Rows",
           "declaration_kinds", "model_identity", "rows_from_triplets"]
