"""The size of a three-band job, computed: codes, choices, terms, classes.

For boxes of ``R`` rows × 3 columns (see :mod:`bandtables.api`) every band-1
class costs the same contraction, ``K^R / 2`` terms, so a job's size is
``classes × K^R / 2`` terms; the seconds per term are measured
(``scripts/bench_patterns3.py``), not assumed here.

The number of classes is exact only where the classes are enumerated
(``R <= 3``, :mod:`bandtables.tables`); beyond, :func:`job_size` gives a
lower bound: no class has more patterns than the moves' group has elements
(relabellings ``N!``, box orders ``R!``, column orders ``(3!)^R``).

Example
-------
>>> s = job_size(3)
>>> s["U"], s["K"], s["terms_per_unit"], s["classes_lower_bound"] <= 44
(280, 56, 87808, True)
"""
from __future__ import annotations

import math

__all__ = ["job_size"]


def job_size(R: int) -> dict:
    """Exact sizes of the ``R × 3`` job (Python ints).

    Returns
    -------
    dict
        ``M`` ordered and ``U`` unordered box codes, ``K`` band-2 choices
        per stack (``Σ_a C(R, a)³``: the digits leaving band 1's column
        ``j`` for column ``j+1`` number ``a`` in every column, see
        :func:`bandtables.partitions.compatible_pairs`), ``terms_per_unit``
        ``K^R``, ``patterns`` ``M^R``, ``group`` the order of the moves'
        group and ``classes_lower_bound`` ``⌈patterns / group⌉``.
    """
    if isinstance(R, bool) or not isinstance(R, int) or R < 1:
        raise ValueError(f"R must be a positive int, got {R!r}")
    N = 3 * R
    M = math.factorial(N) // math.factorial(R) ** 3
    K = sum(math.comb(R, a) ** 3 for a in range(R + 1))
    group = math.factorial(N) * math.factorial(R) * math.factorial(3) ** R
    return {"R": R, "N": N, "M": M, "U": M // 6, "K": K, "terms_per_unit": K ** R // 2,
            "patterns": M ** R, "group": group, "classes_lower_bound": -(-M ** R // group)}
