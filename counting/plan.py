"""A counting job from request to total: the one library call behind ``gridcount count``.

:func:`count` does what ``gridcount count SHAPE [--up-to-symmetry]`` does,
in this order, checking everything before anything is deleted or opened:

1. **The locks** (:func:`~counting.store.lock.acquire_early`): a store
   that another process is counting into is refused first, before anything
   is estimated, and so is a symmetry job's grid store when its identity is
   to be counted into it (:func:`~counting.store.identity.grid_store_to_count`).
2. **Reach** (:func:`check_reach`): every job whose store is not complete
   is looked at quickly; one that could run longer than
   :data:`counting.reach.LONG_JOB_SECONDS` is estimated and the estimate
   said before it starts, and one that would run for more than
   :data:`counting.reach.REACH_DAYS` days on the workers asked is refused
   with its estimate (:class:`OutOfReach`), unless forced.  For a symmetry
   job the symmetry units are estimated, and so is the grid count behind
   the identity class unless its store is complete already.
3. **The job and its store** (:func:`open_store`): the store is locked for
   the run (one run per store: the lock of step 1); ``fresh`` deletes it
   first, but only a store of the same job, and says how many finished
   units it deletes.
   A symmetry job counts under a named group (``group``: ``"grid"``, the
   default, ``"full"``, or for Latin squares ``"isotopy"`` (``"grid"``'s
   other name), ``"main-class"``, ``"isomorphism"``, ``"loops"``: :func:`check_group`),
   recorded in the store's reduction name; a store of another group is
   refused naming both (:func:`other_group`).
4. **The identity** of a symmetry job (:func:`prepare_identity`): the
   identity fixes every grid, so its unit's count is the number of grids
   over ``N!``.  It is taken from the grid count's store when that store
   holds a complete count of the same shape, and the grid job is counted
   into that store first when it does not; :func:`record_identity` then
   stores it as unit 0, naming the grid store as the unit's worker.
   ``--group loops`` takes it so (``R_N = L_N / (N!·(N-1)!)``) beyond order 7
   only, and counts it below (``identity_from_grid`` False).
5. **The run** (:func:`counting.job.run_count`) and its summary.

``verify`` uses the same steps (:func:`check_reach`,
:func:`record_identity`), so the command line and the verification table
never decide differently.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from counting import reach, route_estimate
from counting.layer_route import refuse_forced_route, refuse_layers_beyond_units
from counting.job import (Job, RunReport, Summary, default_db_path, run_count,
                          summarise)
from counting.options import CountOptions
from counting.plan_notices import grid_store_complete, lists_grid_units, tables_notices
from counting.plan_errors import (BadUnits, ClusterUnavailable, Interrupted, NoDiskRoom, NoGrids,
                                   OutOfReach, RouteUnusable, RunFailed, TooMuchMemory)
from counting.unit_ids import parse_unit_list
from counting.reduction import get_reduction
from counting.group_choice import GroupRefused, check_group, other_group
from counting.reduction.registry import check_shape, symmetry_reduction
from counting.run.dask_setup import (DaskPoolError, DaskUnavailable, NoWorkers, SchedulerUnreachable,
                                     UnitFailed)
from counting.run.notice import say_if_slow
from counting.run.pool import WorkerLost, check_job_memory
from counting.store.database import Store, StoreError, StoreLock
from counting.store.format import OtherJobError
from counting.store.identity import check_identity, grid_store_to_count, link, read_grid_store
from counting.store.lock import acquire_early
from counting.store.state import store_state, units_left
from counting.store.unused import removed_if_unused
from dlx.api import MEMO_MB_MAX
from factorization import NoRoomForMemo
from grids.kind import as_kind

__all__ = ["CountRequest", "Outcome", "count", "check_reach", "in_process_reason", "refuse_uncountable", "open_store",
           "prepare_identity", "grid_total_in", "record_identity", "needs_identity", "store_state",
           "units_left",
           "OutOfReach", "RouteUnusable", "ClusterUnavailable", "Interrupted", "RunFailed",
           "BadUnits", "TooMuchMemory", "NoDiskRoom",
           "NoGrids", "GroupRefused", "check_group", "other_group"]


@dataclass(frozen=True)
class CountRequest:
    """Everything ``gridcount count`` is asked, validated by the caller's parser.

    ``workers`` is the local pool's size; with a ``scheduler`` it is the
    number of workers the estimate assumes and ``local_workers`` the
    processes that count on this machine (0 for a remote cluster).
    ``in_process_if_small``: a job the quick look puts at a few seconds
    (:func:`counting.reach.runs_in_process`) is counted in this process
    instead of on ``workers`` local processes (``gridcount count`` without
    ``--workers``).
    """

    shape: str
    reduction: str | None = None
    up_to_symmetry: bool = False
    group: str | None = None          # with up_to_symmetry: a key of GROUPS (None: "grid")
    force: bool = False
    db: Path | None = None
    unit_list: str | None = None
    fresh: bool = False
    allow_mismatch: bool = False
    options: CountOptions = CountOptions()
    workers: int = 1
    local_workers: int | None = None
    scheduler: str | None = None
    wait_workers: float | None = None
    in_process_if_small: bool = False


@dataclass
class Outcome:
    """What a count did: its store, the run, the summary and, for a
    complete symmetry job, the Burnside table."""

    path: Path
    summary: Summary
    report: RunReport
    table: list | None = None
    deleted: int = 0
    #: the lines the run told a person (estimates, a refused memo file, deletions,
    #: the identity step), in order: ``count --json`` prints them as ``notes``
    notes: list[str] = field(default_factory=list)


Say = Callable[[str], None]


def _silent(msg: str) -> None:
    pass


def count(request: CountRequest, *, progress: bool | None = None, log: Say | None = None,
          warn: Say | None = None, say: Say = _silent, note: Say = _silent,
          on_report: Callable[[RunReport], None] | None = None) -> Outcome:
    """Run the job ``request`` describes, resuming from its store.

    ``say`` receives the lines a person is told along the way (estimates,
    deletions, the identity step), ``note`` those that say what a slow step
    is doing while it runs (enumerating units, estimating); ``progress``,
    ``log`` and ``warn`` go to :func:`counting.job.run_count`; ``on_report`` receives the run report of
    a grid count made for a symmetry job's identity.

    Raises
    ------
    ValueError
        A bad shape or reduction; :class:`OutOfReach`, :class:`BadUnits`,
        :class:`TooMuchMemory`, :class:`NoDiskRoom`, :class:`ClusterUnavailable`
        for their cases.
    StoreError
        The store cannot be opened, locked or deleted.
    Interrupted, RunFailed
        The run stopped; its finished units are kept.
    """
    r = request
    quick: list = []
    notes: list[str] = []     # what a person is told, kept for --json (Outcome.notes)
    told = say

    def say(msg: str) -> None:
        notes.append(msg)
        told(msg)

    symmetry = symmetry_reduction(r.group)
    if r.up_to_symmetry:
        check_group(r.shape, r.group)
    kind = as_kind(r.shape)
    refuse_layers_beyond_units(kind, r.reduction, r.workers)   # 2x6 by layers: forced or not
    path = Path(r.db) if r.db else default_db_path(
        kind.name, get_reduction(kind.name, symmetry if r.up_to_symmetry else r.reduction).name)
    early = acquire_early(path)   # a store in use is refused before anything is estimated,
    grid_lock = None              # and so is the grid store the identity is to be counted into
    try:
        job_red = get_reduction(kind.name, symmetry if r.up_to_symmetry else r.reduction)
        grid_red = get_reduction(kind.name, r.reduction)     # behind a symmetry job's identity
        identity_grid = grid_red if r.up_to_symmetry and job_red.identity_from_grid else None
        if identity_grid is not None:
            grid_lock = acquire_early(grid_store_to_count(default_db_path(
                kind.name, grid_red.name), kind.name, path))
        # read once, for both notices
        grid_complete = identity_grid is not None and grid_store_complete(kind, identity_grid)
        listed = [job_red]
        if r.up_to_symmetry and lists_grid_units(kind, job_red, grid_red, grid_complete):
            listed.append(grid_red)
        listings = [(red, red.listing_notice()) for red in listed]
        for red, listing in listings:      # the estimate lists them: said before it
            if listing and red.estimate_lists_units:
                say(listing)
        for line in tables_notices(kind, job_red, path, r.fresh, identity_grid, grid_complete):
            say(line)      # made by the estimate (by the first unit under --force)
        if r.force:      # --force runs a job past its estimate, never one that cannot be counted
            try:         # nor the search in place of a route that is not runnable (2x6)
                # a symmetry job whose identity is the grid count forces that count too
                if not r.up_to_symmetry or get_reduction(kind.name, symmetry).identity_from_grid:
                    refuse_forced_route(kind, r.reduction, r.workers)
            except OutOfReach as e:
                e.notes = list(notes)
                raise
            refuse_uncountable(r.shape, r.reduction, r.options, r.workers)
        else:            # before the units are enumerated: 2x6's take minutes
            try:
                costs = check_reach(r.shape, r.reduction, r.options, r.workers,
                                    up_to_symmetry=r.up_to_symmetry, group=r.group,
                                    has_store=True, store=r.db, fresh=r.fresh,
                                    note=note, quick=quick, say=say)
            except OutOfReach as e:
                e.notes = list(notes)      # what was said before (a route file refused)
                raise
            for what, cost in costs:
                say(f"estimated cost of {what}: {cost.describe(r.workers)}")
        for red, listing in listings:      # said at once, terminal or not:
            if listing and not red.estimate_lists_units:    # minutes before the first unit
                say(listing)
        said = any(listing for _, listing in listings)
        with say_if_slow(note if not said else _silent, f"preparing the units of {r.shape} ..."):
            job = Job.load(r.shape, symmetry if r.up_to_symmetry else r.reduction, force=r.force)
            # a kind with extra rules may have no grid: its grid job's units say so
            # (not listed when its store behind the identity is complete: it has units)
            grids = Job.load(r.shape, r.reduction, force=r.force) \
                if r.up_to_symmetry and not job.kind.plain and not grid_complete else job
        if grids.n_units == 0:   # before any store is made
            raise NoGrids(grids.shape, grids.reduction,
                          "essentially different grids" if r.up_to_symmetry else "grids")
        try:
            ids = None if r.unit_list is None else parse_unit_list(r.unit_list, job.n_units)
        except ValueError as e:
            raise BadUnits(str(e)) from None
        here = r.workers if r.local_workers is None else r.local_workers
        small = in_process_reason(quick, here) \
            if r.in_process_if_small and r.scheduler is None else None
        workers = 1 if small else r.workers
        here = 1 if small else here
        try:  # the memo tables of the processes that will count on this machine
            red = job.reduction_object
            check_job_memory(min(here, job.n_units if ids is None else len(ids)), r.options, red)
        except ValueError as e:
            raise TooMuchMemory(str(e), red.worker_memory_option if r.options.memo
                                else None) from None
        memo = job.reduction_object.describe_memo(r.options)
        if memo:
            say(f"memo: {memo}")
        if here:   # the memo file this machine's workers map, before any store
            try:
                job.reduction_object.reserve_memo(r.options)
            except NoRoomForMemo as e:
                raise NoDiskRoom(str(e)) from None
            except OSError:
                pass   # not made (no permission...): each worker says so and keeps its own table
        # a memo file refused here is said once (above), not again by every worker
        options = job.reduction_object.local_options(r.options) if here else r.options
        if not r.db:
            path.parent.mkdir(parents=True, exist_ok=True)
        run_kw = dict(workers=workers, options=options, progress=progress, log=log,
                      scheduler=r.scheduler, wait_workers=r.wait_workers, warn=warn,
                      in_process=small)
        new = not (path.exists() or path.is_symlink())     # made by this command
        store, lock, deleted = open_store(path, job, fresh=r.fresh,
                                          allow_mismatch=r.allow_mismatch, lock=early)
    except BaseException:
        for held in (early, grid_lock):
            if held is not None:
                held.release()
        raise
    try:
        if deleted:
            say(f"--fresh: deleted {deleted:,} finished units of {job.shape} "
                f"({job.reduction}) from {path}")
        with removed_if_unused(store, path, new, RunFailed):   # a refusal: no empty new store
            from_grid = r.up_to_symmetry and job.reduction_object.identity_from_grid
            if from_grid and needs_identity(store):
                prepare_identity(store, r.shape, r.reduction, r.force, run_kw, say=say,
                                 on_report=on_report, lock=grid_lock,
                                 listing_said=len(listings) > 1 and bool(listings[1][1]))
            elif from_grid:   # before the run: an identity that fails costs no units
                check_identity(store, store.get(0))
            if grid_lock is not None:
                grid_lock.release()   # the grid store is free again for its own counts
            report = _run(job, store, path, ids, run_kw)
            summary = summarise(store, job)
            table = job.reduction_object.burnside_table({u.unit_id: u.count
                                                         for u in store.results()}) \
                if r.up_to_symmetry and summary.complete else None
    finally:
        lock.release()
        if grid_lock is not None:
            grid_lock.release()
    return Outcome(path, summary, report, table, deleted, notes)


def in_process_reason(quick: list, workers: int) -> str | None:
    """Why a job is counted in the calling process rather than on ``workers``
    worker processes, in words, when its quick looks ``quick``
    (:func:`check_reach`) all put it at a few seconds
    (:func:`counting.reach.runs_in_process`): starting the worker processes
    would take longer; None otherwise (one worker is this process anyway;
    no look was made, or one could run longer).

    Example
    -------
    >>> from counting.reach import JobCost
    >>> look = JobCost("3x3", "patterns3", 44, True, 0.02, 2, 0.01)
    >>> in_process_reason([look], 2)
    'in this process: the quick look puts the job at 0.88 s of CPU'
    >>> in_process_reason([look], 1) is None, in_process_reason([], 2) is None
    (True, True)
    """
    if workers <= 1 or not quick or not all(reach.runs_in_process(q) for q in quick):
        return None
    cpu = sum(q.cpu_seconds for q in quick)
    return f"in this process: the quick look puts the job at {reach.format_seconds(cpu)} of CPU"


def check_reach(shape: str, reduction: str | None, options: CountOptions, workers: int, *,
                up_to_symmetry: bool = False, group: str | None = None,
                grid_total_known: bool | None = None,
                has_store: bool = False, store: Path | None = None, fresh: bool = False,
                note: Say = _silent, quick: list | None = None, say: Say = _silent) -> list:
    """The estimates of a job that could run long (``(what, JobCost)``
    pairs, to be printed before it starts); :class:`OutOfReach`, with the
    estimate, when one would take more than
    :data:`counting.reach.REACH_DAYS` days on ``workers``.

    Every job is looked at (:func:`counting.reach.quick_cost`, well under a
    second for a small one); one that could run longer than
    :data:`counting.reach.LONG_JOB_SECONDS` on ``workers`` is estimated in
    full (:func:`counting.reach.job_cost`), and ``note`` is told so first.
    With ``has_store`` (a count: ``store``, or the job's default path when
    None), a job whose store is complete is not looked at (unless
    ``fresh`` deletes it first), nor one whose store the run will refuse
    (another job's, or one that cannot be read): the refusal comes at once;
    the units already in a store are left out of the cost.

    For ``up_to_symmetry`` the symmetry units (under ``group``: None is
    ``"grid"``) are estimated, and the grid
    count behind the identity class unless its store is complete already
    (``grid_total_known`` None: whether the grid store at its default path
    is complete; True or False: the caller knows).

    ``quick``, when given, is appended each quick look made
    (:class:`counting.reach.JobCost`): what a run's place is chosen by
    (:func:`in_process_reason`).

    A grid job whose shape has a measured route not built yet (2x6 by
    layers, :mod:`counting.route_estimate`) is refused with that route's
    estimate, read from its measurement file, instead of the search's
    (:class:`OutOfReach` with ``route``); a missing, damaged or foreign
    file is said to ``say`` in one line and the search is estimated.
    """
    kind = as_kind(shape)
    check_shape(kind)
    s = kind   # its .name is the kind's text
    grid = get_reduction(kind.name, reduction)
    job = get_reduction(kind.name, symmetry_reduction(group)) if up_to_symmetry else grid
    state, done = ("to do", 0) if not has_store else \
        store_state(store or default_db_path(s.name, job.name), s.name, job.name)
    if state == "refused" or (state == "complete" and not fresh):
        return []
    done = 0 if fresh else done      # units the run will not count again
    route = None if up_to_symmetry else route_estimate.for_job(kind, grid.name, say)
    if route is not None:
        raise OutOfReach(s.name, grid.name, route.describe(workers), route=route,
                         refused_because=route.refusal(grid.name, workers))
    # the units left, when some are stored: those are the ones estimated
    left = None if not done else units_left(store or default_db_path(s.name, job.name))
    wanted = [("this job", grid, done, left)]
    if up_to_symmetry:
        wanted = [("the symmetry units", job, done, left)]
        known = grid_total_known if job.identity_from_grid else True
        if known is None:
            known = grid_total_in(default_db_path(s.name, grid.name), s.name) is not None
        if not known:
            wanted.append(("the grid count behind the identity class", grid, 0, None))
    out = []
    for what, red, stored, ids_left in wanted:
        part = what if red is grid and up_to_symmetry else None   # the identity's grid count
        try:
            with say_if_slow(note, f"preparing the units of {s.name} ({red.name}) ..."):
                looked = replace(reach.quick_cost(red, options, left=ids_left), done=stored)
            if quick is not None:
                quick.append(looked)
            if not reach.could_be_long(looked, workers):
                continue
            note(f"{what} could take more than {reach.format_seconds(reach.LONG_JOB_SECONDS)} "
                f"on {workers} worker{'s' * (workers != 1)}: estimating its cost ...")
            cost = replace(reach.job_cost(red, options, left=ids_left), done=stored)
            if cost.provisional and cost.countable and not cost.out_of_reach(workers):
                cost = replace(reach.job_cost(red, options, bound_ok=False,   # a bound accepts
                                              left=ids_left), done=stored)     # nothing
        except ValueError as e:   # the units cannot even be enumerated
            raise OutOfReach(s.name, red.name, f"no estimate can be made ({e})", part=part,
                             refused_because="it cannot be enumerated here") from None
        if not cost.countable:
            raise OutOfReach(s.name, red.name, cost.describe(workers), part=part,
                             refused_because="it is estimated only, never counted")
        if cost.out_of_reach(workers):
            raise OutOfReach(s.name, red.name, cost.describe(workers), part=part,
                             also=None if up_to_symmetry else reach.layers_estimate(s))
        if cost.memory is not None and cost.memory_mib(workers) > MEMO_MB_MAX:
            raise OutOfReach(s.name, red.name, cost.describe(workers), part=part, refused_because=(
                f"{workers} × {cost.memory[0] / 2 ** 20:,.0f} MiB a worker"
                f"{cost.shared_text()} is more than this machine's "
                f"memory ({MEMO_MB_MAX:,} MiB), so it is refused (--force runs it anyway, "
                f"recomputing what its tables cannot hold)"))
        out.append((what, cost))
    return out


def refuse_uncountable(shape: str, reduction: str | None, options: CountOptions,
                       workers: int) -> None:
    """:class:`OutOfReach`, with the job's estimate, when ``shape`` by
    ``reduction`` can be estimated but never counted (5x3 by band tables:
    :meth:`~counting.reduction.base.Reduction.cost_model` says so, without
    building or enumerating anything); ``--force`` does not change that."""
    red = get_reduction(as_kind(shape).name, reduction)
    model = red.cost_model()
    if model is not None and not model["countable"]:
        cost = reach.job_cost(red, options)
        raise OutOfReach(red.shape.name, red.name, cost.describe(workers),
                         refused_because="it is estimated only, never counted "
                                         "(--force cannot run it)")


def open_store(path: Path, job: Job, *, fresh: bool = False, allow_mismatch: bool = False,
               lock: StoreLock | None = None) -> tuple[Store, StoreLock, int]:
    """The job's store at ``path``, locked for the caller (release the
    lock when done), made new with ``fresh``; and how many finished units
    ``fresh`` deleted.  ``lock``: the store's lock, taken already by the
    caller (:func:`~counting.store.lock.acquire_early`), now this call's to
    release on failure.

    ``fresh`` deletes only a store of the same job (shape and reduction):
    a store of another job is refused, naming both, and nothing is deleted.
    """
    if lock is None:
        lock = StoreLock.acquire(path)   # taken before --fresh deletes anything
    try:
        why = other_group(path, job)
        if why is not None:
            raise OtherJobError(why)
        deleted = 0
        if fresh and path.exists():
            deleted = _deletable_units(path, job)
            Store.delete(path)
        red = job.reduction_object
        store = Store.create_or_open(path, job.info(),
                                     allow_mismatch=allow_mismatch or red.engine_pinned)
        why = red.foreign_engine(store.job.engine_version)
        if why is not None:
            store.close()
            raise OtherJobError(f"{path}: {why}; count into another --db, or continue this "
                                f"one with the gridcount that began it")
        try:
            lock.hold_file()   # a new store has an inode now
        except BaseException:
            store.close()
            raise
        return store, lock, deleted
    except BaseException:
        lock.release()
        raise


def _deletable_units(path: Path, job: Job) -> int:
    """The finished units ``--fresh`` would delete from ``path``;
    OtherJobError when the store there counts another job.  A store too
    damaged to open is still deleted (that is what --fresh is for)."""
    try:
        with Store.open(path) as old:
            other, done = (old.job.shape, old.job.reduction), len(old)
    except StoreError:
        return 0
    if other != (job.shape, job.reduction):
        raise OtherJobError(f"{path} is the store of {other[0]} ({other[1]}), not of "
                         f"{job.shape} ({job.reduction}): --fresh deletes only a store "
                         f"of the same job; give another --db")
    return done


def _run(job: Job, store: Store, path: Path, ids, run_kw: dict) -> RunReport:
    """:func:`counting.job.run_count`, with a stop said as where the work is."""
    try:
        return run_count(job, store, unit_ids=ids, **run_kw)
    except KeyboardInterrupt as e:
        raise Interrupted(len(store), job.n_units, path) from e
    except (WorkerLost, NoWorkers, UnitFailed) as e:
        raise RunFailed(f"{e}; {len(store):,} of {job.n_units:,} units are safely in {path}: "
                        f"run the same command again to resume") from None
    except (DaskUnavailable, SchedulerUnreachable) as e:   # raised before any unit is sent
        raise ClusterUnavailable(str(e)) from None
    except DaskPoolError as e:
        raise StoreError(str(e)) from None


def prepare_identity(store: Store, shape: str, reduction: str | None, force: bool,
                     run_kw: dict, *, say: Say = _silent,
                     on_report: Callable[[RunReport], None] | None = None,
                     lock: StoreLock | None = None, listing_said: bool = False) -> int:
    """Record unit 0 of a symmetry job from the grid count's store (its
    default path), counting the grid job into that store first when it is
    not complete there (resumable like any count; ``lock``: that store's,
    taken already).  The grid total is recomputed from the grid store's
    rows at this moment and recorded with their digest
    (:mod:`counting.store.identity`).  Returns the stored count.

    The grid reduction's :meth:`~counting.reduction.base.Reduction.listing_notice`
    is said to ``say`` before its units are listed, unless ``listing_said``
    (the caller said it before listing them first): before the grid store is read
    when its total lists them, else before they are listed to count it."""
    red = get_reduction(as_kind(shape).name, reduction)
    listing = None if listing_said else red.listing_notice()
    if listing and red.total_lists_units:
        say(listing)
    grid_job = Job.named(shape, reduction, force=force)   # its units not listed yet
    grid_path = default_db_path(grid_job.shape, grid_job.reduction)
    grid = read_grid_store(grid_path, grid_job.shape)
    if grid is None or grid.total is None:
        if listing and not red.total_lists_units:
            say(listing)
        grid_job = Job.load(shape, reduction, force=force)   # lists its units
        say(f"the identity class fixes every grid: counting the {grid_job.shape} grids "
            f"({grid_job.reduction}) into {grid_path} first")
        grid_path.parent.mkdir(parents=True, exist_ok=True)
        new = not (grid_path.exists() or grid_path.is_symlink())
        grid_store, lock, _ = open_store(grid_path, grid_job, lock=lock)
        try:
            with removed_if_unused(grid_store, grid_path, new, RunFailed):
                report = _run(grid_job, grid_store, grid_path, None, run_kw)
        finally:
            lock.release()
        if on_report:
            on_report(report)
        grid = read_grid_store(grid_path, grid_job.shape)   # its rows as they now are
        if grid.total is None:   # pragma: no cover - the run raises when it stops short
            raise StoreError(f"{grid_path} is not complete after counting it")
    fixed = record_identity(store, grid_job.shape, grid.total, grid_path, grid.digest)
    n = check_shape(grid_job.shape, force=True).n
    per = get_reduction(store.job.shape, store.job.reduction).identity_divisor(n)
    say(f"identity: {grid.total:,} grids / {per} = {fixed:,} (from {grid_path})")
    return fixed


def grid_total_in(path: Path | str, shape: str) -> int | None:
    """The grid count of ``shape`` held complete in the store at ``path``;
    None when there is no store there or it is not complete.

    Raises
    ------
    StoreError
        When the store is damaged or counts another shape (the user named
        it, or it sits where this shape's grid store belongs).
    """
    grid = read_grid_store(path, shape)
    return None if grid is None else grid.total


def needs_identity(store: Store) -> bool:
    """Whether the symmetry store lacks its identity unit (unit 0)."""
    return 0 not in store.done_ids()


def record_identity(store: Store, shape: str, grid_total: int, source: Path | str,
                    rows_digest: str | None = None) -> int:
    """Store unit 0 of the symmetry job: ``grid_total / N!`` (checked exact;
    the reduction's :meth:`~counting.reduction.base.Reduction.identity_result`),
    its worker the link to ``source``, the grid store, and the digest of
    the rows the total was read from (:func:`counting.store.identity.link`).

    Returns the stored count.  Raises ``ValueError`` when ``grid_total`` is
    not a multiple of ``N!`` (then it is not a grid count).
    """
    red = get_reduction(shape, store.job.reduction)
    result = red.identity_result(grid_total, link(source, rows_digest))
    store.record(result)
    return result.count
