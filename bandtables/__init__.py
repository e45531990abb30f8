"""Band tables: three bands of ``R`` rows at once (boxes of ``R × 3`` cells).

The public API is :mod:`bandtables.api` (R = 2, 3: dense tables) and
:mod:`bandtables.tables4` (R = 4: the stabiliser chain's tables); both are
built once per machine into the cache of :mod:`bandtables.cache` and
memory-mapped read-only by every process.  :mod:`bandtables.partitions` (box column codes and their
relabelling tables), :mod:`bandtables.tables` (dense classes and l),
:mod:`bandtables.orbits` (classes through a stabiliser chain) and
:mod:`bandtables.estimate` (job sizes) build what they read, and
:mod:`bandtables.symmetry` sums a unit one slice per orbit of a stack's
choices under band 1's symmetries; :mod:`bandtables.kind_tables` carries
the house digits of a kind with one extra house of one cell per box (its
tables and band-1 orbits made once per machine into the cache of
:mod:`bandtables.kind_cache` and mapped; :mod:`bandtables.kind_count` counts all at
once, :mod:`bandtables.kind_search` is the search that checks it); the private
compiled modules are ``_contract`` (the ``nogil`` contraction kernels),
``_rect`` (l of one band), ``_rows4`` (l of a 3-box prefix and every
box-4 code at once) and ``_kinds`` (the kind tables' builder and contraction).
"""
KERNEL_VERSION = "1"  # bumped whenever a table or the kernel could count differently

from bandtables.api import BandTables, band_codes, max_terms_bound

__all__ = ["KERNEL_VERSION", "BandTables", "band_codes", "max_terms_bound"]
