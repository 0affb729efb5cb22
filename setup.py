"""The package list, found rather than listed: a new folder under puzzlebench/ (a puzzle kind, a
stage) is in the wheel without an edit here; the plug-in folders formulations/ and analysis/ are
mapped into the package by pyproject.toml's [tool.setuptools.package-dir]."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["puzzlebench", "puzzlebench.*"]), "puzzlebench.formulations",
                "puzzlebench.analysis"])
