"""gradcli's small compiled helper, built where a C compiler is found and left out where none is
(gradcli then reads --points CSV and JSON Lines a line at a time: see README, Speed). Everything else
is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("gradcli.inputs._numbers", ["gradcli/inputs/_numbers.c"], optional=True),  # --points blocks read
])
