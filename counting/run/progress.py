"""The progress bar of a counting run, which advances by estimated work.

Units differ in cost by a factor of five on 9×9 and are handed out longest
first, so a bar that counts units runs slow at the start and fast at the
end, and an ETA drawn from it jumps.  This bar advances by each unit's
estimated share of the work (:func:`counting.run.counter.estimate_work`) and
prints, after the bar::

    412/710 units · 9.8 units/s · ETA 0:21

* ``412/710 units`` — units in the store out of the units asked for
  (resumed units count as done);
* ``units/s`` — units finished per second by this run so far;
* ``ETA`` — the work still to do at the rate this run has done work so
  far (``--:--`` until the first unit finishes).

The percentage is the share of estimated work done.  No grid total is shown
while the run goes: a partial weighted sum is not a count of anything.
"""
from __future__ import annotations

import time
from typing import Iterable

__all__ = ["Progress", "status_text", "format_duration"]

_SCALE = 1000  # bar positions: work shares are drawn in thousandths


def format_duration(seconds: float | None) -> str:
    """``M:SS`` or ``H:MM:SS``; ``--:--`` for an unknown duration.

    >>> format_duration(21.4), format_duration(3725), format_duration(None)
    ('0:21', '1:02:05', '--:--')
    """
    if seconds is None or seconds != seconds or seconds == float("inf"):
        return "--:--"
    s = int(round(max(seconds, 0.0)))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def status_text(units_done: int, units_total: int, units_now: int, work_now: float,
                work_left: float, elapsed: float) -> str:
    """The text after the bar (see the module docstring).

    ``units_now`` and ``work_now`` are what this run has finished (work as
    shares of the job), ``work_left`` the share still to do.

    >>> status_text(412, 710, 402, 0.5, 0.25, 40.0)
    '412/710 units · 10.1 units/s · ETA 0:20'
    """
    rate = units_now / elapsed if elapsed > 0 else 0.0
    eta = work_left * elapsed / work_now if work_now > 0 else None
    return f"{units_done:,}/{units_total:,} units · {rate:,.1f} units/s · ETA {format_duration(eta)}"


class Progress:
    """A tqdm bar over the units of one run.

    Parameters
    ----------
    label : str
        Shown before the bar (``"3x3 r71"``).
    shares : dict of int to float
        Estimated share of work of every unit asked for (summing to 1).
    done : iterable of int
        Units already in the store.
    enabled : bool or None
        ``True`` always draws (stderr), ``False`` never, ``None`` only on a terminal.
    """

    def __init__(self, label: str, shares: dict[int, float], done: Iterable[int],
                 enabled: bool | None):
        from tqdm import tqdm

        done = set(done) & set(shares)
        self._shares = shares
        self._units_total = len(shares)
        self._units_done = len(done)
        self._work_left = max(0.0, 1.0 - sum(shares[u] for u in done))
        self._units_now = 0
        self._work_now = 0.0
        self._t0 = time.perf_counter()
        self.position = round(_SCALE * (1.0 - self._work_left))  # thousandths of the work done
        self.bar = tqdm(total=_SCALE, initial=self.position,
                        desc=label, bar_format=self._format(),
                        disable=(None if enabled is None else not enabled), dynamic_ncols=True)

    def _format(self) -> str:
        # the status goes into the format itself: tqdm's postfix field
        # would put ", " in front of it
        return "{desc} {percentage:3.0f}%|{bar}| " + self.text().replace("{", "{{").replace("}", "}}")

    def text(self) -> str:
        return status_text(self._units_done, self._units_total, self._units_now,
                           self._work_now, self._work_left, time.perf_counter() - self._t0)

    def advance(self, unit_id: int) -> None:
        """One more unit finished by this run."""
        share = self._shares.get(unit_id, 0.0)
        self._units_now += 1
        self._units_done += 1
        self._work_now += share
        self._work_left = max(0.0, self._work_left - share)
        target = round(_SCALE * (1.0 - self._work_left)) if self._units_done < self._units_total \
            else _SCALE
        self.bar.bar_format = self._format()
        self.bar.update(max(0, target - self.position))
        self.position = max(self.position, target)

    def write(self, message: str) -> None:
        """Print a line of the run's results on stdout, above the bar (drawn on stderr)."""
        self.bar.write(message)

    def close(self) -> None:
        self.bar.close()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
