"""Build the Cython extensions: dancing links (dlx._engine) and the
1-factorization kernel (factorization._kernel).

Everything else about the package lives in pyproject.toml; this file only
exists because the extensions need NumPy's headers and compiler flags.
The extension is one compilation unit: _engine.pyx includes the .pxi files
(_build, _memo, _memokey, _tail, _checks, _batch, _enter) and the generated C includes _simd.h; all are
shipped as package data, so sdists and editable installs build alike.
"""
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "dlx._engine",
        ["dlx/_engine.pyx"],
        include_dirs=[np.get_include(), "dlx"],
        depends=["dlx/_engine.pxd", "dlx/_typedefs.pxd", "dlx/_memo.pxi", "dlx/_memokey.pxi",
                 "dlx/_tail.pxi", "dlx/_build.pxi", "dlx/_checks.pxi", "dlx/_batch.pxi",
                 "dlx/_enter.pxi", "dlx/_simd.h"],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
    # The candidate bit-board puzzle solver (grids/puzzles/boards.py validates its inputs).
    Extension(
        "grids.puzzles._boards",
        ["grids/puzzles/_boards.pyx"],
        include_dirs=[np.get_include(), "grids/puzzles"],
        depends=["grids/puzzles/_boards.h", "grids/puzzles/_bands9.h"],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
    # The band-table contraction (bandtables/api.py validates its inputs).
    Extension(
        "bandtables._contract",
        ["bandtables/_contract.pyx"],
        extra_compile_args=["-O3"],
    ),
    # A whole row of 4x3 l values at once (bandtables/tables4.py: prefix_rows). No -mbmi2 or
    # -march: an extension built for one CPU must not fault on another (tests/layout checks).
    Extension(
        "bandtables._rows4",
        ["bandtables/_rows4.pyx"],
        extra_compile_args=["-O3"],
    ),
    # Band tables of a kind with one extra house (bandtables/kind_tables.py validates).
    Extension(
        "bandtables._kinds",
        ["bandtables/_kinds.pyx"],
        extra_compile_args=["-O3"],
    ),
    # l of one band: Latin rectangles with column sets (bandtables/tables.py: band_l).
    Extension(
        "bandtables._rect",
        ["bandtables/_rect.pyx"],
        extra_compile_args=["-O3"],
    ),
    # 1-factorizations of regular bipartite graphs: Latin rectangles counted, not searched.
    Extension(
        "factorization._kernel",
        ["factorization/_kernel.pyx"],
        include_dirs=[np.get_include(), "factorization"],
        depends=["factorization/_canon.pxi", "factorization/_layer_steps.pxi",
                 "factorization/_layer_children.pxi", "factorization/_layer_table.pxi",
                 "factorization/_two_factors.pxi", "factorization/_memo.h"],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
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
