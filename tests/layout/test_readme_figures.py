"""The README's figures are the ones in ``results/``: a total it quotes is one
the program computed (or a published one, with its source), a file it cites
exists, and the times of its tour are those ``scripts/bench_tour.py``
measured and recorded in ``results/bench_tour.md``."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def _table_after(text: str, heading: str) -> list[list[str]]:
    """The rows (cells stripped, header and rule left out) of the first
    Markdown table after ``heading``."""
    rest = text[text.index(heading):]
    block = []
    for line in rest.splitlines()[1:]:
        if line.startswith("|"):
            block.append(line)
        elif block:
            break
    assert block, f"no table after {heading!r}"
    return [[c.strip() for c in row.strip().strip("|").split("|")] for row in block[2:]]


def _tour() -> dict[str, list[str]]:
    return {row[0].strip("`"): row for row in _table_after(README, "## A 30-second tour")}


def _bench() -> dict[str, list[str]]:
    bench = (ROOT / "results" / "bench_tour.md").read_text()
    return {row[0].strip("`"): row for row in _table_after(bench, "# The README's tour")}


def test_every_tour_command_was_timed_by_the_tour_benchmark():
    assert set(_tour()) == set(_bench())


@pytest.mark.parametrize("command", sorted(_tour()))
def test_the_tour_quotes_the_median_time_the_benchmark_recorded(command):
    assert _tour()[command][-1] == _bench()[command][1]


@pytest.mark.parametrize("command", [c for c in sorted(_tour()) if c.startswith("gridcount count")])
def test_the_tour_quotes_the_total_the_benchmark_printed(command):
    # `count -q` prints the total alone: the README's result is that line
    assert _tour()[command][2] == _bench()[command][-1]


def _corpus() -> str:
    texts = [(ROOT / "counting" / "published.py").read_text()]
    for path in (ROOT / "results").iterdir():
        if path.is_file() and path.suffix in (".json", ".md", ".csv", ".txt"):
            texts.append(path.read_text(errors="replace"))
    return "\n".join(texts)


def test_every_large_number_the_readme_quotes_is_in_results_or_the_published_table():
    corpus = _corpus()
    plain = corpus.replace(",", "")
    quoted = set(re.findall(r"\b\d{1,3}(?:,\d{3}){3,}\b", README))
    missing = sorted(n for n in quoted if n not in corpus and n.replace(",", "") not in plain)
    assert not missing, f"README figures found in no results/ file: {missing}"


def test_every_results_file_the_readme_cites_exists():
    # stores are made by the commands the README shows, not committed
    cited = {m.rstrip(".,") for m in re.findall(r"results/[\w.+,=@-]+", README)}
    made_by_commands = {c for c in cited if c.endswith((".sqlite", "-done.json"))
                        or "SHAPE" in c}
    missing = sorted(c for c in cited - made_by_commands if not (ROOT / c).exists())
    assert not missing, missing


def _refusals_shown() -> list[str]:
    return [s for s in README.splitlines() if s.startswith("Error: ") and "out of reach" in s]


def test_the_refusals_the_readme_shows_are_lines_the_program_printed():
    # the search's estimate is measured, so it varies: the README quotes a recorded run
    recorded = (ROOT / "results" / "bench_estimates.md").read_text()
    shown = _refusals_shown()
    assert shown, "the README shows what a refused job prints"
    for line in shown:
        if not line.startswith("Error: 2x6 by layers"):
            assert line in recorded, line


def test_the_readme_shows_the_2x6_refusal_count_prints_now():
    # the README showed 2x6's refusal by the search from before the route's
    # file (--force runs it anyway); the route's is read from results/, so fixed
    from cli_samples import invoke
    res = invoke("count", "2x6", "--workers", "2")
    assert res.exit_code == 2, res.output
    assert res.stderr.strip().splitlines()[-1] in _refusals_shown()


def _full_group_counts() -> set[str]:
    """Every count of essentially different grids under a kind's full group
    that results/symmetry-full.md records: the last column of its runs'
    tables ("... | essentially different |") and the bold totals of its
    table of ``count --group full`` jobs."""
    text = (ROOT / "results" / "symmetry-full.md").read_text()
    counts, header = set(), None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            elif header[-1] == "essentially different" and re.fullmatch(r"[\d,]+", cells[-1]):
                counts.add(cells[-1])
            counts.update(re.findall(r"\*\*([\d,]+)\*\*", line))
        else:
            header = None
    return counts


def test_the_readme_s_section_on_essentially_different_grids_quotes_every_full_group_count():
    # issue 34's audit: Sudoku X's count under its full group (which is today's
    # group) was in results/ but not in the README's section, so a reader could
    # not tell whether it had been counted, nor that no published value was found
    section = README[README.index("## Essentially different grids"):]
    section = section[:section.index("\n## ")]
    counts = _full_group_counts()
    assert {"53,666,689", "68,239,994", "1,596,582,158", "1,061,973"} <= counts
    missing = sorted(c for c in counts if c not in section)
    assert not missing, missing
