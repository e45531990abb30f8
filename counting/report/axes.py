"""The axes of the report's charts: where their ticks go and how they read.

Pure functions choose the ticks and write their labels, so that they can be
tested without drawing: :func:`log_ticks` (the labelled ticks of a log
axis), :func:`tick_labels` (one notation for every label of an axis: plain
numbers with thousands separators, or powers of ten when one of them would
be too long or too small for plain digits, never a mix of ``1,000,000,000``
and ``10¹²``, or of ``1e-05`` and ``1,000``) and :func:`class_tick_step` (a
round step between class ids whose labels fit the axis side by side).  The
``set_*`` functions put them on a matplotlib axis.
"""
from __future__ import annotations

import math

__all__ = ["log_ticks", "tick_label", "tick_labels", "class_tick_step", "MOST_TICKS",
           "set_log_axis", "set_thousands", "set_integer_y", "set_class_ticks"]

#: Steps between the labelled ticks of a log axis, coarsest first.
_MANTISSAS = ((1,), (1, 3), (1, 2, 5), (1, 1.5, 2, 3, 5, 7))
MOST_TICKS = 8   # labelled ticks on a log axis, at most
#: Plain digits from this value up to :data:`PLAIN_BELOW`; an axis with a tick
#: outside writes every tick as a power of ten.
PLAIN_FROM = 0.001
PLAIN_BELOW = 1e10


def log_ticks(lo: float, hi: float) -> list[float]:
    """Labelled ticks for a log axis over ``[lo, hi]`` (``0 < lo <= hi``): the
    coarsest steps (decades, then 1-3, then 1-2-5, ...) that put at least
    three ticks in the range, and the nearest step below and above it, so
    that every value lies between two labels (the axis is widened to show
    them); at most :data:`MOST_TICKS` of them (every other decade, ... over
    a wide range).  Values of 1 or more are counts: no tick between integers.

    >>> log_ticks(1, 2e6)
    [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000]
    >>> log_ticks(3.2e5, 9.1e5)
    [300000, 500000, 700000, 1000000]
    >>> log_ticks(600, 900)
    [500, 700, 1000]
    >>> log_ticks(1, 1)
    [1, 2]
    >>> log_ticks(1, 2e16)
    [1, 1000, 1000000, 1000000000, 1000000000000, 1000000000000000, 1000000000000000000]
    """
    if not (0 < lo <= hi) or not math.isfinite(hi):
        raise ValueError(f"a log axis needs 0 < lo <= hi, got {lo!r}, {hi!r}")
    first, last = math.floor(math.log10(lo)), math.floor(math.log10(hi))
    for mantissas in _MANTISSAS:
        steps = [_exact(m, k) for k in range(first - 1, last + 2) for m in mantissas]
        if lo >= 1:   # counts: no tick between integers (1.5 nodes)
            steps = [t for t in steps if float(t).is_integer()]
        inside = [t for t in steps if lo <= t <= hi]
        if len(inside) >= 3 or mantissas == _MANTISSAS[-1]:
            break
    few = len(inside) < 3
    below = [t for t in steps if t < lo][-1:] if few or inside[0] > lo else []
    above = [t for t in steps if t > hi][:1] if few or inside[-1] < hi else []
    ticks = below + inside + above
    every = -(-len(ticks) // MOST_TICKS)
    kept = ticks[::every]
    if kept[-1] < hi:   # thinned: one more step of the same ratio, above the values
        a, b = kept[-2], kept[-1]
        kept.append(b * b // a if isinstance(a, int) and isinstance(b, int) else b * b / a)
    return kept


def _exact(m: float, k: int):
    """``m · 10^k`` as an int where it is one (labels without ``.0``)."""
    v = m * 10 ** k if k >= 0 else m / 10 ** -k     # 0.15, not 0.15000000000000002
    return int(round(v)) if k >= 0 and float(v).is_integer() else v


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def tick_label(value: float, power: bool | None = None) -> str:
    """A tick as people read it: plain (``"500"``, ``"1,500,000"``,
    ``"0.05"``) or as a power of ten (``"2×10¹²"``, ``"10⁻⁵"``).  ``power``
    None chooses by the value alone (powers outside :data:`PLAIN_FROM` ..
    :data:`PLAIN_BELOW`); an axis passes its one choice (:func:`tick_labels`).

    >>> tick_label(1500000), tick_label(2e12), tick_label(0.05), tick_label(1e-5)
    ('1,500,000', '2×10¹²', '0.05', '10⁻⁵')
    >>> tick_label(1000, power=True), tick_label(1, power=True), tick_label(0, power=True)
    ('10³', '10⁰', '0')
    """
    if power is None:
        power = value != 0 and not PLAIN_FROM <= abs(value) < PLAIN_BELOW
    if power and value > 0:
        k = math.floor(math.log10(value))
        mant = f"{value / 10 ** k:.2g}"
        if mant == "10":   # 9.99...×10^k rounded up
            k, mant = k + 1, "1"
        return ("" if mant == "1" else f"{mant}×") + "10" + str(k).translate(_SUPERSCRIPT)
    if value >= 1 or value == 0:
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,g}"
    return f"{value:.12f}".rstrip("0")   # 0.00015, never 1.5e-04


def tick_labels(ticks) -> list[str]:
    """The labels of one axis's ticks, all in one notation: powers of ten
    when any positive tick lies outside :data:`PLAIN_FROM` ..
    :data:`PLAIN_BELOW`, else plain numbers.

    >>> tick_labels([1, 1000, 1e6, 1e9, 1e12])
    ['10⁰', '10³', '10⁶', '10⁹', '10¹²']
    >>> tick_labels([1e-5, 0.001, 0.1, 10, 1000])
    ['10⁻⁵', '10⁻³', '10⁻¹', '10¹', '10³']
    >>> tick_labels([0.001, 0.1, 10, 1000])
    ['0.001', '0.1', '10', '1,000']
    """
    power = any(t > 0 and not PLAIN_FROM <= t < PLAIN_BELOW for t in ticks)
    return [tick_label(t, power) for t in ticks]


def class_tick_step(n_classes: int, widest: int, axis_points: float, font_points: float,
                    most: int = 20) -> int:
    """The step between labelled classes on an axis ``axis_points`` wide:
    the smallest round step (1, 2, 5, 10, 20, ...) that leaves at most
    ``most`` labels, each ``widest`` characters of ``font_points`` type and
    two characters of space between them fitting side by side.

    >>> class_tick_step(71, 2, 576, 10)
    5
    >>> class_tick_step(1155, 4, 576, 10)       # 1x10's classes on the 10-inch chart
    100
    """
    room = widest + 2                          # characters, with the gap
    fit = max(1, int(axis_points // (room * 0.6 * font_points)))   # a digit: about 0.6 em
    least = n_classes / min(most, fit)
    k = 0
    while True:
        for m in (1, 2, 5):
            if m * 10 ** k >= least:
                return m * 10 ** k
        k += 1


# ---------------------------------------------------------------------------
# on a matplotlib axis

def set_log_axis(ax, which: str, lo: float, hi: float) -> None:
    """Axis ``which`` (``"x"`` or ``"y"``) of ``ax`` on a log scale over
    ``[lo, hi]``, widened so that every labelled tick of :func:`log_ticks`
    shows, the labels in one notation (:func:`tick_labels`)."""
    from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter
    getattr(ax, f"set_{which}scale")("log")
    ticks = log_ticks(lo, hi)
    getattr(ax, f"set_{which}lim")(min(ticks[0], lo) / 1.2, max(ticks[-1], hi) * 1.2)
    axis = getattr(ax, f"{which}axis")
    axis.set_major_locator(FixedLocator([float(t) for t in ticks]))
    axis.set_major_formatter(FixedFormatter(tick_labels(ticks)))
    axis.set_minor_formatter(NullFormatter())


def set_thousands(ax, which: str = "y") -> None:
    """Plain numbers with thousands separators on the y (or x) axis (no 1e6
    notation): 140,000 units, 8,000 s."""
    from matplotlib.ticker import FuncFormatter
    axis = getattr(ax, f"{which}axis")
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))


def set_integer_y(ax, nbins="auto") -> None:
    """Integer ticks on the y axis."""
    from matplotlib.ticker import MaxNLocator
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=nbins))


def set_class_ticks(ax, classes, most: int = 20) -> None:
    """Class ids as x tick labels at a round step (:func:`class_tick_step`)
    that fits the axis's width, and the axis over every class of the job,
    counted or not (a partial store's chart still spans them all)."""
    from matplotlib.font_manager import FontProperties
    import matplotlib
    inches = ax.get_position().width * ax.figure.get_figwidth()
    size = FontProperties(size=matplotlib.rcParams["xtick.labelsize"]).get_size_in_points()
    step = class_tick_step(len(classes), max(len(str(c)) for c in classes), inches * 72, size,
                           most)
    ax.set_xticks(range(0, len(classes), step))
    ax.set_xticklabels([str(classes[i]) for i in range(0, len(classes), step)])
    ax.set_xlim(-0.5 - len(classes) / 100, len(classes) - 0.5 + len(classes) / 100)
