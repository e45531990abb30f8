"""The store report (counting/report/, ``gridcount report``): what the
page says is read back from the HTML and the Markdown and compared with the
store, not looked at as a picture."""
import re
from dataclasses import replace
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from counting.cli import cli
from counting.job import Job, run_count
from counting.options import CountOptions
from counting.store.database import Store
from store_cli_samples import store_of_an_older_reduction
from store_samples import make_result
from counting.labels import labels_of


class _Tables(HTMLParser):
    """Every <table> of a page as a list of rows of cell texts."""

    def __init__(self):
        super().__init__()
        self.tables, self._row, self._cell = [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._row is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "tr":
            self.tables[-1].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def _html_tables(text):
    p = _Tables()
    p.feed(text)
    return p.tables


def _md_tables(text):
    tables, cur = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if cur is None:
                cur = []
                tables.append(cur)
            if not re.fullmatch(r"\|(-+:?\|)+", line.replace(" ", "")):
                cur.append(cells)
        else:
            cur = None
    return tables


def _int(text):
    return int(text.split()[0].replace(",", ""))


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A complete 2x3 store (9 units, about a second)."""
    path = tmp_path_factory.mktemp("report") / "2x3.sqlite"
    job = Job.load("2x3")
    with Store.create_or_open(path, job.info()) as st:
        run_count(job, st, options=CountOptions(), progress=False, log=lambda m: None)
        results = {r.unit_id: r.count for r in st.results()}
    return path, job, results


def _check_page(tables, job, results, complete=True):
    facts = {row[0]: row[1] for row in tables[0][1:]}
    assert facts["units done"] == f"{len(results):,} of {job.n_units:,}"
    assert facts["units remaining"] == f"{job.n_units - len(results):,}"
    if complete:
        assert _int(facts[labels_of(job.reduction_object).total_label]) == job.total(results)
        assert facts["published"].startswith("matches")
    else:
        assert facts[labels_of(job.reduction_object).total_label].startswith(f"not yet: {job.n_units - len(results):,} of")
    red = job.reduction_object
    assert tables[1][0][4] == labels_of(red).term_label
    class_rows = tables[1][1:]
    if complete:   # the Σ row closes the table (issue 26.15)
        *class_rows, sigma = class_rows
        assert sigma[0] == "Σ" and _int(sigma[4]) == red.weighted_sum(results)
        assert _int(facts[labels_of(red).sum_label]) == red.weighted_sum(results)
    else:
        assert all(r[0] != "Σ" for r in class_rows)
        assert labels_of(red).sum_label not in facts
    classes = {row[0]: row for row in class_rows}
    started = {u_cid for u_cid, members in job.units_of_class.items()
               if any(u in results for u in members)}
    # only the classes with a unit counted are listed (issue 26.15: an empty
    # store printed a row of dashes per class)
    assert set(classes) == {str(c) for c in started}
    facts_total = labels_of(red).total_label
    assert facts_total in facts
    weight = {c.class_id: c.weight for c in job.classes}
    for cid, members in job.units_of_class.items():
        if cid not in started:
            continue
        row = classes[str(cid)]
        done = [u for u in members if u in results]
        assert _int(row[1]) == weight[cid]
        assert row[2] == f"{len(done):,} / {len(members):,}"
        if done:
            assert _int(row[3]) == sum(results[u] for u in done)
        if len(done) == len(members):
            assert _int(row[4]) == sum(red.term(weight[cid], results[u]) for u in members)
    # the class terms add up to the weighted sum (times the factors: the total)
    if complete:
        assert sum(_int(r[4]) for r in class_rows) == red.weighted_sum(results)


def test_the_html_report_shows_the_total_the_units_and_the_class_sums(finished, tmp_path):
    pytest.importorskip("matplotlib")
    path, job, results = finished
    out = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    _check_page(_html_tables(text), job, results)
    assert text.count("<svg") == 4                       # every chart inline
    # nothing to fetch: no stylesheet, script or image from elsewhere
    assert not re.search(r"<(link|script|img|iframe)\b|(src|href)=[\"']?https?:|url\((?!#)", text)


def test_the_markdown_report_says_the_same_with_png_files_beside_it(finished, tmp_path):
    pytest.importorskip("matplotlib")
    path, job, results = finished
    out = tmp_path / "r.md"
    res = CliRunner().invoke(cli, ["report", str(path), "--format", "md", "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    _check_page(_md_tables(text), job, results)
    pngs = re.findall(r"!\[[^]]*\]\(([^)]+)\)", text)
    assert len(pngs) == 4
    from counting.report.charts import CHART_KEYS     # what a later report may replace
    assert {rel.split("/")[-1].removesuffix(".png") for rel in pngs} == set(CHART_KEYS)
    for rel in pngs:
        assert (tmp_path / rel).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_two_band_report_sums_weight_times_count_squared(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "3x2.sqlite"
    job = Job.load("3x2", "patterns2")
    with Store.create_or_open(path, job.info()) as st:
        run_count(job, st, options=CountOptions(), progress=False, log=lambda m: None)
        results = {r.unit_id: r.count for r in st.results()}
    out = tmp_path / "r.md"
    res = CliRunner().invoke(cli, ["report", str(path), "--format", "md", "-o", str(out)])
    assert res.exit_code == 0, res.output
    tables = _md_tables(out.read_text())
    assert tables[1][0][4] == "weight × count²"
    _check_page(tables, job, results)


def test_a_symmetry_report_shows_the_burnside_table_and_the_essentially_different_total(
        tmp_path):
    pytest.importorskip("matplotlib")
    from counting.reduction import get_reduction
    from counting.group.symmetries import group_order
    from counting.plan import record_identity
    grid = get_reduction("2x3")
    grid_total = grid.total({u.unit_id: count_unit_of(u) for u in grid.units()})
    path = tmp_path / "sym.sqlite"
    job = Job.load("2x3", "symmetry")
    with Store.create_or_open(path, job.info()) as st:
        record_identity(st, "2x3", grid_total, "a test")
        run_count(job, st, options=CountOptions(), progress=False, log=lambda m: None)
        results = {r.unit_id: r.count for r in st.results()}
    out = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert "<h2>Burnside table: classes of the symmetry group that fix some grid</h2>" in text
    tables = _html_tables(text)
    facts = {row[0]: row[1] for row in tables[0][1:]}
    assert _int(facts["essentially different grids"]) == 49
    assert facts["÷ order of the symmetry group |G|"] == f"{group_order('2x3'):,}"
    assert facts["published"].startswith("matches the published 49")
    header, *rows, sigma = tables[1]
    assert header[1] == "size" and header[4] == "size × A" and header[-1] == "elements"
    assert sum(_int(r[4]) for r in rows) == 49 * group_order("2x3")
    assert sigma[0] == "Σ" and _int(sigma[4]) == 49 * group_order("2x3")
    assert _int(facts["Σ class size × A"]) == 49 * group_order("2x3")
    _check_page(tables, job, results)
    # the identity is the grid count's, not a worker's (issue 26.15)
    workers = [row[0] for row in tables[-1][1:]]
    assert workers and not [w for w in workers if "a test" in w]
    assert not [row for row in tables[2][1:] if row[0] == "0"]     # nor a slowest unit
    assert "the identity's count is the 2x3 grid count" in facts["unit 0 (not counted here)"]
    n = len(workers)
    assert facts["machines"].endswith(f"({len(results) - 1:,} units, {n} worker{'s' * (n != 1)})")


def count_unit_of(spec):
    from counting.run.counter import count_unit
    return count_unit(spec).count


def test_a_store_in_progress_reports_what_remains(tmp_path):
    pytest.importorskip("matplotlib")
    job = Job.load("2x3")
    path = tmp_path / "part.sqlite"
    with Store.create_or_open(path, job.info()) as st:
        run_count(job, st, unit_ids=[0, 1, 4], options=CountOptions(), progress=False,
                  log=lambda m: None)
        results = {r.unit_id: r.count for r in st.results()}
    out = tmp_path / "part.html"
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    _check_page(_html_tables(out.read_text()), job, results, complete=False)


def test_without_matplotlib_the_report_says_how_to_install_it(finished, tmp_path, monkeypatch):
    path, _, _ = finished
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # import matplotlib fails
    out = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(out)])
    assert res.exit_code == 1
    assert res.output.strip().splitlines() == [
        "Error: gridcount report draws its charts with matplotlib, which is not installed: "
        "python -m pip install -e '.[report]' (in the gridcount checkout)"]
    # issue 33.10: it said pip install 'gridcount[report]', which asks the package index
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    assert "`python -m pip install -e '.[report]'`" in readme
    assert not out.exists()


def test_a_missing_store_is_one_line(tmp_path):
    res = CliRunner().invoke(cli, ["report", str(tmp_path / "nope.sqlite")])
    assert res.exit_code == 2
    assert res.output.strip() == f"Error: {tmp_path / 'nope.sqlite'}: no such store"


def test_an_input_that_is_not_a_store_is_said_before_anything_about_the_output(tmp_path):
    # issue 38.10: report /dev/zero said "refusing to write /dev/zero.html"
    (tmp_path / "notes.txt").write_text("not a store\n")
    for given in ("/dev/zero", str(tmp_path / "notes.txt")):
        for args in ([], ["-o", "/dev/null"], ["-o", str(tmp_path / "r.html")]):
            res = CliRunner().invoke(cli, ["report", given, *args])
            assert res.exit_code == 2, res.output   # a refusal, as every refusal
            assert res.output.startswith(f"Error: {given} is ") and "refusing" not in res.output
            assert len(res.output.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_report_needs_its_file_named(finished, tmp_path):
    # no command writes a file it is not given (issue 33.2): the default
    # was the store's name with .html, beside it
    src, job, results = finished
    store = tmp_path / "s.sqlite"
    store.write_bytes(src.read_bytes())
    res = CliRunner().invoke(cli, ["report", str(store)])
    assert res.exit_code == 2 and "name the report's file: -o FILE.html" in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite"]


def test_a_complete_store_whose_total_differs_from_the_published_one_says_so(finished, tmp_path):
    # a complete store with one unit's count off by one (written through the
    # store, so its checksums are valid): the report must not say "matches"
    pytest.importorskip("matplotlib")
    src, job, results = finished
    path = tmp_path / "off.sqlite"
    with Store.open(src) as st, Store.create_or_open(path, job.info()) as out:
        for r in st.results():
            out.record(replace(r, count=r.count + 1) if r.unit_id == 0 else r)
    html = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(html)])
    assert res.exit_code == 0, res.output
    facts = {row[0]: row[1] for row in _html_tables(html.read_text())[0][1:]}
    assert _int(facts[labels_of(job.reduction_object).total_label]) != job.total(results)
    assert facts["published"].startswith("DOES NOT MATCH the published 28,200,960")


def test_the_charts_come_before_the_long_tables_which_are_folded(tmp_path):
    # issue 26.15: the charts started below about 9,000 px of tables
    pytest.importorskip("matplotlib")
    job = Job.load("3x3")            # 71 classes: one unit of each, recorded
    path = tmp_path / "3x3.sqlite"
    with Store.create_or_open(path, job.info()) as st:
        for cid, members in job.units_of_class.items():
            st.record(make_result(members[0], count=1000 + cid, class_id=cid,
                                  form_id=members[0] % 10, engine_version=job.info().engine_version))
    out = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert text.index("<svg") < text.index("<h2>Classes</h2>")
    assert "<details><summary>" in text and "classes (show the table)" in text


# ---------------------------------------------------------------------------
# issue 26.15: axes, the job's times and machines, an empty store

def _chart_labels(fig):
    """The y tick labels a chart shows (inside its axis limits)."""
    ax = fig.figure.axes[0]
    fig.figure.canvas.draw()
    lo, hi = ax.get_ylim()
    return [t.get_text() for t in ax.get_yticklabels()
            if t.get_text() and lo <= t.get_position()[1] <= hi]


def test_the_nodes_chart_labels_its_log_axis_when_the_values_sit_in_one_decade(tmp_path):
    pytest.importorskip("matplotlib")
    from counting.report import build_report
    job = Job.load("2x4")
    path = tmp_path / "part.sqlite"           # a partial store: 21 units, as in the issue
    with Store.create_or_open(path, job.info()) as st:
        for u in range(21):
            st.record(make_result(u, count=1_700_000 + u, class_id=job.units[u].class_id,
                                  form_id=job.units[u].form_id, nodes=880_000 + 1_000 * u,
                                  memo_hits=320_000 + 1_000 * u,
                                  engine_version=job.info().engine_version))
    with Store.open(path) as st:
        rep = build_report(st)
    nodes = next(f for f in rep.figures if f.key == "nodes-memo")
    labels = _chart_labels(nodes)
    assert len(labels) >= 3 and "500,000" in labels and "1,000,000" in labels
    import matplotlib.pyplot as plt
    for f in rep.figures:
        plt.close(f.figure)


def test_the_job_table_shows_wall_time_dates_and_machines(tmp_path):
    pytest.importorskip("matplotlib")
    job = Job.load("2x3")
    path = tmp_path / "two-runs.sqlite"
    runs = {  # unit: (finished at, seconds, host, worker); a second run a day later
        0: ("2026-01-01T10:00:10+00:00", 10.0, "alpha", "P-1:1"),
        1: ("2026-01-01T10:00:12+00:00", 12.0, "alpha", "P-2:2"),
        2: ("2026-01-01T10:00:20+00:00", 8.0, "alpha", "P-1:1"),
        3: ("2026-01-02T09:00:05+00:00", 5.0, "beta", "P-1:7"),
    }
    with Store.create_or_open(path, job.info()) as st:
        for u, (at, secs, host, worker) in runs.items():
            st.record(make_result(u, count=10 + u, class_id=job.units[u].class_id,
                                  form_id=job.units[u].form_id, seconds=secs, host=host,
                                  worker=worker, finished_at=at,
                                  engine_version=job.info().engine_version))
    out = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    facts = {row[0]: row[1] for row in _html_tables(out.read_text())[0][1:]}
    assert facts["first unit finished"] == "2026-01-01 10:00:10 UTC"
    assert facts["last unit finished"] == "2026-01-02 09:00:05 UTC"
    # busy from 10:00:00 to 10:00:20 (+1 s: timestamps are to the second), then 5 s
    # (+1) the next day: not the 23 hours between
    assert facts["wall time"].startswith("about 27.0 s")
    assert facts["machines"] == "alpha (3 units, 2 workers); beta (1 unit, 1 worker)"
    # a unit's seconds are the wall time of its count: summed, they are called so, not CPU time
    assert facts["time in units"] == "35.000 s (wall, summed over units)"
    (workers,) = [t for t in _html_tables(out.read_text()) if t[0][0] == "worker"]
    assert workers[0][2] == "time in units (wall)"
    assert sorted(row[2] for row in workers[1:]) == ["12.000 s", "18.000 s", "5.000 s"]
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(tmp_path / "r.md")])
    assert res.exit_code == 0, res.output
    for page in (out, tmp_path / "r.md"):
        assert "CPU" not in page.read_text()


def test_busy_seconds_merge_overlapping_spans_and_leave_pauses_out():
    from counting.report.content import busy_seconds
    assert busy_seconds([]) == 0
    assert busy_seconds([(0, 10), (2, 4), (8, 15), (20, 21)]) == 16


def test_an_empty_store_prints_no_empty_tables(tmp_path):
    pytest.importorskip("matplotlib")
    job = Job.load("2x3")
    path = tmp_path / "empty.sqlite"
    Store.create_or_open(path, job.info()).close()
    out = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert len(_html_tables(text)) == 1 and "<svg" not in text     # the job table alone
    assert "No unit is finished yet" in text
    md = tmp_path / "r.md"
    res = CliRunner().invoke(cli, ["report", str(path), "--format", "md", "-o", str(md)])
    assert res.exit_code == 0, res.output
    assert len(_md_tables(md.read_text())) == 1 and not (tmp_path / "r-files").exists()


# ---------------------------------------------------------------------------
# a kernel's store, unit times over decades, a job resumed another day, the file's suffix

def test_a_kernel_store_reports_no_search_figures_and_no_solutions_per_second(
        tmp_path, monkeypatch):
    # the 1x10 report printed "nodes 0, memo hits 0" and about 10^30 "sol/s": the
    # factorization kernel counts without searching and keeps neither figure
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "f.sqlite"
    res = CliRunner().invoke(cli, ["count", "1x5", "--reduction", "factor", "--db", str(db),
                                   "-w", "1", "-q"])
    assert res.exit_code == 0, res.output
    out = tmp_path / "r.md"
    (tmp_path / "r-files").mkdir()
    for name in ("nodes-memo.png", "notes.txt"):    # an earlier report's chart, a user's file
        (tmp_path / "r-files" / name).write_text("old")
    res = CliRunner().invoke(cli, ["report", str(db), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "r-files" / "nodes-memo.png").exists()   # not left to mislead
    assert (tmp_path / "r-files" / "notes.txt").read_text() == "old"
    text = out.read_text()
    tables = _md_tables(text)
    facts = {row[0]: row[1] for row in tables[0][1:]}
    with Store.open(db) as st:
        n = len(list(st.results()))
    assert facts["units counted by a kernel (no search)"].startswith(f"{n:,} (factorization-")
    assert "search nodes" not in facts and "memo hits" not in facts and "nodes" not in facts
    assert "nodes-memo" not in text                        # no chart of zeros
    (workers,) = [t for t in tables if t[0][0] == "worker"]
    assert all(row[4] == "—" for row in workers[1:])       # no solutions per second
    (slow,) = [t for t in tables if t[0][0] == "unit"]
    assert all(row[4] == row[5] == "—" for row in slow[1:])


def test_a_searched_store_keeps_its_search_figures(finished, tmp_path):
    pytest.importorskip("matplotlib")
    path, job, results = finished
    out = tmp_path / "r.md"
    assert CliRunner().invoke(cli, ["report", str(path), "-o", str(out)]).exit_code == 0
    tables = _md_tables(out.read_text())
    facts = {row[0]: row[1] for row in tables[0][1:]}
    with Store.open(path) as st:
        assert _int(facts["search nodes"]) == sum(r.nodes for r in st.results()) > 0
    (workers,) = [t for t in tables if t[0][0] == "worker"]
    assert all(row[4].endswith("sol/s") for row in workers[1:])


def _figures_of(path):
    from counting.report import build_report
    with Store.open(path) as st:
        return {f.key: f for f in build_report(st).figures}


def _close(figs):
    import matplotlib.pyplot as plt
    for f in figs.values():
        plt.close(f.figure)


def test_unit_times_over_many_decades_are_binned_on_a_log_axis(tmp_path):
    # 1x10: 295,680 units from 10 µs to 300 s were one bar on a linear axis
    pytest.importorskip("matplotlib")
    job = Job.load("2x3")
    path = tmp_path / "spread.sqlite"
    with Store.create_or_open(path, job.info()) as st:
        for u in range(job.n_units):
            st.record(make_result(u, count=10 + u, class_id=job.units[u].class_id,
                                  form_id=job.units[u].form_id, seconds=10.0 ** (u - 4),
                                  engine_version=job.info().engine_version))
    figs = _figures_of(path)
    hist = figs["unit-seconds"].figure.axes[0]
    assert hist.get_xscale() == "log" and "log scale" in hist.get_xlabel()
    # one unit a decade: on log-spaced bins no bar holds more than two of them (on
    # linear bins the first bar held 8 of the 9)
    heights = [p.get_height() for p in hist.patches]
    assert sum(heights) == job.n_units and max(heights) <= 2
    _close(figs)


def test_the_throughput_chart_leaves_the_pauses_between_runs_out(tmp_path):
    pytest.importorskip("matplotlib")
    job = Job.load("2x3")
    path = tmp_path / "two-runs.sqlite"
    runs = {0: ("2026-01-01T10:00:10+00:00", 10.0), 1: ("2026-01-01T10:00:20+00:00", 10.0),
            2: ("2026-01-02T09:00:05+00:00", 5.0)}    # a second run 23 hours later
    with Store.create_or_open(path, job.info()) as st:
        for u, (at, secs) in runs.items():
            st.record(make_result(u, count=10 + u, class_id=job.units[u].class_id,
                                  form_id=job.units[u].form_id, seconds=secs, finished_at=at,
                                  host="alpha", worker="P-1:1",
                                  engine_version=job.info().engine_version))
    figs = _figures_of(path)
    per_host = figs["throughput"].figure.axes[1]
    xs = sorted(x for line in per_host.get_lines() for x in line.get_xdata())
    # busy from 10:00:00 to 10:00:21, then 09:00:00 to 09:00:06: the units end at
    # 10, 20 and 21 + 5 busy seconds, not 82,800 s apart
    assert xs == [10, 20, 26]
    _close(figs)


def test_the_output_name_chooses_the_format_and_a_contradiction_is_refused(finished, tmp_path):
    pytest.importorskip("matplotlib")
    path, job, results = finished
    out = tmp_path / "r.md"          # a .md name without --format: Markdown, not HTML in .md
    res = CliRunner().invoke(cli, ["report", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text().startswith("# gridcount report") and (tmp_path / "r-files").is_dir()
    other = tmp_path / "s.md"
    res = CliRunner().invoke(cli, ["report", str(path), "--format", "html", "-o", str(other)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "--format html" in res.output and not other.exists()


def test_without_matplotlib_a_bad_store_is_still_refused_for_what_is_wrong_with_it(
        tmp_path, monkeypatch):
    # the input is checked before the optional dependency: a user without the
    # report extra who names a foreign store learns that, not how to install matplotlib
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    db = tmp_path / "old.sqlite"
    job = store_of_an_older_reduction(db)
    res = CliRunner().invoke(cli, ["report", str(db), "-o", str(tmp_path / "r.html")])
    assert res.exit_code != 0 and len(res.output.strip().splitlines()) == 1, res.output
    assert "the reduction has changed since" in res.output
    assert "not installed" not in res.output


def test_a_store_with_no_finished_unit_is_reported_without_matplotlib(tmp_path, monkeypatch):
    # nothing to draw: the page says so, and needs no charts library
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    job = Job.load("2x3")
    db = tmp_path / "empty.sqlite"
    with Store.create_or_open(db, job.info()):
        pass
    out = tmp_path / "r.html"
    res = CliRunner().invoke(cli, ["report", str(db), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "No unit is finished yet" in out.read_text()
