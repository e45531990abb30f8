"""Specification of counting/reduction/registry.py: reduction names, the
registry of reductions, and the size rule of the command line."""
from __future__ import annotations

import pytest
from reduction_oracles import SUDOKU

from counting.reduction import (
    ALIASES_3X3,
    REDUCTIONS,
    check_shape,
    default_reduction,
    get_reduction,
    reduction_kind,
    reduction_name,
    reduction_names,
)
from counting.reduction import registry
from counting.reduction.moves import MovesReduction
from counting.reduction.patterns import PatternsReduction
from grids.shape import Shape


def test_shapes_are_checked_and_the_size_rule_needs_force():
    assert check_shape("2x4") == Shape(2, 4)
    assert check_shape(Shape(4, 4)).n == 16
    assert check_shape("1x16").n == 16
    for big in ("20x20", "17x1", "3x6"):
        with pytest.raises(ValueError, match=f"box shape '{big}' makes .* need --force"):
            check_shape(big)
    assert check_shape("20x20", force=True).n == 400


@pytest.mark.parametrize("shape", ["3", "axb", "3x3x3", 33, "3x", "0x3", "abc", "x3", "-1x3",
                                   " 4X2 "])
def test_malformed_shapes_are_rejected(shape):
    with pytest.raises(ValueError, match="bad box shape"):
        check_shape(shape)
    with pytest.raises(ValueError, match="bad box shape"):
        get_reduction(shape)


def test_71_and_44_are_the_3x3_names_of_moves_and_patterns():
    assert REDUCTIONS == ("factor", "cycles2", "cycles", "patterns2", "moves", "patterns",
                          "patterns3", "layers")
    assert ALIASES_3X3 == {"71": "moves", "44": "patterns"}
    assert reduction_name("moves", SUDOKU) == default_reduction("3x3") == "71"
    assert reduction_name("patterns", "3x3") == "44"
    assert reduction_kind("44", "3x3") == "patterns" and reduction_kind(None, "3x3") == "moves"
    assert get_reduction(SUDOKU, "moves") is get_reduction("3x3", "71") is get_reduction("3x3")
    assert get_reduction(SUDOKU, "patterns") is get_reduction("3x3", "44")
    assert {u.reduction for u in get_reduction("3x3", "moves").units()} == {"71"}
    assert {u.reduction for u in get_reduction("3x3", "patterns").units()} == {"44"}


def test_other_shapes_use_the_kinds_as_names():
    assert reduction_names("3x3") == ("71", "44", "patterns3")
    for name in ("2x3", "1x5", "5x1", "4x4"):
        latin = ("cycles2", "factor", "cycles") if name in ("1x5", "5x1") else ()
        two_band = ("patterns2",) if name == "2x3" else ()
        three_band = ("patterns3",) if name == "2x3" else ()
        layers = ("layers",) if name == "2x3" else ()
        assert reduction_names(name) == (*latin, "moves", *two_band, "patterns", *three_band,
                                         *layers)
        assert default_reduction(name) == reduction_name(None, name) == (latin or ("moves",))[0]
        assert get_reduction(name, "patterns").name == "patterns"


def test_latin_squares_default_to_the_classes_of_rows_1_to_3_where_they_are_enumerated():
    assert [default_reduction(f"1x{n}") for n in (1, 2, 3, 8)] == \
        ["cycles", "cycles", "cycles2", "cycles2"]
    # from order 9 on, counted by the 1-factorization kernel (order 9 in minutes,
    # order 10 in core-hours, order 11 estimated and refused)
    assert [default_reduction(f"1x{n}") for n in (9, 10, 11)] == ["factor"] * 3
    assert default_reduction("8x1") == "cycles2"


def test_two_band_shapes_default_to_patterns2_from_10x10_on():
    assert [default_reduction(s) for s in ("2x3", "4x2", "2x5", "5x2", "6x2")] == \
        ["moves", "moves", "patterns2", "patterns2", "patterns2"]
    assert reduction_names("2x5") == ("patterns2", "moves", "patterns", "layers")
    assert "patterns2" not in reduction_names("3x3") + reduction_names("1x2")


def test_the_registry_gives_each_kind_its_class():
    assert type(get_reduction("2x3", "moves")) is MovesReduction
    assert type(get_reduction("2x3", "patterns")) is PatternsReduction
    r = get_reduction("2x3", "patterns")
    assert (r.kind, r.shape) == ("patterns", Shape(2, 3))


@pytest.mark.parametrize("alias", ["71", "44"])
def test_71_and_44_are_refused_for_other_shapes(alias):
    with pytest.raises(ValueError, match=f"names the {alias} classes of 3x3"):
        get_reduction("2x3", alias)
    with pytest.raises(ValueError, match="use 'moves'|use 'patterns'"):
        reduction_name(alias, "2x4")


def test_unknown_reduction_names_are_rejected():
    with pytest.raises(ValueError,
                       match="'factor', 'cycles2', 'cycles', 'patterns2', 'moves', "
                             "'patterns', 'patterns3'.*'71', '44'"):
        get_reduction("3x3", "72")
    with pytest.raises(ValueError, match="unknown reduction 'none'"):
        reduction_kind("none", "2x3")


class _LatinOnly(MovesReduction):
    """A stand-in for a reduction defined for Latin squares only."""

    kind = "rows"

    @classmethod
    def applies_to(cls, shape):
        return shape.latin


def test_a_reduction_is_offered_only_for_the_shapes_it_applies_to(monkeypatch):
    monkeypatch.setitem(registry.TABLE, "rows", _LatinOnly)
    assert reduction_names("1x4") == ("cycles2", "factor", "cycles", "moves", "patterns", "rows")
    assert reduction_names("2x3") == ("moves", "patterns2", "patterns", "patterns3", "layers")
    assert type(get_reduction("1x4", "rows")) is _LatinOnly
    with pytest.raises(ValueError, match="reduction 'rows' does not apply to box shape 2x3"):
        get_reduction("2x3", "rows")


def test_measured_kinds_get_their_cheapest_prefix_by_default_and_other_kinds_rows_1_2():
    # measured far cheaper than rows 1-2 (results/variants-prefixes.md,
    # results/variants.md): Sudoku X by its diagonals, Windoku by row 1 +
    # column 1, SudokuP by band 1; "prefix" alone means the same default
    for name in (None, "prefix"):
        assert registry.get_reduction("3x3+x", name).name == "prefix-diagonals"
        assert registry.get_reduction("3x3+windoku", name).name == "prefix-rows=1,cols=1"
        assert registry.get_reduction("3x3+disjoint", name).name == "prefix-rows=3"
        assert registry.get_reduction("3x3+anti-knight", name).name == "prefix-rows=2"
        assert registry.get_reduction("2x2+x", name).name == "prefix-rows=2"
    assert registry.get_reduction("3x3+x", "prefix-rows=2").name == "prefix-rows=2"


@pytest.mark.parametrize("n", [pytest.param(7, marks=pytest.mark.slow), 8])
def test_diagonal_latin_squares_take_their_diagonals_either_way_round(n):
    # 1x8+x by rows 1-2 is about 16 core-hours, by its diagonals 26 units and a
    # minute; 8x1+x is the same squares transposed, and must not default to rows 1-2
    across, down = (registry.get_reduction(f"1x{n}+x"), registry.get_reduction(f"{n}x1+x"))
    assert across.name == down.name == "prefix-diagonals"
    assert across.n_units() == down.n_units()
    assert registry.reduction_names("3x3+x") == ("prefix-diagonals",)


# A fresh process that counts one unit of 2x3 "moves" as a pool's worker does (the task
# and the unit unpickled, then counted); it prints the count and the library's reduction
# modules it imported, then asks, by kind, for a reduction that does not apply to 2x3.
_WORKER = """
import pickle, sys
task, unit = pickle.loads(sys.stdin.buffer.read())
print(task(unit).count)
print(" ".join(sorted(m for m in sys.modules if m.startswith("counting.reduction."))))
from counting.reduction import get_reduction
try:
    get_reduction("2x3", "factor")
except ValueError as e:
    print(e)
"""


def test_a_worker_imports_only_the_reduction_of_its_units():
    """Issue 37: each spawned worker imported every reduction (about 0.08 s of
    its start); a reduction asked for by its kind imports its own module only,
    and is still refused for a shape it does not apply to."""
    import functools
    import pickle
    import subprocess
    import sys

    from counting.run.counter import count_unit

    unit = get_reduction("2x3", "moves").units()[0]
    blob = pickle.dumps((functools.partial(count_unit), unit))
    done = subprocess.run([sys.executable, "-c", _WORKER], input=blob, capture_output=True,
                          check=True)
    count, modules, refusal = done.stdout.decode().splitlines()
    assert int(count) == count_unit(unit).count
    others = {cls.__module__ for cls in registry.TABLE.values() if cls is not MovesReduction}
    others |= {type(get_reduction("2x3", name)).__module__
               for name in ("symmetry", "symmetry-full", "kind-tables")}
    others |= {type(get_reduction("2x3+x")).__module__,
               type(get_reduction("1x4", "symmetry-loops")).__module__}
    assert MovesReduction.__module__ in modules.split()
    assert others.isdisjoint(modules.split()), others & set(modules.split())
    assert refusal == "reduction 'factor' does not apply to box shape 2x3"
