"""Formulations: one module per puzzle family; each function registered with ``@formulation``."""

from puzzlebench._tree import check_plugin_folder

check_plugin_folder(__name__, __file__)
