"""The workflow stage: a config (or study file) to the grid of jobs the Snakefile runs.

``config`` (the schema check of a config, ``config.schema.yaml`` beside it), ``planner`` (the grid
of jobs, their resources: ``from puzzlebench.workflow.planner import plan, settings``), ``sampling``
(calibration and the stratified sample of a set), ``study`` (a study's results folder) and
``cluster`` (the SLURM profile's checks).
"""
