"""Essentially different grids: Burnside's lemma over the grid symmetry group.

:mod:`.group` builds the group G of a box shape and its conjugacy classes,
:mod:`.fixed` counts the grids an element fixes up to relabelling by exact
cover, and :mod:`.burnside` turns those counts into the number of
essentially different grids and defines the work units.
"""
