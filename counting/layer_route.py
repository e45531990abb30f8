"""``count --force`` on a shape whose refusal gave a route's estimate.

``gridcount count 2x6`` is refused with the layer route's measured estimate
(:mod:`counting.route_estimate`), not the per-class search's (about
2,300,000 core-hours).  ``--force`` must not then start that search in the
route's place without a word (issue 36): it would run the route, but the
route is not runnable here: :func:`factorization.layer_job.run_layer_job`
counts bands of at most :data:`~factorization.layer_job.MAX_JOB_C` stacks
(2x6's middle layers need a partitioned store, not built:
``docs/layer-job.md``), and the measured memo may not fit this machine's
memory.  So ``--force`` is refused, in one line saying both; the search is
run only when its reduction is named (``--reduction patterns2 --force``).
The same holds when the route's measurement file is missing or damaged: no
estimate to show, but still no search in the route's place.

``count 2x6 --reduction layers`` asks the layer method by name for a band
of more stacks than its units are built for (:mod:`counting.reduction.layers`:
``C = 2..5``): refused with the same measured estimate
(:func:`refuse_layers_beyond_units`), saying that its units stop at ``C = 5``,
so that ``--force`` cannot run it either; ``classes 2x6 --reduction layers``
is refused with the same why (:func:`layers_refused_because`), in one line.
A shape with no measured route (2x7) is still a reduction that does not
apply to it.
"""
from __future__ import annotations

from counting import route_estimate
from counting.plan_errors import OutOfReach, RouteUnusable
from counting.reduction.layers import NAME as LAYERS, LayerReduction
from counting.reduction.registry import get_reduction
from dlx.api import MEMO_MB_MAX
from factorization.layer_job import MAX_JOB_C
from grids.kind import GridKind

__all__ = ["refuse_forced_route", "not_runnable_because", "layers_beyond_units",
           "layers_refused_because", "refuse_layers_beyond_units"]

_GIB = 2 ** 30


def not_runnable_because(stacks: int, memo_bytes: int, memory_mib: int | None = None) -> str:
    """Why the layer route of a band of ``stacks`` stacks, whose memo needs
    ``memo_bytes``, cannot be run on a machine of ``memory_mib`` MiB (None:
    this machine's, :data:`dlx.api.MEMO_MB_MAX`).

    >>> not_runnable_because(6, 32 * 2 ** 30, 24 * 1024).split("; ")[1]
    "its memo needs 32.0 GiB on one machine, more than this machine's 24.0 GiB"
    """
    memory_mib = MEMO_MB_MAX if memory_mib is None else memory_mib
    why = []
    if stacks > MAX_JOB_C:
        why.append(f"the layer job (scripts/run_layer_job.py) counts bands of at most "
                   f"{MAX_JOB_C} stacks, not {stacks} (their middle layers need a "
                   f"partitioned store, not built: docs/layer-job.md)")
    if memo_bytes > memory_mib * 2 ** 20:
        why.append(f"its memo needs {memo_bytes / _GIB:,.1f} GiB on one machine, more than "
                   f"this machine's {memory_mib / 1024:,.1f} GiB")
    return "; ".join(why) or "it is not wired into count yet (scripts/run_layer_job.py runs it)"


def refuse_forced_route(kind: GridKind, reduction: str | None, workers: int) -> None:
    """:class:`OutOfReach` with the route's estimate when ``count --force``
    asks ``kind``'s default job (``reduction`` None) and a measured route
    replaces it; :class:`RouteUnusable` when that route's measurement file is
    missing, unreadable, damaged or foreign; nothing for a reduction named
    (its search is run) or a shape without a route."""
    if reduction is not None or not route_estimate.applies(kind):
        return
    name = get_reduction(kind.name, None).name
    searched = (f"the per-class search by {name} is not started in its place "
                f"(--reduction {name} without --force gives its own estimate)")
    try:
        route = route_estimate.load(kind)
    except route_estimate.RouteFileError as e:
        raise RouteUnusable(f"{kind.name} --force: the layer route's measurement file {e}; "
                            f"{searched}") from None
    stacks = kind.shape.n // 2
    raise OutOfReach(
        kind.name, name, route.describe(workers), route=route,
        refused_because=(f"--force: the layer route for {kind.name} is measured but not "
                         f"runnable here: {not_runnable_because(stacks, route.memo_bytes())}; "
                         f"{searched}"))


def layers_beyond_units(kind: GridKind, reduction: str | None) -> bool:
    """Whether ``reduction`` is ``layers`` on a two-band kind beyond the
    layers units (``C > 5``) whose layer route is measured (2x6): refused by
    :func:`refuse_layers_beyond_units` with that estimate, not as a reduction
    that does not apply."""
    return (reduction == LAYERS and route_estimate.applies(kind)
            and not LayerReduction.applies_to(kind.shape))


def _route_and_why(kind: GridKind):
    """The layer route measured for ``kind`` (None when its measurement file
    is missing, unreadable, damaged or foreign) and why ``--reduction layers``
    cannot count ``kind`` (:func:`layers_refused_because`)."""
    stacks = kind.shape.n // 2
    units = f"its units are built for bands of C = 2..{MAX_JOB_C} stacks, not C = {stacks}"
    try:
        route = route_estimate.load(kind)
    except route_estimate.RouteFileError as e:
        return None, f"the layer route's measurement file {e}; {units}"
    return route, f"{units}; {not_runnable_because(stacks, route.memo_bytes())}"


def layers_refused_because(kind: GridKind) -> str:
    """Why ``--reduction layers`` cannot count ``kind`` when
    :func:`layers_beyond_units` (2x6), in one line: its units stop at
    ``C = 5``, and why the measured layer route cannot run here
    (:func:`not_runnable_because`), or that its measurement file is unusable.
    ``count`` says it beside the route's estimate
    (:func:`refuse_layers_beyond_units`), ``classes`` alone."""
    return _route_and_why(kind)[1]


def refuse_layers_beyond_units(kind: GridKind, reduction: str | None, workers: int) -> None:
    """:class:`OutOfReach` with the layer route's measured estimate on
    ``workers`` when :func:`layers_beyond_units`, :class:`RouteUnusable` when
    its measurement file is missing, unreadable, damaged or foreign; nothing
    otherwise.  Forced or not: no unit of that ``C`` is implemented.  Either
    says :func:`layers_refused_because`."""
    if not layers_beyond_units(kind, reduction):
        return
    route, why = _route_and_why(kind)
    if route is None:
        raise RouteUnusable(f"{kind.name} --reduction {LAYERS}: {why}, so it is refused, "
                            f"and --force cannot run it")
    raise OutOfReach(
        kind.name, LAYERS, route.describe(workers), route=route,
        refused_because=f"--reduction {LAYERS}: {why}; so it is refused, and --force cannot run it")
