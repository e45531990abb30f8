"""How a unit is counted: one frozen value passed from the CLI to every worker.

:class:`CountOptions` is the single home of the engine switches that a
counting job exposes (``--no-memo``, ``--no-tail``, ``--memo-mb``).  It is
validated once, when it is made, so a bad value is refused before any store
is opened or deleted; the local pool, the Dask pool, ``recount`` and
``verify`` all receive the same value and hand it to
:func:`counting.run.counter.count_unit` unchanged.  Counts never depend on
these options, only speed does.

Example
-------
>>> CountOptions().tail_enabled
True
>>> CountOptions(memo=False).tail_enabled
False
"""
from __future__ import annotations

from dataclasses import dataclass

from dlx.api import check_memo_mb

__all__ = ["CountOptions", "KERNELS"]

KERNELS = ("auto", "factorization", "search")


@dataclass(frozen=True)
class CountOptions:
    """Engine switches for counting units.

    Attributes
    ----------
    memo : bool
        Memoize subproblem counts at row ends (default on).
    memo_mb : float
        Memo table size per worker, in MiB (finite, > 0, at most the
        machine's memory: :func:`dlx.api.check_memo_mb`).
    tail : bool or None
        Count the last band in closed form; ``None`` follows ``memo``, so
        ``memo=False`` alone is plain dancing links throughout.
    kernel : {"auto", "factorization", "search"}
        How a unit that can be counted in closed form is counted: by the
        1-factorization kernel where it applies (``"auto"``, the default, or
        ``"factorization"``), or searched by dancing links (``"search"``,
        the independent check).
    shared_memo : bool
        The 1-factorization kernel's memo table is a file shared by the
        workers of this machine and kept across runs
        (:mod:`factorization.memo_file`; default), or private to each worker.
    """

    memo: bool = True
    memo_mb: float = 16.0
    tail: bool | None = None
    kernel: str = "auto"
    shared_memo: bool = True

    def __post_init__(self):
        if self.kernel not in KERNELS:
            raise ValueError(f"CountOptions.kernel must be one of {', '.join(KERNELS)}, "
                             f"got {self.kernel!r}")
        for name in ("memo", "tail", "shared_memo"):
            v = getattr(self, name)
            if not (isinstance(v, bool) or (name == "tail" and v is None)):
                raise ValueError(f"CountOptions.{name} must be a bool, got {v!r}")
        object.__setattr__(self, "memo_mb", check_memo_mb(self.memo_mb))

    @property
    def tail_enabled(self) -> bool:
        """Whether the closed-form tail is asked for (``tail``, else ``memo``)."""
        return self.memo if self.tail is None else self.tail

    @property
    def searching(self) -> bool:
        """Whether units are to be searched even where a kernel counts them."""
        return self.kernel == "search"

    def engine_arguments(self, ec) -> dict:
        """The keyword arguments of ``ec.count`` (and of the estimator) these
        options stand for: the one place they become engine switches.  The
        tail is used where it is asked for and ``ec`` has one."""
        return {"memo": self.memo, "memo_mb": self.memo_mb,
                "tail": self.tail_enabled and ec.has_tail}
