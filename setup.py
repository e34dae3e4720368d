"""The one compiled helper, built where a C compiler is found and left out where none is
(gradcli then joins its lines with pyarrow: see README, Speed). Everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("gradcli.render._lines", ["gradcli/render/_lines.c"], optional=True)])
