"""numpy's seldom used submodules loaded when first used, not when scipy is imported.

numpy loads some of its submodules (``numpy.f2py``, ``numpy.testing``, ``numpy.ma``, ...) only
when their name is first read.  scipy (1.15 and later) vendors ``array_api_compat``, whose numpy
namespace reads every public name of numpy (``clone_module``), so importing ``scipy.sparse`` runs all
of them: about 70 ms, a quarter of a one-puzzle ``solve``'s start, for modules a solve never uses.

:func:`defer_submodules` (the model stage calls it before it imports scipy) makes each of
:data:`SUBMODULES` that is not loaded yet a lazy module (:class:`importlib.util.LazyLoader`): the
module object is in ``sys.modules`` and on ``numpy`` as usual, and its code runs at the first use of
one of its attributes, so code that uses it sees the whole module.  Nothing changes for a process
that imported scipy already: numpy's submodules are loaded then.
"""

from __future__ import annotations

import importlib.util
import sys

SUBMODULES = ("f2py", "testing", "ctypeslib", "matlib", "ma", "polynomial")
"""The submodules of numpy loaded lazily: those numpy loads on first use that neither scipy's import nor a
solve uses (scipy's import uses ``numpy.random``)."""


def defer_submodules() -> list[str]:
    """Make each of :data:`SUBMODULES` that numpy has not loaded a lazy module; return their names."""
    import numpy

    deferred = []
    for short in SUBMODULES:
        name = f"numpy.{short}"
        if name in sys.modules or short in vars(numpy):  # loaded already, or not one numpy loads on use
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            continue
        spec.loader = importlib.util.LazyLoader(spec.loader)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        setattr(numpy, short, module)  # as an import would; numpy's own __getattr__ is not asked again
        deferred.append(name)
    return deferred
