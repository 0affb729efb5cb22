"""The workflow stage: a config (or study file) to the grid of jobs the Snakefile runs.

``config`` (the schema check of a config, ``config.schema.yaml`` beside it), ``planner`` (the grid
of jobs, their resources), ``sampling`` (calibration and the stratified sample of a set),
``study`` (a study's results folder) and ``cluster`` (the SLURM profile's checks).  The names of
``planner`` are importable from here (``from puzzlebench.workflow import plan, settings``), as
before the stage was a package; they load on first use.
"""

from .._moved import forwarding

__getattr__, __dir__ = forwarding(__name__, ".planner")
