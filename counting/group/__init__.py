"""Essentially different grids: Burnside's lemma over the grid symmetry group.

:mod:`.symmetries` builds the group G of a box shape and its conjugacy
classes, :mod:`.kind_group` the group H of a grid kind with extra rules (the
part of G that keeps them) and its classes, :mod:`.fixed` counts the grids
an element fixes up to relabelling by exact cover, and :mod:`.burnside`
turns those counts into the number of essentially different grids over G or
H alike and defines the work units.  :mod:`.cover_automorphisms` computes
a kind's full symmetry group (the automorphisms of its exact cover, by nauty)
and what it adds to H × relabelling; :mod:`.full_burnside` counts orbits
under it for small kinds.
"""
