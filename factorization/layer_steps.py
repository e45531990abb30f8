"""One transition of the layer method, compiled: canonical forms and the
children's sums in C (``factorization/_layer_steps.pxi``,
``_layer_children.pxi`` and ``_layer_table.pxi``), Python ints at the boundaries.

:mod:`factorization.layers` explains the method and keeps the NumPy path
(the reference, and the fallback when 128 bits do not hold a sum).  Here a
layer is ``{form: (T, stabiliser order)}`` with ``form`` the sorted masks of
a state in :func:`layer_form`'s canonical form (C's; not
:mod:`factorization.layer_canon`'s, which picks other representatives of the
same orbits).

The parents are handed out in chunks to ``threads`` threads, each filling
its own open-addressing table with the GIL released; the tables are then
merged.  The sums are unsigned 128-bit with checked multiplies and adds; a
layer whose ``T`` or sums do not fit raises :class:`SumOverflow`.

Example
-------
>>> layer = {tuple(1 << j for j in range(6)): (1, 48)}     # C = 3: the start
>>> nxt, rows = next_layer(layer, 3)
>>> len(nxt), rows
(5, 10)
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

import numpy as np

from factorization._kernel import LayerTable, layer_forms

__all__ = ["next_layer", "next_layer_with_stats", "children_of", "slot_bytes", "TransitionStats",
           "layer_form", "layer_forms_of", "SumOverflow", "MAX_STEP_C"]

MAX_STEP_C = 6                  # masks of 12 bits: keys of three 64-bit words
_CHUNKS_PER_THREAD = 64         # chunks of parents a thread takes, for balance
_U64 = (1 << 64) - 1


class SumOverflow(ArithmeticError):
    """A ``T`` or a sum of the layer does not fit in 128 bits."""


def _order(C: int) -> int:
    return 2 ** C * math.factorial(C)


def _check_stacks(C) -> None:
    if isinstance(C, bool) or not isinstance(C, int) or not 1 <= C <= MAX_STEP_C:
        raise ValueError(f"stacks must be an integer in 1..{MAX_STEP_C}, got {C!r}")


def layer_forms_of(states, C: int) -> tuple[np.ndarray, np.ndarray]:
    """Canonical forms ``(B, 2C)`` (sorted masks) and stabiliser orders
    ``(B,)`` of states ``(B, 2C)`` (occurrence masks, at most one bit a stack)."""
    _check_stacks(C)
    states = np.ascontiguousarray(states, dtype=np.int64).reshape(-1, 2 * C)
    stack_bits = 3 << (2 * np.arange(C))
    if np.any((states[:, :, None] & stack_bits) & ((states[:, :, None] & stack_bits) - 1)) \
            or np.any(states >> (2 * C)) or np.any(states < 0):
        raise ValueError(f"masks must have {2 * C} bits and at most one in each stack")
    return layer_forms(states, C)


def layer_form(state, C: int) -> tuple[int, ...]:
    """The canonical form of one state, as a tuple of masks."""
    forms, _ = layer_forms_of(np.asarray([state]), C)
    return tuple(forms[0].tolist())


def _multiplicity_factorials(forms: np.ndarray) -> np.ndarray:
    """``Π k!`` over the multiplicities ``k`` of each row's masks, for rows
    of sorted masks ``(N, n)``: the product, over positions, of each mask's
    place in its run of equal masks (1, 2, ..., k); at most ``12!``, exact in
    int64.  One NumPy pass instead of a ``Counter`` a state (that was a
    third of a ``layers`` unit's Python time, ``results/layers-count.md``)."""
    place = np.ones(forms.shape, dtype=np.int64)
    for i in range(1, forms.shape[1]):
        place[:, i] = np.where(forms[:, i] == forms[:, i - 1], place[:, i - 1] + 1, 1)
    return place.prod(axis=1)


@dataclass(frozen=True)
class TransitionStats:
    """What one transition (or one parent's share of it) did.

    Attributes
    ----------
    rows : int
        Rows enumerated (after the symmetry saving).
    leaves : int
        Admissible elements imaged by the children's canonical forms.
    children : int
        Distinct children (states of the next layer reached).
    cpu : float
        CPU seconds of the compiled step (the process's, every thread's:
        the rows, forms and sums, not the conversion to Python ints).
    table_bytes : int
        Bytes of the children's table (slots allocated × slot size).
    """

    rows: int
    leaves: int
    children: int
    cpu: float
    table_bytes: int


def _fill(items: list, C: int, threads: int) -> tuple[LayerTable, float]:
    """The children of the parents ``items`` (``(form, (T, stab))``) in one
    table, filled by ``threads`` threads; and the CPU seconds it took (the
    filling and merging: the empty tables' set-up, a constant a table, is
    left out so that one parent's figure is its share of a whole layer's)."""
    forms = np.array([f for f, _ in items], dtype=np.int64).reshape(len(items), 2 * C)
    ts = [t for _, (t, _) in items]
    if any(t < 0 or t >> 128 for t in ts):
        raise SumOverflow("a T of the layer does not fit in 128 bits")
    lo = np.array([t & _U64 for t in ts], dtype=np.uint64)
    hi = np.array([t >> 64 for t in ts], dtype=np.uint64)
    tables = [LayerTable(C) for _ in range(threads)]
    c0 = time.process_time()
    step = max(1, len(items) // (threads * _CHUNKS_PER_THREAD))
    starts = iter(range(0, len(items), step))
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work(table: LayerTable) -> None:
        try:
            while True:
                with lock:
                    a = next(starts, None)
                if a is None or errors:
                    return
                table.extend(forms[a:a + step], lo[a:a + step], hi[a:a + step])
        except BaseException as e:      # re-raised in the caller's thread
            errors.append(e)

    if threads == 1:
        work(tables[0])
    else:
        pool = [threading.Thread(target=work, args=(t,)) for t in tables]
        for th in pool:
            th.start()
        for th in pool:
            th.join()
    if errors:
        raise errors[0]
    for other in tables[1:]:
        tables[0].merge(other)
    if tables[0].overflow:
        raise SumOverflow("a sum of the next layer does not fit in 128 bits")
    return tables[0], time.process_time() - c0


def _check_call(C, threads) -> None:
    _check_stacks(C)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")


def next_layer_with_stats(layer: dict, C: int, threads: int = 1, parents: slice | None = None
                          ) -> tuple[dict, TransitionStats]:
    """:func:`next_layer`, with the transition's :class:`TransitionStats`
    instead of its rows alone (the statistics belong to this call: two calls
    at once do not mix them)."""
    _check_call(C, threads)
    items = list(layer.items())
    if parents is not None:
        items = items[parents]
    table, cpu = _fill(items, C, threads)
    kids, stab, s_lo, s_hi = table.export()
    at = np.lexsort(kids.T[::-1])               # form order: what stores and digests sort by
    kids, stab, s_lo, s_hi = kids[at], stab[at], s_lo[at], s_hi[at]
    order = _order(C)
    out = {}
    for form, mf, st, a, b in zip(map(tuple, kids.tolist()), _multiplicity_factorials(kids).tolist(),
                                  stab.tolist(), s_lo.tolist(), s_hi.tolist()):
        t = mf * ((b << 64) | a)
        if parents is None and t % (order // st):
            raise ArithmeticError(f"layer state {form}: T = {t} is not a multiple of its "
                                  f"{order // st} labellings")
        out[form] = (t, st)
    return out, TransitionStats(table.rows, table.leaves, len(table), cpu,
                                table.capacity * table.slot_bytes)


def next_layer(layer: dict, C: int, threads: int = 1, parents: slice | None = None
               ) -> tuple[dict, int]:
    """``({form: (T, stabiliser order)}, rows enumerated)`` of layer ``L + 1``.

    Parameters
    ----------
    layer : dict
        ``form -> (T, stabiliser order)`` of layer ``L``, forms canonical.
    C : int
        Stacks.
    threads : int
        Threads filling tables at once (each its own table).
    parents : slice, optional
        Only these parents (in the layer's order): a sample's children and
        their partial sums, for timing; their ``T`` are then not checked.

    Raises
    ------
    SumOverflow
        A ``T`` of the layer or a sum of the next does not fit in 128 bits.
    ArithmeticError
        A complete layer's ``T`` is not a multiple of its labellings (a bug).
    """
    out, stats = next_layer_with_stats(layer, C, threads, parents)
    return out, stats.rows


def slot_bytes(C: int) -> int:
    """Bytes of one slot of a transition's table (a state, its stabiliser
    order and its sum)."""
    _check_stacks(C)
    return LayerTable(C).slot_bytes


def children_of(form, stab: int, C: int) -> tuple[np.ndarray, np.ndarray, TransitionStats]:
    """One parent's children: their forms ``(N, 2C)``, stabiliser orders
    ``(N,)`` and the step's statistics (its CPU seconds are the parent's
    unit of work: rows, forms and sums, without Python ints)."""
    _check_stacks(C)
    table, cpu = _fill([(tuple(form), (1, stab))], C, 1)
    kids, stabs, _, _ = table.export()
    return kids, stabs, TransitionStats(table.rows, table.leaves, len(table), cpu,
                                        table.capacity * table.slot_bytes)
