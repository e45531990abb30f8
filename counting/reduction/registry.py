"""Which reductions exist, for which shapes, under which names.

A reduction is chosen by its *kind* (``"moves"``, ``"patterns"``), the key
of :data:`REDUCTIONS`' table; units and stores carry its stable *name*,
which is the kind except for 3×3, whose reductions keep their historical
names ``"71"`` and ``"44"`` (:data:`ALIASES_3X3`).  :func:`get_reduction`
gives the reduction object of a (shape, name or kind) pair; ``None``
chooses the shape's default, the first kind in the table that applies.

A new reduction is a :class:`~counting.reduction.base.Reduction` subclass
in its own module, listed in ``_PLACES`` below; its ``applies_to`` says for
which shapes it is defined.

:func:`check_shape` is the size rule of the command line (``N <= 16``
unless forced), separate from the reductions themselves, which accept any
shape they can enumerate.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from counting.reduction.base import Reduction
from grids.kind import as_kind
from grids.shape import Shape, as_shape

__all__ = ["MAX_N", "REDUCTIONS", "SYMMETRY", "SYMMETRY_FULL", "SYMMETRY_LATIN", "GROUPS",
           "KIND_TABLES", "KIND_CHOSEN", "LATIN_ONLY_GROUPS", "DEFAULT_GROUP",
           "symmetry_reduction", "group_of", "ALIASES_3X3", "check_shape", "reduction_kind",
           "reduction_name", "default_reduction", "reduction_names", "get_reduction", "TABLE",
           "forget_kind_tables"]

MAX_N = 16  # largest grid side accepted without force (check_shape)
DEFAULT_GROUP = "grid"

#: kind -> "module.Class" of each reduction of the grid count, in :data:`TABLE`'s order.
#: A reduction's module is imported when it is first asked for by its kind, so that a
#: worker counting units of one reduction imports that one (issue 37: importing every
#: reduction was about 0.08 s of each spawned worker's start).  The class's ``kind`` is
#: the home of the name: :func:`_load` refuses a class whose ``kind`` is not its key.
#: Everything else below (:data:`TABLE`, the symmetry names, :data:`GROUPS`, ...) is made
#: on first use, by :func:`_load_all`, as this module made it on import before.
_PLACES = {
    "factor": "latin_factor.LatinFactorReduction",
    "cycles2": "cycles.RowTripleReduction",
    "cycles": "cycles.CycleTypeReduction",
    "patterns2": "patterns2.TwoBandPatternReduction",
    "moves": "moves.MovesReduction",
    "patterns": "patterns.PatternsReduction",
    "patterns3": "patterns3.ThreeBandPatternReduction",
    "layers": "layers.LayerReduction",
}
# The module attributes made by _load_all (module __getattr__ gives them on first use).
_LAZY = ("TABLE", "REDUCTIONS", "SYMMETRY", "SYMMETRY_FULL", "LATIN_GROUPS", "SYMMETRY_LATIN",
         "GROUPS", "LATIN_ONLY_GROUPS", "KIND_TABLES", "PREFIX", "PREFIX_DEFAULT",
         "PREFIX_CHOSEN", "KIND_CHOSEN", "ALIASES_3X3")


def _load(kind: str) -> type[Reduction]:
    """The reduction class of ``kind`` (a key of :data:`_PLACES`), its module imported."""
    module, _, name = _PLACES[kind].rpartition(".")
    cls = getattr(importlib.import_module(f"counting.reduction.{module}"), name)
    if cls.kind != kind:
        raise RuntimeError(f"registry: {_PLACES[kind]} has kind {cls.kind!r}, listed as {kind!r}")
    return cls


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    _load_all()
    return globals()[name]


def _loaded() -> bool:
    """Whether :func:`_load_all` has made the registry's tables (it sets ``TABLE`` last)."""
    return "TABLE" in globals()


def _load_all() -> None:
    """Import every reduction and make the registry's tables (once)."""
    if _loaded():
        return
    from counting.reduction.full_orbits import FullSymmetryReduction
    from counting.reduction.kind_band_tables import NAME as KIND_TABLES
    from counting.reduction.latin_orbits import LATIN_GROUPS as LATIN_SQUARE_GROUPS
    from counting.reduction.loop_orbits import LoopReduction
    from counting.reduction.orbits import SymmetryReduction
    from counting.reduction.prefix import NAME as PREFIX
    #: kind -> reduction class; the first that applies to a shape is its default (a new
    #: reduction is added to _PLACES; read it, never change it, outside this module and its tests)
    table: dict[str, type[Reduction]] = {kind: _load(kind) for kind in _PLACES}
    # Not a reduction of the grid count but of its orbits (Burnside's lemma):
    # never a default, not among REDUCTIONS, chosen by `--up-to-symmetry`.
    symmetry = SymmetryReduction.kind
    # The Latin-square groups (--group main-class, isomorphism, loops): their own stored names.
    latin_groups = {**LATIN_SQUARE_GROUPS, LoopReduction.group_name: LoopReduction}
    names = dict(
        REDUCTIONS=tuple(table),  # reduction kinds, the default first
        SYMMETRY=symmetry,
        # The same under the kind's full group (``--group full``): another stored name,
        # so that stores, unit ids and row checksums of the two groups never mix.
        SYMMETRY_FULL=FullSymmetryReduction.kind,
        LATIN_GROUPS=latin_groups,
        SYMMETRY_LATIN={cls.kind: cls for cls in latin_groups.values()},
        # ``--group`` name -> the reduction counting under it; a store made before
        # groups were named is a "symmetry" store: today's group, "grid".  "isotopy"
        # is another name of "grid" for Latin squares (rows, columns and symbols each
        # permuted: the same group, job and store); group_of names it "grid".
        GROUPS={"grid": symmetry, "full": FullSymmetryReduction.kind, "isotopy": symmetry,
                **{g: cls.kind for g, cls in latin_groups.items()}},
        #: The groups only Latin squares have (the others refuse them).
        LATIN_ONLY_GROUPS=("isotopy", *latin_groups),
        KIND_TABLES=KIND_TABLES,
        PREFIX=PREFIX,
        # Grid kinds with extra constraints: the prefix reduction, rows 1-2 by default,
        # or the prefix measured cheapest for the kind (Knuth's estimator over candidate
        # prefixes and real units timed: scripts/estimate_prefixes.py, results/variants-prefixes.md).
        PREFIX_DEFAULT=f"{PREFIX}-rows=2",
        PREFIX_CHOSEN={
            "3x3+x": f"{PREFIX}-diagonals",            # rows=2: about 200× the estimate
            "3x3+windoku": f"{PREFIX}-rows=1,cols=1",  # 292 s wall on 2 cores; rows=2 about an hour
            "3x3+disjoint": f"{PREFIX}-rows=3",        # band 1: 51 min on 2 cores; rows=2 over 15 min a unit
            "1x7+x": f"{PREFIX}-diagonals",            # 6 units, 5 s; rows=2: 195 units
            "1x8+x": f"{PREFIX}-diagonals",            # 26 units, 53 s on 2 cores; rows=2: 16 core-hours
            "7x1+x": f"{PREFIX}-diagonals",            # the same squares, transposed
            "8x1+x": f"{PREFIX}-diagonals",
        },
        # Grid kinds counted by another reduction than the prefix one by default (``--reduction
        # prefix`` still picks the prefix): the kinds whose one extra house has a cell in every box,
        # by the kind band tables (issue 35; centre-dot 6 min, asterisk 18-26 min on 2 cores,
        # results/variants.md).  ``--reduction kind-tables`` picks them for any kind they take
        # (plain 3x3 and 2x3, a 6x6 kind file's such house), as a check.
        KIND_CHOSEN={
            "3x3+centre": KIND_TABLES,
            "3x3+girandola": KIND_TABLES,
            "3x3+asterisk": KIND_TABLES,
        },
        ALIASES_3X3={cls.name_3x3: kind for kind, cls in table.items()
                     if cls.name_3x3 is not None},  # 3x3's historical (stored) names
    )
    globals().update(names)
    globals()["TABLE"] = table      # last: its presence says the rest is made (_loaded)


def symmetry_reduction(group: str | None) -> str:
    """The reduction counting essentially different grids under ``group``
    (a key of :data:`GROUPS`; None: :data:`DEFAULT_GROUP`).

    >>> symmetry_reduction(None), symmetry_reduction("full"), symmetry_reduction("isotopy")
    ('symmetry', 'symmetry-full', 'symmetry')
    >>> symmetry_reduction("main-class")
    'symmetry-main-class'
    """
    _load_all()
    group = DEFAULT_GROUP if group is None else group
    if group not in GROUPS:
        raise ValueError(f"unknown group {group!r}; valid groups are "
                         f"{', '.join(map(repr, GROUPS))}")
    return GROUPS[group]


def group_of(reduction: str) -> str | None:
    """The ``--group`` a stored reduction name counts under (None: it counts grids).

    >>> group_of("symmetry"), group_of("symmetry-full"), group_of("71")
    ('grid', 'full', None)
    >>> group_of("symmetry-isomorphism")
    'isomorphism'
    """
    _load_all()
    return next((g for g, name in GROUPS.items() if name == reduction), None)


def check_shape(shape: Shape | str, force: bool = False) -> Shape:
    """The shape, checked against the size rule ``N = R·C <= 16`` unless ``force``.

    Raises
    ------
    ValueError
        For text that is not ``"RxC"`` (R, C >= 1), or a grid larger than
        16×16 without ``force``.

    Examples
    --------
    >>> check_shape("4x4").n
    16
    >>> check_shape("5x4", force=True).name
    '5x4'
    """
    s = as_kind(shape).shape
    if s.n > MAX_N and not force:
        text = shape if isinstance(shape, str) else s.name
        raise ValueError(
            f"box shape {text!r} makes {s.n}x{s.n} grids; grids larger than "
            f"{MAX_N}x{MAX_N} need --force"
        )
    return s


def reduction_kind(reduction: str | None, shape: Shape | str) -> str:
    """The kind (``"moves"``, ``"patterns"``, ``"cycles"``, …) a reduction name stands for.

    ``None`` means the shape's default (:func:`default_reduction`).  ``"71"`` and ``"44"``
    are accepted for ``3x3`` only, where they name the 71 and 44 classes.

    Raises
    ------
    ValueError
        For an unknown name, ``"71"``/``"44"`` with another shape, or a
        reduction that does not apply to the shape.

    Examples
    --------
    >>> reduction_kind("44", "3x3"), reduction_kind(None, "2x4")
    ('patterns', 'moves')
    """
    _load_all()
    s = as_shape(shape)
    if reduction is None:
        for kind, cls in sorted(TABLE.items(), key=lambda kc: kc[1].default_rank):
            if cls.default_for(s):
                return kind
        raise ValueError(f"no reduction applies to box shape {s.name}")
    if reduction in (SYMMETRY, SYMMETRY_FULL, *SYMMETRY_LATIN):
        return reduction
    if reduction in ALIASES_3X3:
        if s != Shape(3, 3):
            raise ValueError(
                f"reduction {reduction!r} names the {reduction} classes of 3x3; for {s.name} "
                f"use {ALIASES_3X3[reduction]!r}"
            )
        return ALIASES_3X3[reduction]
    if reduction not in TABLE:
        raise ValueError(
            f"unknown reduction {reduction!r}; valid reductions are "
            f"{', '.join(map(repr, REDUCTIONS))} (for 3x3 also {', '.join(map(repr, ALIASES_3X3))})"
        )
    _check_applies(TABLE[reduction], reduction, s)
    return reduction


def _check_applies(cls: type[Reduction], kind: str, s: Shape) -> None:
    """ValueError unless reduction ``cls`` (of ``kind``) applies to shape ``s``."""
    if not cls.applies_to(s):
        raise ValueError(f"reduction {kind!r} does not apply to box shape {s.name}")


def reduction_name(reduction: str | None, shape: Shape | str) -> str:
    """The stable name of a reduction for one shape, as units and stores carry it.

    For ``3x3`` the historical names: ``"71"`` (five moves) and ``"44"``
    (column-set patterns); for every other shape ``"moves"`` and
    ``"patterns"``.  ``None`` gives the default (:func:`default_reduction`).

    Examples
    --------
    >>> reduction_name("moves", "3x3"), reduction_name(None, "2x3")
    ('71', 'moves')
    """
    return get_reduction(shape, reduction).name


def default_reduction(shape: Shape | str) -> str:
    """The default reduction's name: the first in the table that applies
    (those of a lower ``default_rank`` asked first: ``patterns3`` for 4x3 and larger).

    The five-move classes for box shapes (``"71"`` for 3x3); for Latin
    squares the classes of rows 1–3 (``"cycles2"``, orders 3–8), the
    1-factorization kernel (``"factor"``, orders 9–11) or the cycle types of
    row 2 (``"cycles"``) beyond.

    Examples
    --------
    >>> default_reduction("3x3"), default_reduction("1x4"), default_reduction("1x2")
    ('71', 'cycles2', 'cycles')
    >>> [default_reduction(f"1x{n}") for n in (8, 9, 10, 11, 12)]
    ['cycles2', 'factor', 'factor', 'factor', 'cycles']
    """
    return reduction_name(None, shape)


def reduction_names(shape: Shape | str) -> tuple[str, ...]:
    """Stable names of every reduction that applies to ``shape``, the default first.

    Examples
    --------
    >>> reduction_names("3x3"), reduction_names("2x3")
    (('71', '44', 'patterns3'), ('moves', 'patterns2', 'patterns', 'patterns3', 'layers'))
    >>> reduction_names("2x2+x")
    ('prefix-rows=2',)
    """
    _load_all()
    if not as_kind(shape).plain:
        if as_kind(shape).name in KIND_CHOSEN:
            return (KIND_TABLES, get_reduction(shape, PREFIX).name)
        return (get_reduction(shape).name,)
    s = as_shape(shape)
    default = reduction_kind(None, s)
    kinds = [default] + [k for k, cls in TABLE.items() if k != default and cls.applies_to(s)]
    return tuple(_make(kind, s).name for kind in kinds)


def get_reduction(shape: Shape | str, name: str | None = None) -> Reduction:
    """The reduction ``name`` (a kind or a stable name) of ``shape``.

    ``None`` chooses the shape's default.  Nothing is computed yet: classes
    and units are computed on first use and cached per shape.

    Raises
    ------
    ValueError
        For a bad shape or a name that is unknown or does not apply to it
        (:func:`reduction_kind`).

    Examples
    --------
    >>> r = get_reduction("3x3", "44")
    >>> r.name, r.kind, r.shape.name
    ('44', 'patterns', '3x3')
    >>> get_reduction("3x3", "patterns") is r
    True

    A grid kind with extra constraints (``"3x3+windoku"``) is counted by
    the prefix reduction (``"prefix"`` = ``"prefix-rows=2"``, or the
    prefix measured cheapest for the kind, :data:`PREFIX_CHOSEN`: Sudoku X
    and diagonal Latin squares of orders 7 and 8 by their diagonals, Windoku
    by row 1 + column 1, SudokuP by band 1; or a stored ``"prefix-PREFIX"``
    name), which is its default unless :data:`KIND_CHOSEN` names another
    (``"kind-tables"`` for centre-dot, girandola and asterisk: also chosen by
    name for any kind with one extra house of one cell per box, plain 3x3 and
    2x3 too); its essentially
    different grids by ``"symmetry"`` (Burnside over the kind's group) or
    ``"symmetry-full"`` (over its full group, :data:`GROUPS`); Latin squares'
    also by ``"symmetry-main-class"``, ``"symmetry-isomorphism"`` and ``"symmetry-loops"``.
    """
    kind = as_kind(shape)
    if kind.plain and name in _PLACES and not _loaded():
        cls = _load(name)           # a worker's case: its units' reduction alone imported
        _check_applies(cls, name, kind.shape)
        return _make(name, kind.shape)
    _load_all()
    if name == SYMMETRY_FULL:
        return _make_full(kind.name)
    if name in SYMMETRY_LATIN:
        return _make_latin(kind.name, name)
    if not kind.plain and name == SYMMETRY:
        return _make_kind_symmetry(kind.name)
    if name == KIND_TABLES or (name is None and kind.name in KIND_CHOSEN):
        return _make_kind_tables(kind.name)
    if not kind.plain:
        default = PREFIX_CHOSEN.get(kind.name, PREFIX_DEFAULT if kind.shape.n > 1
                                    else f"{PREFIX}-rows=1")   # 1x1 kinds have one row
        return _make_prefix(kind.name, default if name in (None, PREFIX) else name)
    if name is not None and name.startswith(PREFIX):
        raise ValueError(f"reduction {name!r} counts grid kinds with extra rules (3x3+x, ...); "
                         f"for plain {kind.name} grids use {', '.join(map(repr, REDUCTIONS))}")
    s = kind.shape
    return _make(reduction_kind(name, s), s)


@lru_cache(maxsize=None)
def _make_kind_symmetry(kind: str) -> Reduction:
    from counting.reduction.orbits import SymmetryReduction
    return SymmetryReduction(kind)


@lru_cache(maxsize=None)
def _make_full(kind: str) -> Reduction:
    from counting.reduction.full_orbits import FullSymmetryReduction
    return FullSymmetryReduction(kind)


@lru_cache(maxsize=None)
def _make_latin(kind: str, name: str) -> Reduction:
    return SYMMETRY_LATIN[name](kind)


@lru_cache(maxsize=None)
def _make_kind_tables(kind: str) -> Reduction:
    from counting.reduction.kind_band_tables import KindBandTableReduction
    return KindBandTableReduction(kind)


def forget_kind_tables() -> None:
    """Forget the kind-tables reductions made so far (each kind's is made once per
    process, its units listed then): the next :func:`get_reduction` lists them anew."""
    _make_kind_tables.cache_clear()


@lru_cache(maxsize=None)
def _make_prefix(kind: str, name: str) -> Reduction:
    from counting.reduction.prefix import NAME as PREFIX, PrefixReduction
    if not name.startswith(PREFIX):
        raise ValueError(f"reduction {name!r} counts plain grids, not {kind}: use 'prefix'")
    return PrefixReduction.from_name(kind, name)


@lru_cache(maxsize=None)
def _make(kind: str, s: Shape) -> Reduction:
    if not _loaded():               # get_reduction's one path that loads one reduction
        return _load(kind)(s)
    if kind == SYMMETRY:
        from counting.reduction.orbits import SymmetryReduction
        return SymmetryReduction(s)
    return TABLE[kind](s)
