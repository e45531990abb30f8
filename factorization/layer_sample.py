"""Sampled layers of the layer method: unbiased estimates of sums over a
layer's states without computing the layer.

:mod:`factorization.layers` computes every state of every layer; for
``C = 6`` layers 3 to 5 hold millions to a billion states, too many to
compute here, so the cost of the whole job is estimated from samples.

Labelled states and rows
------------------------
A *labelled* state is a tuple of ``2C`` occurrence masks, one for each
digit (the forms of :mod:`factorization.layer_steps` are labelled states
too: digit ``d`` has mask ``form[d]``).  A *labelled row* from ``U`` is a
bijection columns -> digits giving column ``j`` a digit whose mask avoids
``j``'s stack; its child is ``U`` with bit ``j`` added to that digit's mask.
Between two labelled states there is at most one row, so every transition
of the layer method is, state by state, a set of perfect matchings:
:func:`row_count` counts those from ``U`` (``R(U)``, a class function) and
:func:`row_of_rank` lists them in a fixed order; :func:`unrows` lists the
labelled parents of ``V`` (its *un-rows*: each digit gives back one bit,
each column once).

Sampling a layer ``L + 1`` state
--------------------------------
Draw a parent class ``x`` uniformly from layer ``L`` (``N`` classes) and a
labelled row uniformly from its form ``U_x``; the child's class ``y`` is
drawn with probability ``p(y) = Σ_x a(x, y) / (N·R(x))``, where ``a(x, y)``
is the number of rows from ``U_x`` into ``y``.  Counting the pairs
``(U, V, row)`` of the orbits ``𝒰_x``, ``𝒱_y`` of labelled states under
``G × S_2C`` two ways gives ``|𝒰_x|·a(x, y) = |𝒱_y|·b(y, x)``, with
``b(y, x)`` the un-rows of one labelled ``V`` into ``x`` and
``|𝒰_x| = |G|·(2C)! / (stab(x)·Π k_i(x)!)``.  So, exactly::

    p(y) = Σ_{un-rows of V_y into x} stab(x)·Π k(x)! / (N · R(x) · stab(y)·Π k(y)!)

(:func:`child_probability`), and ``g(y) / p(y)`` is an unbiased estimate of
``Σ_y g(y)`` over the whole layer ``L + 1`` for any ``g`` (its size,
the CPU seconds of its next transition, its rows).

One layer further
-----------------
For the layer after a sampled state ``y``, ``y``'s own transition gives
all its children ``z``; each ``z`` has ``np(z)`` parent classes
(:func:`parent_classes`: the distinct classes of its un-rows), so
``Σ_z h(z) = Σ_y Σ_{z child of y} h(z) / np(z)``: with ``y`` drawn as above
and children drawn uniformly among ``y``'s, ``nch(y)·mean(h(z)/np(z)) /
p(y)`` is unbiased too.

Example
-------
>>> start = tuple(1 << j for j in range(4))      # C = 2: each digit in its own column
>>> row_count(start, 2), row_of_rank(start, 2, 0)
(4, (5, 10, 5, 10))
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from factorization.layer_steps import layer_forms_of

__all__ = ["row_count", "multiplicity_factorial", "row_of_rank", "unrows", "parent_classes",
           "child_probability", "random_child", "SampledChild"]


def _stack(j: int) -> int:
    return 3 << (2 * (j >> 1))


@lru_cache(maxsize=4096)
def _completions(state: tuple[int, ...]) -> dict[int, int]:
    """``{used digits (bits): labelled rows completing columns popcount..}``
    for the labelled state ``state``: a DP over subsets, columns in order."""
    n = len(state)
    allowed = [[d for d in range(n) if not state[d] & _stack(j)] for j in range(n)]
    ways = {(1 << n) - 1: 1}
    level = [(1 << n) - 1]
    for j in range(n - 1, -1, -1):           # sets of j digits complete column j on
        nxt: dict[int, int] = {}
        for used in level:
            w = ways[used]
            for d in allowed[j]:
                if used >> d & 1:
                    s = used & ~(1 << d)
                    nxt[s] = nxt.get(s, 0) + w
        ways.update(nxt)
        level = list(nxt)
    return ways


def row_count(state, C: int) -> int:
    """Labelled rows from a labelled state (perfect matchings columns ->
    digits): ``R(U)``."""
    state = tuple(int(m) for m in state)
    _check(state, C)
    return _completions(state).get(0, 0)


def row_of_rank(state, C: int, k: int) -> tuple[int, ...]:
    """The child (labelled, digit ``d``'s mask at ``d``) of the ``k``-th
    labelled row from ``state``, ``0 <= k < row_count``; every ``k`` gives
    another row (columns filled in order, digits in increasing order)."""
    state = tuple(int(m) for m in state)
    _check(state, C)
    ways = _completions(state)
    if not 0 <= k < ways.get(0, 0):
        raise ValueError(f"row {k} of {ways.get(0, 0):,} rows")
    used, child = 0, list(state)
    for j in range(2 * C):
        for d in range(2 * C):
            if used >> d & 1 or state[d] & _stack(j):
                continue
            w = ways.get(used | 1 << d, 0)
            if k < w:
                used |= 1 << d
                child[d] |= 1 << j
                break
            k -= w
    return tuple(child)


def unrows(state, C: int) -> np.ndarray:
    """Every labelled parent of ``state`` (each digit gives back one of its
    bits, each column exactly once), ``(M, 2C)``."""
    state = tuple(int(m) for m in state)
    _check(state, C)
    n = 2 * C
    holders = [[d for d in range(n) if state[d] >> j & 1] for j in range(n)]
    out: list[list[int]] = []
    parent = list(state)

    def fill(j: int, used: int) -> None:
        if j == n:
            out.append(parent.copy())
            return
        for d in holders[j]:
            if not used >> d & 1:
                parent[d] ^= 1 << j
                fill(j + 1, used | 1 << d)
                parent[d] ^= 1 << j

    fill(0, 0)
    return np.array(out, dtype=np.int64).reshape(len(out), n)


def _check(state: tuple[int, ...], C: int) -> None:
    if len(state) != 2 * C:
        raise ValueError(f"a state of {C} stacks has {2 * C} masks, got {len(state)}")


def multiplicity_factorial(form) -> int:
    """``Π k_i!`` over the multiplicities ``k_i`` of a state's masks."""
    return math.prod(math.factorial(k) for k in Counter(form).values())


def parent_classes(state, C: int) -> Counter:
    """``{parent form: un-rows of state into it}``: the classes of the
    labelled parents of ``state`` (``b(y, x)``), in
    :func:`factorization.layer_steps.layer_form`'s form."""
    parents = unrows(state, C)
    if not len(parents):
        return Counter()
    forms, _ = layer_forms_of(parents, C)
    return Counter(map(tuple, forms.tolist()))


def child_probability(state, stab: int, C: int, layer_size: int, stab_of) -> Fraction:
    """``p(y)``: the probability that a uniform parent class of the previous
    layer (``layer_size`` classes) and a uniform labelled row from its form
    give the class of ``state`` (stabiliser order ``stab``).  ``stab_of``
    maps a parent form to its stabiliser order."""
    total = Fraction(0)
    for x, b in parent_classes(state, C).items():
        total += Fraction(b * stab_of(x) * multiplicity_factorial(x), row_count(x, C))
    return total / (layer_size * stab * multiplicity_factorial(tuple(state)))


@dataclass(frozen=True)
class SampledChild:
    """A class of the next layer drawn by :func:`random_child`.

    Attributes
    ----------
    form : tuple of int
        Its canonical form.
    stab : int
        Its stabiliser's order.
    parent : tuple of int
        The parent class it was drawn from.
    probability : Fraction
        ``p(y)``, the probability of drawing this class.
    """

    form: tuple[int, ...]
    stab: int
    parent: tuple[int, ...]
    probability: Fraction


def random_child(layer: dict, C: int, rng: random.Random, forms: list | None = None
                 ) -> SampledChild:
    """Draw a class of the layer after ``layer`` (``{form: (T, stab)}``, a
    whole layer): a uniform parent class, a uniform labelled row from it.
    ``forms`` is ``list(layer)`` (passed to save building it each draw)."""
    forms = list(layer) if forms is None else forms
    x = forms[rng.randrange(len(forms))]
    child = row_of_rank(x, C, rng.randrange(row_count(x, C)))
    form, stab = layer_forms_of(np.array([child]), C)
    y, s = tuple(form[0].tolist()), int(stab[0])
    p = child_probability(y, s, C, len(forms), lambda f: layer[f][1])
    return SampledChild(y, s, x, p)
