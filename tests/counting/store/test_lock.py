"""Tests for counting/store/lock.py: one counting run per store."""
from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap

import pytest

from counting.store.database import StoreError, StoreLock, StoreLockedError


@pytest.fixture
def db(tmp_path):
    return tmp_path / "s.sqlite"


def test_a_held_lock_refuses_a_second_holder_naming_the_first(db):
    with StoreLock.acquire(db) as lock:
        assert lock.held and lock.path == db.parent / "s.sqlite.lock"
        with pytest.raises(StoreLockedError) as exc_info:
            StoreLock.acquire(db)
        message = str(exc_info.value)
        assert "\n" not in message
        assert message.startswith(f"{db} is being counted by another process "
                                  f"(pid {os.getpid()} on host {socket.gethostname()} since ")
    assert not lock.held and not lock.path.exists()
    with StoreLock.acquire(db):            # released: free again
        pass


def test_the_lock_file_names_its_holder(db):
    with StoreLock.acquire(db) as lock:
        info = json.loads(lock.path.read_text())
    assert info["pid"] == os.getpid() and info["host"] == socket.gethostname()


def test_release_is_idempotent(db):
    lock = StoreLock.acquire(db)
    lock.release()
    lock.release()
    assert not lock.held and not lock.path.exists()


def test_a_lock_file_removed_while_it_is_being_locked_is_not_trusted(db, monkeypatch):
    first = StoreLock.acquire(db)
    real, calls = fcntl.flock, []

    def holder_ends_meanwhile(fd, operation):
        # the first holder releases (and removes the file) between our
        # open() of the file and our flock() of it
        if not calls:
            first.release()
        calls.append(fd)
        return real(fd, operation)
    monkeypatch.setattr(fcntl, "flock", holder_ends_meanwhile)
    second = StoreLock.acquire(db)
    monkeypatch.undo()
    assert len(calls) == 2        # the removed file was locked, then left for a new one
    with pytest.raises(StoreLockedError):
        StoreLock.acquire(db)      # so nobody else can lock a third file meanwhile
    second.release()


# Holds the lock until it is killed (or its standard input is closed): not
# for a fixed time, which a loaded machine's test could outlast.
_HOLDER = textwrap.dedent("""
    import sys
    from counting.store.database import StoreLock
    lock = StoreLock.acquire(sys.argv[1])
    print("locked", flush=True)
    sys.stdin.read()
""")


def test_a_lock_whose_holder_was_killed_is_free(db):
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(StoreLockedError, match=f"pid {holder.pid} "):
            StoreLock.acquire(db)
        holder.send_signal(signal.SIGKILL)
        assert holder.wait(timeout=30) == -signal.SIGKILL
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
        holder.stdin.close()
        holder.stdout.close()
    assert db.with_name("s.sqlite.lock").exists()   # left behind, but nobody holds it
    with StoreLock.acquire(db) as lock:
        assert json.loads(lock.path.read_text())["pid"] == os.getpid()


def test_a_lock_in_a_missing_directory_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        StoreLock.acquire(tmp_path / "no" / "s.sqlite")


# ---------------------------------------------------------------------------
# The lock is the file's, not its name's (issue 26, item 11).

def test_a_store_locked_under_one_name_is_locked_under_every_other(tmp_path, db):
    from store_samples import make_job, write_store
    write_store(db, make_job(), [0])
    (tmp_path / "link.sqlite").symlink_to(db)
    (tmp_path / "dir-link").symlink_to(tmp_path, target_is_directory=True)
    os.link(db, tmp_path / "hard.sqlite")
    with StoreLock.acquire(db):
        for other in (tmp_path / "link.sqlite", tmp_path / "hard.sqlite",
                      tmp_path / "dir-link" / "s.sqlite"):
            with pytest.raises(StoreLockedError, match=f"pid {os.getpid()} "):
                StoreLock.acquire(other)
    with StoreLock.acquire(tmp_path / "hard.sqlite"):
        with pytest.raises(StoreLockedError):
            StoreLock.acquire(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir-link", "hard.sqlite",
                                                           "link.sqlite", "s.sqlite"]


def test_a_store_not_created_yet_is_locked_through_a_symlink_too(tmp_path, db):
    (tmp_path / "link.sqlite").symlink_to(db)      # dangling until the count creates it
    with StoreLock.acquire(tmp_path / "link.sqlite"):
        with pytest.raises(StoreLockedError):
            StoreLock.acquire(db)


def _hold(path, env=None):
    """A process of its own holding the lock of ``path`` until killed
    (with the environment ``env`` if given)."""
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=env)
    assert holder.stdout.readline().strip() == "locked"
    return holder


def _end(holder):
    if holder.poll() is None:
        holder.kill()
    holder.wait()
    holder.stdin.close()
    holder.stdout.close()


def test_a_hard_link_in_another_directory_is_the_same_store(tmp_path):
    # issue 26.11: the inode lock lived in the store's directory, so a
    # second count through a hard link elsewhere ran alongside the first
    from store_samples import make_job, write_store
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    db, other = tmp_path / "a" / "s.sqlite", tmp_path / "b" / "t.sqlite"
    write_store(db, make_job(), [0])
    os.link(db, other)
    holder = _hold(db)
    try:
        with pytest.raises(StoreLockedError) as exc_info:
            StoreLock.acquire(other)
        assert f"pid {holder.pid} " in str(exc_info.value)
        assert f"as {db}" in str(exc_info.value)        # the name the holder uses
    finally:
        _end(holder)
    with StoreLock.acquire(other):                      # kill -9 released it
        with pytest.raises(StoreLockedError):
            StoreLock.acquire(db)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "s.sqlite", "t.sqlite"]


def test_a_store_created_under_the_lock_is_locked_by_its_inode_from_then_on(tmp_path, db):
    from store_samples import make_job, write_store
    (tmp_path / "b").mkdir()
    with StoreLock.acquire(db) as lock:          # taken before the store exists
        write_store(db, make_job(), [0])
        os.link(db, tmp_path / "b" / "t.sqlite")
        lock.hold_file()
        with pytest.raises(StoreLockedError):
            StoreLock.acquire(tmp_path / "b" / "t.sqlite")


def test_a_store_made_anew_under_the_lock_is_locked_by_its_new_inode(tmp_path, db):
    # --fresh deletes the store and creates another file: another inode
    from store_samples import make_job, write_store
    (tmp_path / "b").mkdir()
    write_store(db, make_job(), [0])
    with StoreLock.acquire(db) as lock:
        db.rename(tmp_path / "old.sqlite")      # kept, so the new file has another inode
        write_store(db, make_job(), [1])
        lock.hold_file()
        os.link(db, tmp_path / "b" / "t.sqlite")
        with pytest.raises(StoreLockedError):
            StoreLock.acquire(tmp_path / "b" / "t.sqlite")


_TRY = textwrap.dedent("""
    import sys
    from counting.store.database import StoreLock, StoreLockedError
    try:
        StoreLock.acquire(sys.argv[1]).release()
    except StoreLockedError as e:
        print("refused:", e)
    else:
        print("locked")
""")


def _environment(tmp_path, name):
    """This process's environment with a runtime and a temporary directory of its own."""
    runtime, tmp = tmp_path / name / "runtime", tmp_path / name / "tmp"
    runtime.mkdir(parents=True, mode=0o700)
    tmp.mkdir()
    return {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "TMPDIR": str(tmp)}


def test_a_hard_link_is_the_same_store_whatever_the_environment_of_each_process(tmp_path):
    # issue 38.6: the lock of the store's inode lived in $XDG_RUNTIME_DIR, so
    # a count from cron and one from a login shell (other XDG_RUNTIME_DIR)
    # through hard links in two directories both ran
    from store_samples import make_job, write_store
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    db, other = tmp_path / "a" / "s.sqlite", tmp_path / "b" / "t.sqlite"
    write_store(db, make_job(), [0])
    os.link(db, other)
    holder = _hold(db, env=_environment(tmp_path, "shell"))
    try:
        second = subprocess.run([sys.executable, "-c", _TRY, str(other)], capture_output=True,
                                text=True, timeout=60, env=_environment(tmp_path, "cron"))
        assert second.returncode == 0, second.stderr
        assert second.stdout.startswith(f"refused: {other} is being counted by another "
                                        f"process (pid {holder.pid} "), second.stdout
        assert f"as {db}" in second.stdout
    finally:
        _end(holder)


def test_the_lock_writes_nothing_outside_the_stores_directory(tmp_path, monkeypatch):
    env = _environment(tmp_path, "env")
    monkeypatch.setenv("XDG_RUNTIME_DIR", env["XDG_RUNTIME_DIR"])
    monkeypatch.setenv("TMPDIR", env["TMPDIR"])
    from store_samples import make_job, write_store
    db = tmp_path / "s.sqlite"
    write_store(db, make_job(), [0])
    with StoreLock.acquire(db):
        assert list((tmp_path / "env").rglob("*.lock")) == []
