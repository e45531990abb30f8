"""Sudoku variants: grid kinds with extra houses, difference rules or regions.

Importing this package registers its constraint factories with
:func:`grids.kind.register_constraints`; :func:`grids.kind.as_kind` imports it
on the first look-up of a constraint name, so ``as_kind("3x3+x")`` works
without importing anything else.  One module per family:

* :mod:`.houses` — extra houses (``x``, ``disjoint``, ``windoku``, ``centre``,
  ``asterisk``, ``girandola``);
* :mod:`.differences` — difference rules (``anti-king``, ``anti-knight``);
* :mod:`.kindfile` — the kind-file format and its parser;
* :mod:`.kindcontent` — a kind file's identity: its normal text, that text's
  digest (the kind's name ``kind-DIGEST``), the kind files known here;
* :mod:`.jigsaw` — the constraint ``@PATH`` of a kind file (regions replacing
  the boxes, houses, pairs);
* :mod:`.encoding` — a kind as exact cover (:func:`variant_exact_cover`);
* :mod:`.implied` — houses the kind's houses imply (added to the encoding);
* the kind's symmetry group is :func:`counting.group.kind_group.kind_group`.

>>> from grids.kind import as_kind
>>> as_kind("3x3+windoku+x").name
'3x3+windoku+x'
"""
from grids.kind import register_constraints
from grids.variants.differences import difference_rule
from grids.variants.houses import house_rule
from grids.variants.jigsaw import kind_file_constraint

register_constraints(house_rule)
register_constraints(difference_rule)
register_constraints(kind_file_constraint)

from grids.variants.encoding import variant_exact_cover, variant_givens  # noqa: E402

__all__ = ["variant_exact_cover", "variant_givens"]
