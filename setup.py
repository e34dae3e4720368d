"""gradcli's small compiled helper, built where a C compiler is found and left out where none is
(gradcli then does its work with pyarrow: see README, Speed). Everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("gradcli.inputs._numbers", ["gradcli/inputs/_numbers.c"], optional=True),  # JSON Lines' numbers found
])
