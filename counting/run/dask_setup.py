"""A Dask run's setup, checked before anything starts: the ``--scheduler``
address (:func:`parse_scheduler`), the ``--wait-workers`` value
(:func:`check_wait_workers`, default :data:`WAIT_WORKERS`) and the errors of
:mod:`counting.run.dask_pool`, one line each, saying what to do.  Light to
import (the standard library only), so that ``gridcount count --help`` and
the checks of its options need neither Dask nor the pool."""
from __future__ import annotations

import math
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["parse_scheduler", "check_wait_workers", "Scheduler", "DaskPoolError",
           "DaskUnavailable", "SchedulerUnreachable", "NoWorkers", "EngineMismatch",
           "WorkerSetupError", "UnitFailed", "WAIT_WORKERS"]

WAIT_WORKERS = 300.0      # seconds a run waits while the scheduler has no worker


# ---------------------------------------------------------------------------
# Errors: one line each, saying what to do.

class DaskPoolError(Exception):
    """Base class of every error raised by this module."""


class DaskUnavailable(DaskPoolError, ImportError):
    """``distributed`` is not installed."""


class SchedulerUnreachable(DaskPoolError, ConnectionError):
    """No scheduler answered at the address."""


class NoWorkers(DaskPoolError):
    """The scheduler has had no worker for ``wait_workers`` seconds."""


class EngineMismatch(DaskPoolError):
    """A worker counts with another engine version than the client."""


class WorkerSetupError(DaskPoolError):
    """A worker cannot run gridcount at all (not installed, broken build)."""


class UnitFailed(DaskPoolError):
    """A unit raised on its worker, killed too many workers, or was cancelled."""


# ---------------------------------------------------------------------------
# Scheduler addresses

@dataclass(frozen=True)
class Scheduler:
    """A parsed ``--scheduler`` value.

    Attributes
    ----------
    kind : {"tcp", "local"}
        ``"tcp"``: connect to a running scheduler; ``"local"``: start a
        ``LocalCluster`` of worker processes on this machine.
    address : str or None
        ``"tcp://HOST:PORT"`` for ``kind="tcp"``.
    n_workers : int or None
        Worker processes of a local cluster (``None``: one per core).
    """

    kind: str
    address: str | None = None
    n_workers: int | None = None


_FORMS = "use tcp://HOST:PORT, local or local:N"


def parse_scheduler(text: str) -> Scheduler:
    """Parse ``tcp://HOST:PORT``, ``local`` or ``local:N``.

    Raises
    ------
    ValueError
        Anything else, with the accepted forms in the message.

    Example
    -------
    >>> parse_scheduler("local")
    Scheduler(kind='local', address=None, n_workers=None)
    >>> parse_scheduler("localhost:8786")
    Traceback (most recent call last):
    ...
    ValueError: scheduler address 'localhost:8786' has no scheme: did you mean tcp://localhost:8786?
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"empty scheduler address: {_FORMS}")
    text = text.strip()
    if text == "local":
        return Scheduler("local")
    if text.startswith("local:"):
        n = text[len("local:"):]
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"bad scheduler {text!r}: local:N needs a worker count N >= 1")
        return Scheduler("local", n_workers=int(n))
    if "://" not in text:
        raise ValueError(f"scheduler address {text!r} has no scheme: did you mean tcp://{text}?")
    parts = urlsplit(text)
    if parts.scheme != "tcp":
        raise ValueError(f"unsupported scheduler address {text!r}: {_FORMS}")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad port in scheduler address {text!r}: "
                         f"expected a number 1..65535") from None
    if not parts.hostname or port is None or port == 0:
        raise ValueError(f"scheduler address {text!r} needs a host and a port: "
                         f"tcp://HOST:PORT (dask scheduler listens on 8786)")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"unexpected parts in scheduler address {text!r}: {_FORMS}")
    return Scheduler("tcp", address=f"tcp://{parts.netloc}")


def check_wait_workers(seconds) -> float:
    """Validate ``--wait-workers``: a finite number of seconds >= 0.

    Example
    -------
    >>> check_wait_workers(300)
    300.0
    >>> check_wait_workers(float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: the wait for workers must be a finite number of seconds >= 0, got nan
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"the wait for workers must be a finite number of seconds >= 0, "
                         f"got {seconds!r}")
    return float(seconds)
