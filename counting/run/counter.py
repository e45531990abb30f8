"""Count one work unit: the function every pool runs, and its engine cache.

The local process pool (:mod:`counting.run.pool`), the Dask workers
(:mod:`counting.run.dask_pool`) and ``recount`` (:func:`counting.recount.recount`)
all count a unit with :func:`count_unit`, so a unit is counted the same way
wherever it runs: its reduction says what the unit is to the engine
(:meth:`~counting.reduction.base.Reduction.problem`: a matrix and given
rows), or counts it itself where it is no single exact cover
(:meth:`~counting.reduction.base.Reduction.count_directly`, Burnside's
units); the :class:`~counting.options.CountOptions` value chooses only the
method, and counts never depend on it.

Each process keeps one engine per matrix key (the *engine cache*,
:func:`engine`): the memo table survives from one unit to the next, which
is always correct because its keys are exact states of the same matrix.
``fresh_memo=True`` empties it first, for recounts that must not reuse
anything from the first count.

Example
-------
>>> from counting.reduction import get_reduction
>>> count_unit(get_reduction("2x2", "moves").units()[0]).count
2
"""
from __future__ import annotations

import multiprocessing
import os

from counting.options import CountOptions
from counting.reduction import Reduction, get_reduction
from counting.units import UnitProblem, UnitResult, WorkUnit, Tally
from dlx import ExactCover
from dlx.pools import ignore_sigint
from grids.variants.kindcontent import learn_texts, texts_named

__all__ = ["count_unit", "unit_problem", "engine", "reduction_of", "hand_out", "worker_name",
           "kinds_of", "start_worker", "learn_kinds"]

# The engine cache: one ExactCover per matrix key in this process.
_ENGINES: dict[tuple, ExactCover] = {}


def engine(problem: UnitProblem) -> ExactCover:
    """This process's matrix for ``problem`` (built on first use)."""
    ec = _ENGINES.get(problem.matrix)
    if ec is None:
        ec = _ENGINES[problem.matrix] = problem.build()
    return ec


def reduction_of(spec: WorkUnit) -> Reduction:
    """The reduction a unit belongs to (its shape and stored name)."""
    return get_reduction(spec.shape, spec.reduction)


def count_unit(spec: WorkUnit, options: CountOptions = CountOptions(), *,
               fresh_memo: bool = False) -> UnitResult:
    """Count one unit: by its reduction's kernel where it has one and
    ``options`` do not ask for the search
    (:meth:`~counting.reduction.base.Reduction.count_by_kernel`), else its
    reduction's problem on this process's cached matrix with the switches of
    ``options`` (:meth:`CountOptions.engine_arguments`), or the reduction's
    own count.

    ``fresh_memo`` empties this process's memo table first (independent
    recounts).
    """
    red = reduction_of(spec)
    tally = None if options.searching else red.count_by_kernel(spec, options)
    problem = None if tally is not None else red.problem(spec)
    if tally is None and problem is None:
        tally = red.count_directly(spec, options)
    elif tally is None:
        ec = engine(problem)
        if fresh_memo:
            ec.clear_memo()
        count = ec.count(given=list(problem.given), **options.engine_arguments(ec))
        tally = Tally.of_engine(count, ec)
    return UnitResult.made(spec, tally, worker=worker_name())


def unit_problem(spec: WorkUnit) -> tuple[ExactCover, list[int]]:
    """The matrix a unit is counted on (this process's cached one, memo,
    priorities and tail included) and the unit's given rows in it.

    ValueError for a unit that is no single exact cover (Burnside's units).
    """
    problem = reduction_of(spec).problem(spec)
    if problem is None:
        raise ValueError(f"unit {spec.unit_id} of {spec.shape}/{spec.reduction} is not one "
                         f"exact cover")
    return engine(problem), list(problem.given)


def hand_out(specs) -> list:
    """``specs`` (units of one job) in the order the pools hand them out:
    their reduction's (:meth:`~counting.reduction.base.Reduction.hand_out`)."""
    specs = list(specs)
    return reduction_of(specs[0]).hand_out(specs) if specs else []


def worker_name() -> str:
    """This process as a worker: ``"NAME:PID"`` (``"SpawnPoolWorker-2:4711"``,
    ``"MainProcess:4700"`` when the unit is counted in the calling process)."""
    return f"{multiprocessing.current_process().name}:{os.getpid()}"


def kinds_of(specs) -> dict[str, str]:
    """What another process needs to know to count ``specs`` (units of one
    job): the normal texts of the kind files their kind names, by digest
    (``{}`` for built-in kinds).  A kind file's kind is named by its content
    (:mod:`grids.variants.kindcontent`), and a worker has read no file."""
    specs = list(specs)
    return texts_named(specs[0].shape) if specs else {}


def learn_kinds(kinds: dict[str, str]) -> None:
    """Know the kind files of :func:`kinds_of` in this (worker) process."""
    learn_texts(kinds, "the kind files handed to a worker")


def start_worker(kinds: dict[str, str]) -> None:
    """What a pool's worker process does first: leave SIGINT to the parent
    and know the kind files of :func:`kinds_of`."""
    ignore_sigint()
    learn_kinds(kinds)
