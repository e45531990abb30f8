"""Sudoku variants: grid kinds with extra houses, difference rules or regions.

The grids package registers :func:`variant_constraint` with
:func:`grids.kind.register_constraints` and imports this package on the
first look-up of a constraint name, so ``as_kind("3x3+x")`` works without
importing anything else, and a process that names no constraint does not
load it.  One module per family:

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
from grids.variants.differences import difference_rule
from grids.variants.encoding import variant_exact_cover, variant_givens
from grids.variants.houses import house_rule
from grids.variants.jigsaw import kind_file_constraint

__all__ = ["variant_constraint", "variant_exact_cover", "variant_givens"]

#: The constraint factories of the variants, in the order they are asked.
FACTORIES = (house_rule, difference_rule, kind_file_constraint)


def variant_constraint(name: str):
    """The constraint called ``name`` by one of :data:`FACTORIES`, or None
    (the factory :func:`grids.variant_constraint` registers with
    :func:`grids.kind.register_constraints`)."""
    for factory in FACTORIES:
        c = factory(name)
        if c is not None:
            return c
    return None
