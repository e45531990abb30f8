"""Specification of counting/report/charts.py: what the charts draw, read
back from the matplotlib figures (issue 33.11: charts seen in a browser)."""
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from counting.labels import labels_of
from counting.reduction import registry
from store_samples import make_result

pytest.importorskip("matplotlib")

from counting.report.charts import figures, line_styles, pyplot, unit_counts_caption  # noqa: E402

SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def _job(kind: str, n_classes: int, per_class: int = 1):
    """What :func:`figures` reads of a job: its reduction's kind and its classes' units."""
    return SimpleNamespace(reduction_object=SimpleNamespace(kind=kind),
                           units_of_class={c: list(range(c * per_class, (c + 1) * per_class))
                                           for c in range(n_classes)})


def _draw(job, results, weight=None, workers=(), timed=()):
    plt = pyplot()
    weight = weight or {c: 100 for c in job.units_of_class}
    figs = {f.key: f for f in figures(plt, job, results, weight,
                                      {w: [] for w in workers}, list(timed), lambda t: t)}
    for f in figs.values():
        f.figure.canvas.draw()
    yield figs
    for f in figs.values():
        plt.close(f.figure)


@pytest.fixture
def wide():
    """1x10's chart: 1,155 classes, counts from 1 to 10^18, times from 10 µs to 1,000 s."""
    job = _job("factor", 1155, 2)
    results = [make_result(u, count=1 if u % 97 == 0 else 10 ** (14 + u % 5), class_id=u // 2,
                           form_id=u % 2, seconds=10.0 ** (u % 9 - 5)) for u in range(2310)]
    yield from _draw(job, results)


def _labels(ax, which):
    lo, hi = getattr(ax, f"get_{which}lim")()
    i = 0 if which == "x" else 1
    return [t for t in getattr(ax, f"get_{which}ticklabels")()
            if t.get_text() and lo <= t.get_position()[i] <= hi]


def test_a_log_axis_never_mixes_plain_digits_and_powers_of_ten(wide):
    # issue 33.11: 1,000,000,000 beside 10¹² (counts), 1e-05 beside 1,000 (times)
    counts = [t.get_text() for t in _labels(wide["unit-counts"].figure.axes[0], "y")]
    times = [t.get_text() for t in _labels(wide["unit-seconds"].figure.axes[0], "x")]
    for labels in (counts, times):
        assert len(labels) >= 3 and all(any(c in SUPERSCRIPTS for c in t) for t in labels), labels
    assert "10⁻⁵" in times and "10¹⁸" in counts


def test_the_class_labels_of_1155_classes_do_not_touch(wide):
    # issue 33.11: 1x10's class ids 1044 and 1102 ran into each other
    for fig, ax in ((wide["unit-counts"], 1), (wide["unit-seconds"], 1)):
        axis = fig.figure.axes[ax]
        labels = _labels(axis, "x")
        texts = [t.get_text() for t in labels]
        step = int(texts[1]) - int(texts[0])
        assert step in (100, 200, 500) and all(int(t) % step == 0 for t in texts), texts
        boxes = sorted((b.x0, b.x1) for b in (t.get_window_extent() for t in labels))
        assert all(a[1] < b[0] for a, b in zip(boxes, boxes[1:])), texts


def test_a_partial_store_s_class_axes_span_every_class_of_the_job():
    # issue 33.11: 64 of 71 classes counted: the time-by-class axis stopped at 64
    job = _job("moves", 71)
    results = [make_result(c, count=10 ** 6 + c, class_id=c, form_id=0, seconds=1 + c)
               for c in range(64)]
    for figs in _draw(job, results):
        for key, ax in (("unit-seconds", 1), ("unit-counts", 0), ("unit-counts", 1)):
            lo, hi = figs[key].figure.axes[ax].get_xlim()
            assert lo < 0 and hi > 70, (key, ax, lo, hi)


@pytest.mark.parametrize("kind", [*registry.REDUCTIONS, registry.PREFIX, registry.KIND_TABLES,
                                  registry.SYMMETRY])
def test_the_unit_counts_caption_names_the_weights_of_the_reduction(kind):
    labels = labels_of(kind)
    caption = unit_counts_caption(labels)
    assert labels.count_noun in caption and labels.weight_means in caption
    # issue 33.11: factor classes were captioned "reduced bands per class"
    band_reductions = {"moves", "patterns", "patterns3"}
    assert ("reduced bands" in caption) == (kind in band_reductions), caption


def test_factor_classes_are_weighted_by_the_recurrence():
    caption = unit_counts_caption(labels_of("factor"))
    assert "1-factorization recurrence reaches the class's graph" in caption
    assert "ordered 1-factorizations" in caption


def test_workers_at_one_pace_draw_lines_that_all_show():
    # issue 33.11: the legend listed 4 workers and 2 lines showed (two lay on the others)
    job = _job("moves", 10, 40)
    workers = ["h/P-1:1", "h/P-2:2", "h/P-1:3", "h/P-2:4"]
    results = [make_result(u, count=5, class_id=u // 40, form_id=u % 40) for u in range(400)]
    timed = [(datetime.fromtimestamp(1_000 + u // 2, timezone.utc), workers[u % 4], "h")
             for u in range(400)]
    for figs in _draw(job, results, workers=workers, timed=timed):
        lines = figs["throughput"].figure.axes[0].get_lines()
        assert len(lines) == 4
        widths = [line.get_linewidth() for line in lines]
        assert widths == sorted(widths, reverse=True) and len(set(widths)) == 4
        styles = [line.get_linestyle() for line in lines]
        assert all(a != b for a, b in zip(styles, styles[1:]))


def test_line_styles_narrow_and_alternate():
    for n in range(1, 14):
        styles = line_styles(n)
        widths = [s["linewidth"] for s in styles]
        assert len(styles) == n and all(a > b for a, b in zip(widths, widths[1:]))
        assert all(a["linestyle"] != b["linestyle"] for a, b in zip(styles, styles[1:]))
        assert min(widths) >= 1.0


def test_the_throughput_chart_writes_its_figures_with_thousands_separators():
    # 1x10's report: "units finished" read 140000 and 280000, busy time 8000
    job = _job("moves", 10, 2_000)
    workers = ["h/P-1:1", "h/P-2:2"]
    results = [make_result(u, count=5, class_id=u // 2_000, form_id=u % 2_000)
               for u in range(20_000)]
    timed = [(datetime.fromtimestamp(1_000 + u // 2, timezone.utc), workers[u % 2], "h")
             for u in range(20_000)]
    for figs in _draw(job, results, workers=workers, timed=timed):
        for ax in figs["throughput"].figure.axes:
            for which in "xy":
                texts = [t.get_text() for t in _labels(ax, which)]
                big = [t for t in texts if len(t.lstrip("−-").replace(",", "")) > 3]
                assert big, (which, texts)
                assert all("," in t for t in big), (which, texts)


def test_without_the_store_s_weights_the_unit_counts_chart_draws_no_weight_bars():
    # a factor store of another kernel: this gridcount's weights, drawn beneath its
    # counts, were those of other graphs under the same class ids
    plt = pyplot()
    job = _job("factor", 3)
    results = [make_result(u, count=u + 1, class_id=u, form_id=0) for u in range(3)]
    figs = {f.key: f for f in figures(plt, job, results, None, {}, [], lambda t: t)}
    try:
        counts = figs["unit-counts"]
        counts.figure.canvas.draw()
        assert [ax.get_ylabel() for ax in counts.figure.axes] == ["unit count"]
        assert "no class weights" in counts.caption and "bars" not in counts.caption
    finally:
        for f in figs.values():
            plt.close(f.figure)
