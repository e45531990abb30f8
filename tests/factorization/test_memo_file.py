"""The kernel's memo file: shared by processes, kept across runs, never
believed when damaged or foreign (factorization.memo_file)."""
import errno
import multiprocessing
import os
import random
import signal
import struct
import time

import numpy as np
import pytest

from factorization import FactorizationCounter, latin_squares
from factorization import api as factor_api
from factorization.memo_file import (COUNT_OFFSET, HEADER_BYTES, MemoFileError, NoRoomForMemo,
                                     memo_path, open_memo, remove_stale_temporaries)
from factorization_brute import random_regular
from lock_waits import needs_proc_locks, wait_until, waits_for_a_lock

SLOT = np.dtype([("state", "<u4"), ("degree", "<u4"), ("key", "<u8", (4,)), ("lo", "<u8"),
                 ("hi", "<u8"), ("check", "<u8")])
L8 = latin_squares(8, memo_mb=16)          # above 2^64: both value words matter
K8 = np.full(8, 255, dtype=np.uint32)


@pytest.fixture
def forget_counters():
    """:func:`factorization.api.forget_process_counters`, for the test to call as a new
    process would start, and called again after it: the counters it made (their memo
    files in its directory) are not left to the next test."""
    yield factor_api.forget_process_counters
    factor_api.forget_process_counters()


def _slots(path):
    raw = np.fromfile(path, dtype=np.uint8)
    return raw, raw[HEADER_BYTES:].view(SLOT)


def _count_in_child(directory, graphs, out):
    memo = open_memo(8, 4.0, directory=directory)
    counter = FactorizationCounter(8, memo_file=memo)
    out.put([counter.count(adj, d) for adj, d in graphs] + [counter.count(K8, 8)])


def _graphs(seed, k=6):
    """Random 4- and 5-regular graphs on 8 + 8: unions of disjoint permutations."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < k:
        d = int(rng.integers(4, 6))
        adj = np.zeros(8, dtype=np.uint32)
        for _ in range(d):
            for _ in range(1000):
                p = rng.permutation(8)
                if all(not (int(adj[c]) >> int(p[c]) & 1) for c in range(8)):
                    break
            else:
                break
            adj |= (np.uint32(1) << p.astype(np.uint32))
        else:
            out.append((adj, d))
    return out


def test_two_processes_fill_and_read_one_table_at_once_and_get_the_right_counts(tmp_path):
    graphs = _graphs(1)
    private = FactorizationCounter(8, memo_mb=4)
    expected = [private.count(adj, d) for adj, d in graphs] + [L8]
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=_count_in_child, args=(tmp_path, graphs[::s], out))
             for s in (1, -1)]
    for p in procs:
        p.start()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert sorted(map(sorted, results)) == sorted([sorted(expected), sorted(expected)])
    # the table outlives them: a new reader finds L_8 without counting anything
    warm = FactorizationCounter(8, memo_file=open_memo(8, 4.0, directory=tmp_path))
    assert warm.count(K8, 8) == L8
    st = warm.stats()
    assert (st["hits"], st["misses"], st["matchings"]) == (1, 0, 0)
    assert st["entries"] > 0 and st["memo_file"] == str(memo_path(8, 4.0, tmp_path))


def _filled_then_damaged(tmp_path, damage):
    """A memo file filled by counting L_8, its published slots changed on
    disk by ``damage(slots, published)``, and a new counter reading it."""
    first = FactorizationCounter(8, memo_file=open_memo(8, 4.0, directory=tmp_path))
    assert first.count(K8, 8) == L8
    path = memo_path(8, 4.0, tmp_path)
    raw, slots = _slots(path)
    published = np.flatnonzero(slots["state"] == 2)
    damage(slots, published)
    raw.tofile(path)
    return published, FactorizationCounter(8, memo_file=open_memo(8, 4.0, directory=tmp_path))


def test_a_damaged_slot_is_recomputed_not_used(tmp_path):
    def flip_a_bit(slots, published):               # one bit of every value flipped
        slots["lo"][published] ^= np.uint64(1 << 7)
    published, again = _filled_then_damaged(tmp_path, flip_a_bit)
    assert len(published) > 10
    assert again.count(K8, 8) == L8
    st = again.stats()
    assert st["damaged"] > 0 and st["matchings"] > 0   # counted again, not read


def test_a_recomputed_value_is_published_again_beside_its_damaged_slot(tmp_path):
    def flip_a_bit_of_l8(slots, published):         # only K_8's own slot (degree 8)
        top = published[slots["degree"][published] == 8]
        assert len(top) == 1
        slots["lo"][top] ^= np.uint64(1 << 7)
    _, again = _filled_then_damaged(tmp_path, flip_a_bit_of_l8)
    assert again.count(K8, 8) == L8 and again.stats()["damaged"] == 1
    # the next reader skips the damaged slots and finds the good copies: L_8
    # is read, not counted
    third = FactorizationCounter(8, memo_file=open_memo(8, 4.0, directory=tmp_path))
    assert third.count(K8, 8) == L8
    st = third.stats()
    assert (st["hits"], st["matchings"]) == (1, 0) and st["damaged"] >= 1


def test_a_torn_slot_published_before_its_value_is_not_believed(tmp_path):
    def lose_the_value(slots, published):           # as if only half the slot reached the disk
        slots["hi"][published] = 0
        slots["lo"][published] = 0
    _, again = _filled_then_damaged(tmp_path, lose_the_value)
    assert again.count(K8, 8) == L8 and again.stats()["damaged"] > 0


def _rewrite_header(path, **changes):
    """Rewrite a header field (with a valid header checksum: another kernel's file)."""
    import hashlib
    fields = struct.Struct("<32sIIIIIQ")
    raw = bytearray(path.read_bytes())
    magic, layout, slot, words, canon, n, slots = fields.unpack_from(raw)
    values = dict(magic=magic, layout=layout, slot=slot, words=words, canon=canon, n=n,
                  slots=slots)
    values.update(changes)
    packed = fields.pack(*values.values())
    raw[:fields.size] = packed
    raw[fields.size:fields.size + 16] = hashlib.sha256(packed).digest()[:16]
    path.write_bytes(bytes(raw))


@pytest.mark.parametrize("field, words", [("canon", "canonical form version"),
                                          ("layout", "slot layout"), ("n", "n 9, not 8")])
def test_a_memo_file_of_another_kernel_is_refused_in_one_line(tmp_path, field, words):
    open_memo(8, 1.0, directory=tmp_path)
    path = memo_path(8, 1.0, tmp_path)
    _rewrite_header(path, **{field: 9})
    with pytest.raises(MemoFileError, match=words) as err:
        open_memo(8, 1.0, directory=tmp_path)
    assert "\n" not in str(err.value)


def test_a_damaged_header_is_refused_and_the_process_counts_with_its_own_table(
        tmp_path, monkeypatch, capsys, forget_counters):
    open_memo(8, 64.0, directory=tmp_path / "gridcount")
    path = memo_path(8, 64.0, tmp_path / "gridcount")
    raw = bytearray(path.read_bytes())
    raw[40] ^= 1
    path.write_bytes(bytes(raw))
    with pytest.raises(MemoFileError, match="header is damaged"):
        open_memo(8, 64.0, directory=tmp_path / "gridcount")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    forget_counters()                            # as a new process would
    counter = factor_api.process_counter(8, 64.0)
    assert counter.memo_file is None and counter.count(K8, 8) == L8
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "header is damaged" in err and str(path) in err


def test_a_full_table_recomputes_and_is_never_wrong(tmp_path):
    # a graph with more classes of degree >= 3 on its way down than 12 (F_4
    # by 2-factors visits no degree 3: K_{6,6} has only 6 classes left)
    g = random_regular(8, 5, random.Random(1))
    adj = np.array([sum(1 << (s - 1) for s in col) for col in g], dtype=np.uint32)
    memo = open_memo(8, 0.001, directory=tmp_path)           # 16 slots
    counter = FactorizationCounter(8, memo_min=3, memo_file=memo)
    assert counter.count(adj, 5) == FactorizationCounter(8, memo_mb=0).count(adj, 5)
    st = counter.stats()
    assert st["dropped"] > 0 and 4 * st["entries"] <= 3 * st["capacity"] == 3 * 16


def no_room(monkeypatch):
    """A disk without room for a new memo file: posix_fallocate fails with ENOSPC."""
    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "posix_fallocate", full)


def test_a_new_memo_file_has_every_block_reserved_on_the_disk(tmp_path):
    # a sparse file took its blocks as slots were written: once the disk had
    # filled meanwhile, a worker writing a slot died of SIGBUS
    memo = open_memo(8, 4.0, directory=tmp_path)
    st = memo.path.stat()
    assert st.st_size == round(memo.mib * 2**20) > 4 * 2**20
    assert st.st_blocks * 512 >= st.st_size


def test_a_disk_without_room_gets_no_memo_file_and_one_line_naming_it_and_its_size(
        tmp_path, monkeypatch):
    size = open_memo(8, 4.0, directory=tmp_path / "roomy").path.stat().st_size
    no_room(monkeypatch)
    with pytest.raises(NoRoomForMemo) as err:
        open_memo(8, 4.0, directory=tmp_path / "full")
    assert str(err.value) == (
        f"no room for the memo file {memo_path(8, 4.0, tmp_path / 'full')}: its 4 MiB "
        f"({size:,} bytes) cannot be reserved on the disk (No space left on device)")
    assert list((tmp_path / "full").iterdir()) == []         # nor its temporary


def test_a_worker_whose_disk_has_no_room_counts_with_its_own_table(tmp_path, monkeypatch, capsys,
                                                                   forget_counters):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    forget_counters()                            # as a new process would
    no_room(monkeypatch)
    counter = factor_api.process_counter(8, 64.0)
    assert counter.memo_file is None and counter.count(K8, 8) == L8
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no room for the memo file" in err
    assert list((tmp_path / "gridcount").iterdir()) == []


# --- issue 38 item 1: regular files only, never a wait ----------------------

@pytest.mark.parametrize("what, make", [("a FIFO", os.mkfifo), ("a directory", os.mkdir)])
def test_something_not_a_regular_file_at_the_memo_path_is_refused_in_one_line_never_waited_on(
        tmp_path, monkeypatch, capsys, fails_instead_of_hanging, what, make, forget_counters):
    """A FIFO at the memo path made ``count 1x9`` hang with no output (its
    line on the memo waited for a writer): it is refused as a file of
    another kernel is, and each process counts with its own table, as then."""
    from factorization.memo_file import describe
    path = memo_path(8, 64.0, tmp_path / "gridcount")
    path.parent.mkdir()
    make(path)
    refused = f"{path} is {what}, not a regular file; not read"
    assert describe(8, 64.0, path.parent) == f"{refused}: each worker keeps its own"
    with pytest.raises(MemoFileError) as err:
        open_memo(8, 64.0, directory=path.parent)
    assert str(err.value) == refused
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    forget_counters()                            # as a new process would
    counter = factor_api.process_counter(8, 64.0)
    assert counter.memo_file is None and counter.count(K8, 8) == L8
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{what}, not a regular file" in err


# --- issue 38 item 8: the count of classes is checked, never believed -------

def _count_in_file(path):
    return struct.unpack_from("<Q", path.read_bytes(), COUNT_OFFSET)[0]


def _set_count(path, value):
    with open(path, "r+b") as f:
        f.seek(COUNT_OFFSET)
        f.write(struct.pack("<Q", value))


@pytest.mark.parametrize("damage", [lambda slots: 2**64 - 1, lambda slots: 2**63,
                                    lambda slots: 3 * slots // 4, lambda slots: slots],
                         ids=["2^64-1", "2^63", "full", "every slot"])
def test_a_count_of_classes_the_slots_disagree_with_is_counted_again_and_the_table_stores(
        tmp_path, capsys, monkeypatch, damage, forget_counters):
    """The count is outside the header's checksum (every process adds to
    it): set to 2^64 - 1, ``count`` printed 18,446,744,073,709,551,615
    classes (1759218604441600.0 % full), and a count that made the table
    look full had it store nothing on every later run."""
    from factorization.memo_file import describe
    graphs = _graphs(1)
    first = FactorizationCounter(8, memo_file=open_memo(8, 4.0, directory=tmp_path))
    expected = [first.count(a, d) for a, d in graphs]
    path = memo_path(8, 4.0, tmp_path)
    _, slots = _slots(path)
    claimed = int(np.count_nonzero(slots["state"]))
    assert 10 < claimed == _count_in_file(path) < 2**16 // 4
    damaged = damage(2**16)
    _set_count(path, damaged)
    said = describe(8, 4.0, tmp_path)
    assert f"its count of classes ({damaged:,}) disagrees with its slots" in said
    assert "% full" not in said
    memo = open_memo(8, 4.0, directory=tmp_path)
    assert memo.recounted == (damaged, claimed) and _count_in_file(path) == claimed
    assert describe(8, 4.0, tmp_path).startswith(f"4 MiB (65,536 slots), {claimed:,} classes")
    again = FactorizationCounter(8, memo_file=memo)
    assert [again.count(a, d) for a, d in graphs] == expected and again.count(K8, 8) == L8
    st = again.stats()
    assert st["dropped"] == 0 and st["entries"] > claimed      # K_8's classes are stored
    # a worker that finds it so says it in one line
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    forget_counters()                            # as a new process would
    shared = memo_path(8, 64.0, tmp_path / "gridcount")
    FactorizationCounter(8, memo_file=open_memo(8, 64.0, directory=shared.parent)).count(K8, 8)
    capsys.readouterr()
    damaged = damage(2**20)
    _set_count(shared, damaged)
    factor_api.process_counter(8, 64.0)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"said it held {damaged:,} classes" in err


def _open_pausing_before_the_recount(directory, started, go, out):
    import factorization.memo_file as memo_file
    recount = memo_file.recount_claimed

    def paused(buffer):
        started.set()
        go.wait(120)
        return recount(buffer)
    memo_file.recount_claimed = paused
    out.put(("first", open_memo(8, 4.0, directory=directory).recounted))


def _open_memo_into(directory, out):
    out.put(("second", open_memo(8, 4.0, directory=directory).recounted))


@needs_proc_locks
def test_workers_that_open_a_memo_file_at_once_count_it_again_once(tmp_path):
    """``count`` starts its workers at once and each finds the damaged count:
    two counting again at the same time would each take the damage off it
    (2 x claimed - 2^64 + 1).  The second waits for the first and finds the
    count right.  The first is let go on only once the second is seen waiting
    for its lock, or has answered (it did not wait), on a machine of any speed."""
    FactorizationCounter(8, memo_file=open_memo(8, 4.0, directory=tmp_path)).count(K8, 8)
    path = memo_path(8, 4.0, tmp_path)
    claimed = _count_in_file(path)
    _set_count(path, 2**64 - 1)
    ctx = multiprocessing.get_context("fork")
    started, go, out = ctx.Event(), ctx.Event(), ctx.Queue()
    first = ctx.Process(target=_open_pausing_before_the_recount,
                        args=(tmp_path, started, go, out))
    first.start()
    second = None
    try:
        assert started.wait(60)
        second = ctx.Process(target=_open_memo_into, args=(tmp_path, out))
        second.start()
        wait_until(lambda: waits_for_a_lock(second.pid) or not out.empty(),
                   "the second opener neither waited for the first nor answered")
    finally:
        go.set()
    results = [out.get(timeout=60) for _ in range(2)]
    for p in (first, second):
        p.join(timeout=60)
    assert dict(results) == {"first": (2**64 - 1, claimed), "second": None}
    assert _count_in_file(path) == claimed


def test_a_plausible_count_is_believed_and_not_counted_again(tmp_path):
    first = FactorizationCounter(8, memo_file=open_memo(8, 4.0, directory=tmp_path))
    first.count(K8, 8)
    path = memo_path(8, 4.0, tmp_path)
    _set_count(path, _count_in_file(path) - 1)    # killed between claiming a slot and counting it
    assert open_memo(8, 4.0, directory=tmp_path).recounted is None


# --- issue 38 item 7: temporaries of killed processes are removed -----------

def _killed_while_making_the_memo(directory, memo_mb):
    """A process killed (SIGKILL) while it reserves the blocks of a new memo file."""
    def killed(fd, offset, length):
        os.kill(os.getpid(), signal.SIGKILL)
    os.posix_fallocate = killed
    open_memo(8, memo_mb, directory=directory)


def _making_the_memo_until_told(directory, started, go):
    real = os.posix_fallocate

    def waits(fd, offset, length):
        started.set()
        go.wait(120)
        real(fd, offset, length)
    os.posix_fallocate = waits
    open_memo(8, 4.0, directory=directory)


def _temporary_of(pid, memo_mb, directory):
    return directory / f".{memo_path(8, memo_mb, directory).name}.{pid}.tmp"


@pytest.mark.parametrize("memo_mb", [4.0, 1.0], ids=["this memo file", "another size"])
def test_the_temporary_of_a_process_killed_while_making_a_memo_file_is_removed(
        tmp_path, memo_mb):
    """Issue 38: a kill while the memo file was made left a hidden,
    fully reserved ``.factor-memo-....bin.PID.tmp`` (64 MiB each) that no
    later run removed."""
    ctx = multiprocessing.get_context("fork")
    p = ctx.Process(target=_killed_while_making_the_memo, args=(tmp_path, memo_mb))
    p.start()
    p.join(timeout=60)
    assert p.exitcode == -signal.SIGKILL
    left = _temporary_of(p.pid, memo_mb, tmp_path)
    assert [q.name for q in tmp_path.iterdir()] == [left.name]
    memo = open_memo(8, 4.0, directory=tmp_path)          # the next run, of either size
    assert memo.created and [q.name for q in tmp_path.iterdir()] == [memo.path.name]


def test_the_temporary_of_a_live_process_making_a_memo_file_is_never_removed(tmp_path):
    ctx = multiprocessing.get_context("fork")
    started, go = ctx.Event(), ctx.Event()
    p = ctx.Process(target=_making_the_memo_until_told, args=(tmp_path, started, go))
    p.start()
    try:
        assert started.wait(60)
        tmp = _temporary_of(p.pid, 4.0, tmp_path)
        os.utime(tmp, (0, 0))                  # however old it looks
        assert remove_stale_temporaries(tmp_path) == []
        memo = open_memo(8, 4.0, directory=tmp_path)       # another process, meanwhile
        assert memo.created and tmp.exists()
    finally:
        go.set()
        p.join(timeout=60)
    assert p.exitcode == 0 and [q.name for q in tmp_path.iterdir()] == [memo.path.name]


def test_an_unlocked_temporary_whose_pid_is_alive_is_removed_only_once_an_hour_old(tmp_path):
    """Its PID reused by another process since: young, it may be a file
    its maker has not locked yet; an hour old, it is a dead process's."""
    tmp = _temporary_of(os.getpid(), 4.0, tmp_path)
    tmp.write_bytes(b"\0" * 4096)
    assert remove_stale_temporaries(tmp_path) == [] and tmp.exists()
    os.utime(tmp, (time.time() - 2 * 3600,) * 2)
    assert remove_stale_temporaries(tmp_path) == [tmp] and not tmp.exists()
