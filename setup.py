"""Build the Cython dancing-links extension (dlx._engine).

Everything else about the package lives in pyproject.toml; this file only
exists because the extension needs NumPy's headers and compiler flags.
"""
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "dlx._engine",
        ["dlx/_engine.pyx"],
        include_dirs=[np.get_include()],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
