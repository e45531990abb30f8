"""The compiled kernels of the band tables, as public names.

``contract`` and ``contract4`` (the ``nogil`` table contractions of
``_contract.pyx``; ``BATCH4``, the slices ``contract4`` sorts together), ``count_l`` (l of one band, ``_rect.pyx``), and
``rank_rho`` / ``prefix_row`` (a 3-box prefix's l for every box-4 code at
once, ``_rows4.pyx``): the modules that build and read the tables, their
tests and the benchmarks use them through here, so no private compiled
module is imported from outside this package.  Inputs are validated by the
callers (:mod:`bandtables.api`, :mod:`bandtables.tables4`).
"""
from bandtables._contract import BATCH4, contract, contract4
from bandtables._rect import count_l
from bandtables._rows4 import prefix_row, rank_rho

__all__ = ["BATCH4", "contract", "contract4", "count_l", "prefix_row", "rank_rho"]
