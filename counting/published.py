"""Published grid totals, each with its source: what ``gridcount verify`` compares against.

This module is the only place outside the tests where a grid total is written
down.  Nothing that *computes* a count imports it: the reductions, the pool and
the job library never read it, and :mod:`counting.verify` only puts these
values beside the computed ones (a test checks that the counting modules do
not import this one).

A shape ``RxC`` and its transpose ``CxR`` have the same total (transposing a
grid maps one set onto the other), so each value is stored once, under the
spelling with ``R <= C``, and :func:`lookup` answers for both.  ``1xN`` and
``Nx1`` are the Latin squares of order N.

Sources
-------
``OEIS A002860``
    Number of Latin squares of order n: 1, 2, 12, 576, 161280, 812851200,
    61479419904000, 108776032459082956800, 5524751496156892842531225600, …
    (https://oeis.org/A002860).  Consistent with OEIS A000315 (reduced Latin
    squares, 1, 1, 1, 4, 56, 9408, 16942080, 535281401856,
    377597570964258816, …) through L(n) = n!·(n-1)!·A000315(n).
``OEIS A107739``
    Number of Sudoku grids of size n² × n²: 1, 1, 288,
    6670903752021072936960 (https://oeis.org/A107739); the 9×9 value is
    Felgenhauer & Jarvis, "Mathematics of Sudoku I" (2005/2006).
2×3, 2×4, 2×5 and 2×6
    The rectangular-box totals 28,200,960 (2×3) and
    29,136,487,207,403,520 (2×4) are the values quoted in issue 5, 2×5 and
    2×6 those quoted in issue 16 (2×6's sources now: below); they are
    the ones listed in the table of rectangular-box counts of Wikipedia's
    "Mathematics of Sudoku" (2×3 attributed to Pettersen, 2×4 to Russell),
    see also Russell & Jarvis, "Mathematics of Sudoku II" (2006).  [Not
    confirmed from a primary source with this project's search tools: no
    OEIS entry for the total number of 2×n grids was found (OEIS A291188
    counts *inequivalent* 2×n grids, a different number).]
2×6 (``Pettersen 2006; linche89/sudoku-enumeration 2026``)
    Kjell Fredrik Pettersen announced the 2×6 total on the New Sudoku
    Players' Forum on 2006-11-14 ("6x2 counting",
    https://forum.enjoysudoku.com/6x2-counting-t4835.html#p37761: 63,199
    band classes, a weighted sum of squares, about 4-5 weeks); the GitHub
    repository linche89/sudoku-enumeration reproduced it in 2026 (its
    README's table of verified results, the computation completed on
    2026-09-07, with downloadable class tables).  Both were read here
    through the project's search tools (the repository's README and its
    notes quoting the forum announcement), so this value is confirmed from
    a published reproduction, not only from Wikipedia.
``OEIS A109741``, ``OEIS A291188`` (essentially different grids)
    Inequivalent n²×n² grids: 1, 1, 2, 5472730538 (https://oeis.org/A109741;
    the 9×9 value is Russell & Jarvis, "Mathematics of Sudoku II", 2006), and
    inequivalent 2×n grids for n = 2..5: 2, 49, 1673187, 4743933602050718
    (https://oeis.org/A291188).  Both count grids up to relabelling, band,
    stack, row-in-band and column-in-stack permutations and (square boxes)
    transposition: the group of :mod:`counting.group.symmetries`.
``OEIS A040082`` (essentially different Latin squares)
    Isotopy classes of Latin squares of order n (row, column and symbol
    permutations): 1, 1, 1, 2, 2, 22, 564, 1676267, 115618721533, …
    (https://oeis.org/A040082); for ``1xN`` the group above is exactly the
    row and column permutations.

Essentially different SudokuP and Windoku grids under their full groups (``FULL_GROUP``)
    53,666,689 SudokuP grids under 10,368 × 9! symmetries (enjoysudoku
    forum, "SudokuP – Analysis", 2018) and 68,239,994 Windoku grids under
    256 × 9! (Bastian Michel, "Mathematics of NRC-Sudoku", Utrecht 2007):
    what :mod:`counting.group.split_burnside` counts, not ``--up-to-symmetry``.
``OEIS A003090``, ``OEIS A057991`` (Latin-square classes, ``LATIN_CLASSES``)
    Main classes of Latin squares (paratopy: rows, columns and symbols may
    exchange roles): 1, 1, 1, 2, 2, 12, 147, 283657, 19270853541,
    34817397894749939 (https://oeis.org/A003090); isomorphism classes of
    quasigroups (one permutation on rows, columns and symbols): 1, 1, 5, 35,
    1411, 1130531, 12198455835, 2697818331680661, 15224734061438247321497
    (https://oeis.org/A057991).  What :mod:`counting.group.latin_classes`
    counts (``scripts/count_latin_classes.py``).
``OEIS A057771`` (loops, ``LATIN_CLASSES``)
    Loops (quasigroups with a two-sided identity element) up to isomorphism:
    1, 1, 1, 2, 6, 109, 23746, 106228849, 9365022303540,
    20890436195945769617 (https://oeis.org/A057771; the same values in
    P. Jipsen's Mathematical Structures page on loops).  What
    :mod:`counting.group.loop_classes` counts (``--group loops``).
``OEIS A274171``, ``OEIS A274806`` (diagonal Latin squares, ``VARIANTS``)
    Diagonal Latin squares of order n with the first row in order: 1, 0, 0,
    2, 8, 128, 171200, 7447587840, 5056994653507584
    (https://oeis.org/A274171), times n! for all of them; A274806 lists all
    of them, 1, 0, 0, 48, 960, 92160, 862848000, 300286741708800,
    1835082219864832081920 (https://oeis.org/A274806), order 9 counted by
    volunteer computing.
Latin rectangles (``k × n``, what ``gridcount count 1xN --rows K`` counts)
    Each sequence is published normalised; the factor that makes it the
    number of all ``k × n`` Latin rectangles is the sequence's own
    definition (Stones, "The many formulas for the number of Latin
    rectangles", Electron. J. Combin. 17 (2010) A1: ``L(k,n) = n!·N(k,n) =
    n!·(n−1)!/(n−k)!·R(k,n)``).
    ``OEIS A000166`` derangements of n: 1, 0, 1, 2, 9, 44, 265, 1854, 14833,
    133496, 1334961 (https://oeis.org/A000166); ``L(2,n) = n!·D(n)``.
    ``OEIS A001623`` 3 × n reduced Latin rectangles, n = 3..10: 1, 4, 46,
    1064, 35792, 1673792, 103443808, 8154999232 (https://oeis.org/A001623);
    ``L(3,n) = n!·(n−1)!/(n−3)!·R``.
    ``OEIS A003170`` 4 × n Latin rectangles with the first row in order,
    n = 4..10: 24, 1344, 393120, 155185920, 88390995840, 69761852246016,
    74175958614030336 (https://oeis.org/A003170); ``L(4,n) = n!·N``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from grids.shape import Shape

__all__ = ["Published", "PUBLISHED", "ESSENTIALLY_DIFFERENT", "VARIANTS", "FULL_GROUP", "LATIN_CLASSES",
           "LATIN_GROUP_CLASSES", "lookup",
           "Rectangles", "RECTANGLES"]


@dataclass(frozen=True)
class Published:
    """One published total.

    Attributes
    ----------
    shape : str
        Box shape ``"RxC"`` with ``R <= C`` (the transpose has the same total).
    total : int
        The published number of grids, exact.
    source : str
        Short citation (paper or OEIS sequence), shown by ``gridcount verify``.
    """

    shape: str
    total: int
    source: str


_LATIN = "OEIS A002860"
_UNCONFIRMED = " (unconfirmed here)"  # see "2×3 and 2×4" in the module docstring

PUBLISHED: dict[str, Published] = {p.shape: p for p in (
    # Latin squares of order n (shapes 1xn and nx1)
    Published("1x1", 1, _LATIN),
    Published("1x2", 2, _LATIN),
    Published("1x3", 12, _LATIN),
    Published("1x4", 576, _LATIN),
    Published("1x5", 161_280, _LATIN),
    Published("1x6", 812_851_200, _LATIN),
    Published("1x7", 61_479_419_904_000, _LATIN),
    Published("1x8", 108_776_032_459_082_956_800, _LATIN),
    Published("1x9", 5_524_751_496_156_892_842_531_225_600, _LATIN),
    Published("1x10", 9_982_437_658_213_039_871_725_064_756_920_320_000, _LATIN),
    Published("1x11", 776_966_836_171_770_144_107_444_346_734_230_682_311_065_600_000, _LATIN),
    # Sudoku with boxes of R x C cells
    Published("2x2", 288, "OEIS A107739"),
    Published("2x3", 28_200_960, "Pettersen, via Wikipedia" + _UNCONFIRMED),
    Published("2x4", 29_136_487_207_403_520, "Russell, via Wikipedia" + _UNCONFIRMED),
    Published("2x5", 1_903_816_047_972_624_930_994_913_280_000,
              "Pettersen & Russell, via Wikipedia" + _UNCONFIRMED),
    Published("2x6", 38_296_278_920_738_107_863_746_324_732_012_492_486_187_417_600_000,
              "Pettersen 2006; linche89/sudoku-enumeration 2026"),
    Published("3x3", 6_670_903_752_021_072_936_960,
              "Felgenhauer & Jarvis 2005; OEIS A107739"),
)}


# Essentially different grids: orbits under the grid symmetry group and
# relabelling (what `gridcount count SHAPE --up-to-symmetry` computes).
_A291188 = "OEIS A291188"    # inequivalent 2 x n grids: 2, 49, 1673187, 4743933602050718
_A040082 = "OEIS A040082"    # isotopy classes of Latin squares: 1, 1, 1, 2, 2, 22, 564, ...
ESSENTIALLY_DIFFERENT: dict[str, Published] = {p.shape: p for p in (
    Published("1x1", 1, _A040082),
    Published("1x2", 1, _A040082),
    Published("1x3", 1, _A040082),
    Published("1x4", 2, _A040082),
    Published("1x5", 2, _A040082),
    Published("1x6", 22, _A040082),
    Published("1x7", 564, _A040082),
    Published("1x8", 1_676_267, _A040082),
    Published("1x9", 115_618_721_533, _A040082),
    Published("2x2", 2, "OEIS A109741; " + _A291188),
    Published("2x3", 49, _A291188),
    Published("2x4", 1_673_187, _A291188),
    Published("2x5", 4_743_933_602_050_718, _A291188),
    Published("3x3", 5_472_730_538, "Russell & Jarvis 2006; OEIS A109741"),
)}


@dataclass(frozen=True)
class Rectangles:
    """The published number of ``rows × n`` Latin rectangles (all of them:
    the normalised sequence times its factor, see the module)."""

    rows: int
    n: int
    total: int
    source: str


def _rectangles() -> dict[tuple[int, int], Rectangles]:
    f = math.factorial
    a000166 = {2: 1, 3: 2, 4: 9, 5: 44, 6: 265, 7: 1854, 8: 14833, 9: 133496, 10: 1334961}
    a001623 = {3: 1, 4: 4, 5: 46, 6: 1064, 7: 35792, 8: 1673792, 9: 103443808,
               10: 8154999232}
    a003170 = {4: 24, 5: 1344, 6: 393120, 7: 155185920, 8: 88390995840, 9: 69761852246016,
               10: 74175958614030336}
    out = [Rectangles(2, n, f(n) * d, "OEIS A000166 × n!") for n, d in a000166.items()]
    out += [Rectangles(3, n, f(n) * f(n - 1) // f(n - 3) * r, "OEIS A001623 × n!(n-1)!/(n-3)!")
            for n, r in a001623.items()]
    out += [Rectangles(4, n, f(n) * k, "OEIS A003170 × n!") for n, k in a003170.items()]
    return {(r.rows, r.n): r for r in out}


#: (rows, n) -> the published number of rows × n Latin rectangles
RECTANGLES: dict[tuple[int, int], Rectangles] = _rectangles()

# Grid kinds with extra rules, by the kind's canonical text (Latin kinds as 1xN).
_A274171 = "OEIS A274171 × n!"   # diagonal Latin squares, first row in order: 1, 0, 0, 2, 8, ...
VARIANTS: dict[str, Published] = {p.shape: p for p in (
    Published("1x2+x", 0, _A274171),
    Published("1x3+x", 0, _A274171),
    Published("1x4+x", 48, _A274171),
    Published("1x5+x", 960, _A274171),
    Published("1x6+x", 92_160, _A274171),
    Published("1x7+x", 862_848_000, _A274171),
    Published("1x8+x", 300_286_741_708_800, _A274171),
    Published("1x9+x", 1_835_082_219_864_832_081_920,
              "OEIS A274806, by volunteer computing (= A274171 × n!)"),
    Published("3x3+x", 55_613_393_399_531_520,
              'Mathimagics 2018, enjoysudoku "SudokuX (Diagonal Sudoku)"'),
    Published("3x3+windoku", 6_337_174_388_428_800,
              'Mathimagics 2018, enjoysudoku "SudokuW/SudokuWX (Windoku)"'),
    Published("3x3+disjoint", 201_105_135_151_764_480,
              'enjoysudoku "SudokuP – Analysis" 2018'),
    Published("3x3+anti-knight", 3_080_888_939_520,
              "dclamage/SudokuAKUnique on GitHub, README 2022: 8,490,104 × 9!"),
)}


# Essentially different grids under a kind's FULL symmetry group, the
# automorphisms of its exact cover (counting/group/cover_automorphisms.py):
# cells × relabelling for these two (counting/group/split_burnside.py).
FULL_GROUP: dict[str, Published] = {p.shape: p for p in (
    Published("3x3+disjoint", 53_666_689,
              'enjoysudoku "SudokuP – Analysis" 2018, group of 10,368 × 9!'),
    Published("3x3+windoku", 68_239_994,
              'B. Michel, "Mathematics of NRC-Sudoku", Utrecht 2007, group of 256 × 9!'),
)}


# Classes of Latin squares of order n beyond isotopy (counting/group/latin_classes.py):
# group name -> (source, {n: number of classes}).
LATIN_CLASSES: dict[str, tuple[str, dict[int, int]]] = {
    "main classes": ("OEIS A003090", dict(enumerate(
        [1, 1, 1, 2, 2, 12, 147, 283_657, 19_270_853_541, 34_817_397_894_749_939], 1))),
    "isomorphism classes": ("OEIS A057991", dict(enumerate(
        [1, 1, 5, 35, 1411, 1_130_531, 12_198_455_835, 2_697_818_331_680_661,
         15_224_734_061_438_247_321_497], 1))),
    "loops up to isomorphism": ("OEIS A057771", dict(enumerate(
        [1, 1, 1, 2, 6, 109, 23_746, 106_228_849, 9_365_022_303_540,
         20_890_436_195_945_769_617], 1))),
    "isotopy classes": (_A040082, dict(enumerate(
        [1, 1, 1, 2, 2, 22, 564, 1_676_267, 115_618_721_533, 208_904_371_354_363_006], 1))),
}


#: ``--group`` names whose classes of Latin squares :data:`LATIN_CLASSES` holds.
LATIN_GROUP_CLASSES = {"main-class": "main classes", "isomorphism": "isomorphism classes",
                       "loops": "loops up to isomorphism"}


def lookup(shape: str, *, up_to_symmetry: bool = False, group: str | None = None
           ) -> Published | None:
    """The published total of box shape ``"RxC"`` (either orientation), or None;
    with ``up_to_symmetry`` the number of essentially different grids (under
    ``group``, a ``--group`` name: for ``"main-class"`` and ``"isomorphism"``
    the Latin squares' classes of :data:`LATIN_CLASSES`, None for any other
    kind; for ``"full"`` the kind's full group's, :data:`FULL_GROUP`, None
    for a kind it does not list (a job whose full group is today's group,
    as plain 9×9's, asks for ``"grid"``: ``FullSymmetryReduction.published_group``);
    every other group: today's, as before groups were named).

    Examples
    --------
    >>> lookup("3x2").total == lookup("2x3").total
    True
    >>> lookup("5x5") is None
    True
    >>> lookup("5x1+x").total
    960
    >>> lookup("1x6", up_to_symmetry=True, group="main-class").total
    12
    >>> lookup("3x3+windoku", up_to_symmetry=True, group="full").total
    68239994
    >>> lookup("3x3", up_to_symmetry=True, group="full") is None
    True
    """
    head, plus, rules = shape.partition("+")
    try:
        s = Shape.parse(head)
    except ValueError:
        return None
    if up_to_symmetry and group in LATIN_GROUP_CLASSES:
        source, values = LATIN_CLASSES[LATIN_GROUP_CLASSES[group]]
        n = s.box_rows * s.box_cols
        if plus or not s.latin or n not in values:
            return None
        return Published(f"1x{n}", values[n], source)
    r, c = sorted((s.box_rows, s.box_cols))
    if up_to_symmetry and group == "full":
        return FULL_GROUP.get(f"{r}x{c}{plus}{rules}")
    if plus:       # a grid kind with extra rules: its total, none up to today's group yet
        return None if up_to_symmetry else VARIANTS.get(f"{r}x{c}+{rules}")
    return (ESSENTIALLY_DIFFERENT if up_to_symmetry else PUBLISHED).get(f"{r}x{c}")
