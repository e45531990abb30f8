"""What a reduction's numbers are called where people read them.

The reductions (:mod:`counting.reduction`) hold only mathematics; the words
the command line, the summary and the report print for a reduction's
members, sums, classes and total live here, one :class:`Labels` value per
reduction kind (:func:`labels_of`); a run's log names each class through
:class:`ClassWords` (from :meth:`counting.reduction.base.Reduction.class_words`:
``class   N`` and :attr:`Labels.count_noun`, but for the layer method, whose
"classes" are transitions counting two different quantities).

Example
-------
>>> labels_of("moves").total_label, labels_of("symmetry").total_label
('grids', 'essentially different grids')
"""
from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["Labels", "labels_of", "ClassWords", "LAYER_STAGE_SUMS", "LAYER_GRIDS"]


@dataclass(frozen=True)
class Labels:
    """The printed names of one reduction's quantities.

    Attributes
    ----------
    members : str
        What a class's weight counts (``gridcount classes``).
    sum_label : str
        How the weighted sum is printed beside the factors.
    term_label : str
        A class's part of that sum (the report's class table).
    count_noun : str
        What a unit's count counts (the class log of a run).
    representative_label : str or None
        What ``gridcount classes`` calls a representative (None: its rows).
    total_label : str
        What the total counts, after the shape: ``"3x3 grids"``.
    class_table_title, weight_label, class_count_label : str
        The report's class table: its title and its heads for a class's
        weight and for the sum of its units' counts.
    weight_meaning : str or None
        What a class's weight is, in the report's unit-counts caption
        (None: ``members`` per class; :attr:`weight_means`).
    unit_sum_label : str or None
        The run table's row of the units' counts added up unweighted (None:
        no such row, where the counts of different units are different
        quantities and their sum means nothing: the layer method's stage
        sums and its last unit's Σ m·ℓ·F²).
    fixed_label : str
        The head of the Burnside table's column of what a class fixes
        (``gridcount count --up-to-symmetry``).
    """

    members: str = "reduced bands"
    sum_label: str = "Σ class weight × Σ unit counts"
    term_label: str = "weight × Σ"
    count_noun: str = "completions"
    representative_label: str | None = None
    total_label: str = "grids"
    class_table_title: str = "Classes"
    weight_label: str = "weight"
    class_count_label: str = "Σ unit counts"
    weight_meaning: str | None = None
    unit_sum_label: str | None = "unit solutions (unweighted)"
    fixed_label: str = "A (fixed, box 1 standard)"

    @property
    def weight_means(self) -> str:
        """What a class's weight is: :attr:`weight_meaning`, or ``members`` per class."""
        return self.weight_meaning or f"{self.members} per class"


@dataclass(frozen=True)
class ClassWords:
    """How a run's log says that one class is complete (:meth:`complete_line`).

    Attributes
    ----------
    name : str
        What the line calls the class: ``"class   7"``, ``"rows 1 -> 2"``.
    noun : str
        What the class's count counts, printed after it ("": nothing).
    note : str or None
        What that count is, printed before the weight in the brackets.

    Example
    -------
    >>> ClassWords("class   3", "completions").complete_line(1, 1234, 2)
    'class   3 complete: 1,234 completions (weight 2)'
    >>> ClassWords("rows 1 -> 2", "", "Σ T").complete_line(4, 8700, 0)
    'rows 1 -> 2 complete: Σ over 4 units = 8,700 (Σ T; weight 0)'
    """

    name: str
    noun: str
    note: str | None = None

    def complete_line(self, n_units: int, count: int, weight: int) -> str:
        """The line: the class's ``count`` (over ``n_units`` units) and its ``weight``."""
        over = f"Σ over {n_units:,} units = " if n_units > 1 else ""
        noun = f" {self.noun}" if self.noun else ""
        note = f"{self.note}; " if self.note else ""
        return f"{self.name} complete: {over}{count:,}{noun} ({note}weight {weight:,})"


#: What a unit of the layer method counts: a stage's records, or (the last
#: transition) the grids, as ``Σ m·ℓ·F²`` (:mod:`counting.reduction.layers`)
LAYER_STAGE_SUMS = "Σ T_{L+1}: the next layer's sums"
LAYER_GRIDS = "Σ m·ℓ·F²"

_LATIN = Labels(members="Latin rectangles with row 1 in order")

_LABELS = {
    "cycles": _LATIN,
    # a unit is a d-regular graph; its weight, how often the unfolded recurrence
    # F_d(G) = d · Σ_{M ∋ e} F_{d-1}(G - M) reaches it, times the degrees d on the way
    "factor": Labels(members="recurrence paths × degree factors",
                     count_noun="ordered 1-factorizations of the class's graph",
                     representative_label="symbols each column may still take",
                     weight_meaning="how often the 1-factorization recurrence reaches the "
                                    "class's graph, times the degree factors on the way"),
    "cycles2": _LATIN,
    "patterns2": Labels(members="column-set patterns", sum_label="Σ class size × unit count²",
                        term_label="weight × count²",
                        representative_label="column sets of band 1",
                        count_noun="rectangles with column 1 increasing"),
    "prefix": Labels(members="normal prefix fillings", sum_label="Σ orbit size × completions",
                     term_label="orbit size × count",
                     representative_label="representative: the prefix cells in order"),
    "kind-tables": Labels(members="units (ranges of band-1 orbits)",
                          sum_label="Σ units' Σ multiplicity × completions",
                          term_label="Σ mult × completions",
                          count_noun="band-1 fillings × completions, over the unit's orbits",
                          representative_label="first orbit's band-1 column sets, house digits",
                          weight_meaning="1: a unit's count is already weighted by its orbits"),
    "layers": Labels(members="transitions (1: the last, 0: a stage)",
                     sum_label="last unit's Σ m·ℓ·F² (stages weigh 0)",
                     term_label="weight × Σ",
                     count_noun=f"{LAYER_STAGE_SUMS} (the last unit: {LAYER_GRIDS})",
                     representative_label="transition: rows L -> L+1",
                     class_table_title="Transitions (classes) of the layer method",
                     weight_meaning="1 for the last transition, whose count is the grids; "
                                    "0 for a stage, whose records the next units read",
                     unit_sum_label=None),
    "symmetry": Labels(members="group elements", sum_label="Σ class size × A",
                       term_label="size × A", count_noun="grids fixed up to relabelling",
                       representative_label="representative g: rows / columns (1-based)",
                       total_label="essentially different grids",
                       class_table_title="Burnside table: classes of the symmetry group that "
                                         "fix some grid",
                       weight_label="size", class_count_label="A (Σ over relabelling types)"),
}
# Burnside's sum under the kind's full group (--group full): the same words
# but the representative, a cell permutation
_LABELS["symmetry-full"] = replace(
    _LABELS["symmetry"], representative_label="representative: cell images (1-based)",
    class_table_title="Burnside table: classes of the kind's full group that fix some grid")

# The Latin-square groups (--group main-class, isomorphism): a unit's count is
# Fix(g), every square g maps onto itself (the identity's: with row 1 in order)
for _name, _classes in (("symmetry-main-class", "main classes"),
                        ("symmetry-isomorphism", "isomorphism classes")):
    _LABELS[_name] = replace(
        _LABELS["symmetry"], sum_label="Σ class size × Fix", term_label="size × Fix",
        count_noun="Latin squares fixed", total_label=_classes,
        representative_label="representative (a1, a2, a3; δ), 1-based",
        class_table_title="Burnside table: classes of the group that fix some square",
        class_count_label="Fix (squares fixed)", fixed_label="Fix (squares fixed)",
        weight_label="weight", weight_meaning="the class size; N! for the identity, whose "
                                              "count is the squares with row 1 in order")
# Loops up to isomorphism (--group loops): a unit's count is the loops of one
# identity element e that g fixes; its weight the class size × g's fixed points
_LABELS["symmetry-loops"] = replace(
    _LABELS["symmetry-isomorphism"], count_noun="loops fixed (one identity element)",
    total_label="loops up to isomorphism",
    class_table_title="Burnside table: classes of S_N that fix some loop",
    class_count_label="Fix (loops fixed)", fixed_label="Fix (loops fixed)",
    weight_meaning="the class size × the fixed points of its elements (each a possible "
                   "identity element), whose count is the loops of one identity element fixed")


def labels_of(reduction) -> Labels:
    """The labels of a reduction (object or kind)."""
    kind = reduction if isinstance(reduction, str) else reduction.kind
    return _LABELS.get(kind, Labels())
