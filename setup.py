"""gradcli's small compiled helper, built where a C compiler is found and left out where none is
(gradcli then reads --points CSV and JSON Lines a line at a time, and takes its float64 kernels' steps
in NumPy: see README, Speed). Everything else is in pyproject.toml."""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":  # (GCC, Clang) each product and sum rounded on its own: the
            for extension in self.extensions:     # kernels' bits are PyTorch's only where fma() alone fuses
                extension.extra_compile_args = [*extension.extra_compile_args, "-ffp-contract=off"]
        super().build_extensions()


setup(cmdclass={"build_ext": BuildExt}, ext_modules=[
    Extension("gradcli.inputs._numbers", ["gradcli/inputs/_numbers.c"], optional=True),  # --points blocks read,
])                                                                                      # float64 kernels
