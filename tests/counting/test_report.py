"""The store report (counting/report.py, ``gridcount report``): what the
page says is read back from the HTML and the Markdown and compared with the
store, not looked at as a picture."""
import re
from dataclasses import replace
import sys
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from counting.cli import cli
from counting.job import Job, run_count
from counting.options import CountOptions
from counting.store.database import Store
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
    classes = {row[0]: row for row in tables[1][1:]}
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
        assert sum(_int(r[4]) for r in tables[1][1:]) == red.weighted_sum(results)


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
    header, *rows = tables[1]
    assert header[1] == "size" and header[4] == "size × A" and header[-1] == "elements"
    assert sum(_int(r[4]) for r in rows) == 49 * group_order("2x3")
    _check_page(tables, job, results)


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
        "pip install 'gridcount[report]'"]
    assert not out.exists()


def test_a_missing_store_is_one_line(tmp_path):
    res = CliRunner().invoke(cli, ["report", str(tmp_path / "nope.sqlite")])
    assert res.exit_code == 1
    assert res.output.strip() == f"Error: {tmp_path / 'nope.sqlite'}: no such store"


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
