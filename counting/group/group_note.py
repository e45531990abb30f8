"""Which group a count of essentially different grids is under, and what the
kind's full group adds: what ``status`` and ``report`` say of it.

A ``--up-to-symmetry`` count (the ``symmetry`` reduction) counts orbits
under the box shape's group G (a plain kind) or the kind's group H (the
part of G that keeps its rules), times relabelling.  The kind's full group,
the automorphisms of its exact cover (:mod:`.cover_automorphisms`), can be
larger (SudokuP: 4 times, Latin squares: 6 times).  :func:`group_note` sets
the two side by side in words a user can check against
``gridcount classes KIND --group``.

It must never make ``status`` slow or fail:

* the comparison is read from the machine's cache (:mod:`.cover_cache`);
* on a miss it is computed (and kept) only for grids up to
  :data:`COMPUTE_MAX_N` × :data:`COMPUTE_MAX_N` (nauty: under a second),
  else the note says how to compute it once (``classes KIND --group``,
  which keeps it);
* without pynauty it says so in the tool's one line
  (:func:`.cover_automorphisms.nauty_missing`), and a computation that
  fails is said, not raised.

Example
-------
>>> from counting.group.cover_automorphisms import Comparison
>>> from grids.kind import as_kind
>>> c = Comparison(as_kind("3x3+disjoint"), 10_368 * 362_880, 2_592 * 362_880,
...                (("rows", "boxes"),))
>>> for label, text in GroupNote(as_kind("3x3+disjoint"), 2_592 * 362_880, c).rows():
...     print(f"{label}: {text}")
counted under: the kind's group H (the elements of the shape's geometric group that keep its rules) × relabelling, 940,584,960 (2,592 × 9!) (--group grid)
full symmetry group: 3,762,339,840 (10,368 × 9!): automorphisms of the kind's exact cover (nauty), 4× larger: it also maps rows onto boxes; essentially different grids under the full group: count --up-to-symmetry --group full, where it is cells × relabelling (docs/symmetry.md)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from counting.exact_json import exact_map
from counting.group import cover_cache
from counting.group.cover_automorphisms import Comparison, compare, nauty_missing
from grids.kind import GridKind, as_kind

__all__ = ["GroupNote", "group_note", "note_for", "with_factorial", "COMPUTE_MAX_N"]

#: Largest N whose full group a missing cache entry is computed for on the spot.
COMPUTE_MAX_N = 9

#: The Latin-square groups (``--group main-class``, ``isomorphism``, ``loops``) in words;
#: their orders count the symbols' permutations already.
LATIN_SCOPES = {
    "main-class": "paratopy S_N ≀ S_3: rows, columns and symbols each permuted, and their "
                  "roles exchanged (main classes)",
    "isomorphism": "S_N applied to rows, columns and symbols at once (isomorphism classes "
                   "of quasigroups)",
    "loops": "S_N applied to rows, columns and symbols at once, acting on the Latin squares "
             "with an identity element (loops up to isomorphism)",
}


def with_factorial(order: int, n: int) -> str:
    """``"3,762,339,840 (10,368 × 9!)"`` (just the figure when ``n!`` does not divide it).

    >>> with_factorial(1_296, 3), with_factorial(1, 1)
    ('1,296 (216 × 3!)', '1')
    """
    f = math.factorial(n)
    if n > 1 and order % f == 0:
        return f"{order:,} ({order // f:,} × {n}!)"
    return f"{order:,}"


@dataclass(frozen=True)
class GroupNote:
    """The group a count is under beside the kind's full group.

    Attributes
    ----------
    kind : GridKind
    counted_order : int
        The order of the group the count is under, relabelling included
        (``|G|·N!`` or ``|H|·N!``; 1 on the 1×1 grid, whose one option every
        symmetry fixes).
    comparison : Comparison or None
        The kind's full group beside today's (None: see ``why_not``).
    why_not : str or None
        Why there is no comparison.
    """

    kind: GridKind
    counted_order: int
    comparison: Comparison | None
    why_not: str | None = None
    group: str = "grid"            # the --group counted under: "grid", "full" or a key of LATIN_SCOPES

    @property
    def scope(self) -> str:
        if self.group in LATIN_SCOPES:
            return LATIN_SCOPES[self.group]
        if self.group == "full":
            return ("the kind's full group (the automorphisms of its exact cover, nauty: "
                    "cells × relabelling)")
        if self.kind.plain:
            return "the shape's geometric group G × relabelling"
        return ("the kind's group H (the elements of the shape's geometric group that keep "
                "its rules) × relabelling")

    def full_text(self) -> str:
        """What the full group is and adds, in one line."""
        c, n = self.comparison, self.kind.shape.n
        if self.group == "full":
            return self._beside_today()
        if c is None:
            return f"not known here: {self.why_not}"
        head = f"{with_factorial(c.full_order, n)}: automorphisms of the kind's exact cover (nauty)"
        if self.group in LATIN_SCOPES:      # compared with the group counted under, not today's
            if c.full_order == self.counted_order:
                return f"{head}, the same group: the count is under the kind's full group"
            index, rest = divmod(c.full_order, self.counted_order)
            return f"{head}, " + (f"{index:,}× larger" if not rest else "no multiple of it")
        if c.today_order is not None and c.today_order != self.counted_order:
            return (f"{head}; its comparison found today's group of order {c.today_order:,}, "
                    f"not the store's {self.counted_order:,}: one of them is wrong")
        try:
            index = c.index
        except ArithmeticError as e:
            return f"{head}; {e}"
        if index is None:
            return f"{head}; {c.describe()[0]}"
        if index == 1:
            return f"{head}, the same group: the count is under the kind's full group"
        if self.kind.plain and self.kind.shape.latin:    # --group full refuses them
            where = ("Latin squares' main classes (paratopy): count --up-to-symmetry "
                     "--group main-class")
        else:
            where = ("essentially different grids under the full group: count "
                     "--up-to-symmetry --group full, where it is cells × relabelling")
        return f"{head}, {index:,}× larger: " + "; ".join(c.describe()) + f"; {where} " \
            "(docs/symmetry.md)"

    def _beside_today(self) -> str:
        """A count under the full group: how it compares with today's group."""
        c, n, head = self.comparison, self.kind.shape.n, "the group counted under (above)"
        if c is None:
            return head if self.why_not is None else \
                f"{head}; today's group (--group grid) not known here: {self.why_not}"
        if c.full_order != self.counted_order:
            return (f"{head}; its comparison found a full group of order {c.full_order:,}, "
                    f"not the store's {self.counted_order:,}: one of them is wrong")
        try:
            index = c.index
        except ArithmeticError as e:
            return f"{head}; {e}"
        if index is None:
            return f"{head}; today's group (--group grid): {c.describe()[0]}"
        if index == 1:
            return f"{head}, the same as today's group (--group grid): it adds nothing"
        today = with_factorial(c.today_order, n).replace(" (", " = ", 1).rstrip(")")
        return (f"{head}, {index:,}× today's group (--group grid, {today}): "
                + "; ".join(c.describe()))

    def rows(self) -> list[tuple[str, str]]:
        """``(label, text)`` rows for a table."""
        return [("counted under",
                 f"{self.scope}, {with_factorial(self.counted_order, self.kind.shape.n)} "
                 f"(--group {self.group})"),
                ("full symmetry group", self.full_text())]

    def as_json(self) -> dict:
        """Machine-readable: the orders and the index as decimal strings,
        with the integers beside them (``counted_order_int``,
        ``full_order_int``, ``index_int``), as a summary's ``total`` and
        ``total_int`` (:mod:`counting.exact_json`): from 16x16 on they pass
        2^53, which a JSON reader that reads numbers as doubles
        (JavaScript's) rounds; None where not known."""
        c = self.comparison
        index = None
        if c is not None and (c.today_order == self.counted_order
                              or (self.group == "full" and c.full_order == self.counted_order)):
            try:
                index = c.index
            except ArithmeticError:
                index = None
        full = None if c is None else c.full_order
        return {"group": self.group, "counted_under": self.scope,
                **exact_map({"counted_order": self.counted_order, "full_order": full,
                             "index": index}),
                "adds": None if c is None or c.new_pairs is None else c.describe(),
                "full_group_counted": self.group == "full" or (
                    self.group in LATIN_SCOPES and c is not None
                    and c.full_order == self.counted_order),
                "not_known_because": self.why_not}


def group_note(kind, geometric_order: int, root=None, compute=None,
               generators: list | None = None) -> GroupNote:
    """The note of a count of ``kind`` under a geometric group of order
    ``geometric_order`` (× relabelling), from the cache under ``root``
    (see the module docstring); ``compute`` is the comparison to run on a
    miss (None: :func:`~.cover_automorphisms.compare`, given
    ``generators`` of the geometric group when known, so that it is not
    searched again)."""
    kind = as_kind(kind)
    if compute is None and generators is not None:
        def compute(k):
            return compare(k, (geometric_order, list(generators)))
    n = kind.shape.n
    counted = geometric_order * math.factorial(n) if n > 1 else 1
    found = cover_cache.read_cached(kind, root)
    if found is not None:
        return GroupNote(kind, counted, found)
    missing = nauty_missing()
    if missing is not None:
        return GroupNote(kind, counted, None, missing)
    if n > COMPUTE_MAX_N:
        return GroupNote(kind, counted, None,
                         f"not computed yet (nauty takes seconds to minutes on a {kind.side} "
                         f"grid): 'gridcount classes {kind.name} --group' computes it once, "
                         f"and it is shown from then on")
    try:
        return GroupNote(kind, counted, cover_cache.cached_compare(kind, root, compute or compare))
    except (ValueError, ArithmeticError, RuntimeError, MemoryError, OSError) as e:
        # nauty or today's group failing is said, not raised: status goes on
        return GroupNote(kind, counted, None, str(e) or type(e).__name__)


def note_for(reduction, root=None) -> GroupNote | None:
    """The note of a store's reduction: None unless it counts orbits
    (``--up-to-symmetry``: a reduction with ``grid_kind`` and ``group_order``)."""
    if not getattr(reduction, "counts_orbits", False):
        return None
    kind = reduction.grid_kind
    group = getattr(reduction, "group_name", "grid")
    if group in LATIN_SCOPES:      # the full group from today's note (its cache)
        today = group_note(kind, reduction.today_order, root)
        return GroupNote(kind, reduction.group_order, today.comparison, today.why_not, group)
    if group == "full":          # today's group beside it, from the same cache
        n = kind.shape.n
        counted = reduction.group_order * math.factorial(n) if n > 1 else 1
        today = group_note(kind, reduction.group_order, root)    # only its comparison is used
        return GroupNote(kind, counted, today.comparison, today.why_not, "full")
    # a kind with rules: its classes' representatives generate H, which
    # the job has searched already (a plain kind's comparison needs no H)
    reps = None if kind.plain else [c.representative for c in reduction.group.classes]
    return group_note(kind, reduction.group_order, root, generators=reps)
