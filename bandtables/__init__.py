"""Band tables: three bands of ``R`` rows at once (boxes of ``R × 3`` cells).

The public API is :mod:`bandtables.api`; :mod:`bandtables.partitions` and
:mod:`bandtables.tables` build what it reads, and ``_contract`` is the
private ``nogil`` kernel.
"""
KERNEL_VERSION = "1"  # bumped whenever a table or the kernel could count differently

from bandtables.api import BandTables, band_codes, max_terms_bound

__all__ = ["KERNEL_VERSION", "BandTables", "band_codes", "max_terms_bound"]
