"""The compiled 1-factorization kernel as public names: ``Kernel`` (the
counter over canonical forms) and ``key_to_adj`` (a stored canonical key back
to an adjacency), for the tests and the benchmarks; the counting API is
:mod:`factorization.api`."""
from factorization._kernel import Kernel, key_to_adj

__all__ = ["Kernel", "key_to_adj"]
