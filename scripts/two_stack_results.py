"""The two-stack results files, as the check scripts beside this one read and
write them: a shape's table ``results/SHAPE-symmetry-two-stack.tsv`` (written
by ``scripts/bench_two_stack.py``; column 5 is each unit's ``A``), and a
script's ``--record`` section at the end of its Markdown report
(``results/2x5-symmetry-two-stack.md``; ``bench_two_stack.py`` keeps such
sections when it rewrites the file).

Only files are shared here, no counting: the check scripts stay independent
routes (the package is imported only to describe the machine, by ``record``).  They import it as ``from two_stack_results import ...``, which
works because ``python scripts/NAME.py`` puts ``scripts/`` first on
``sys.path`` (the tests put it there through ``tests/scripts/conftest.py``).
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["RESULTS", "table", "units", "record"]

RESULTS = Path(__file__).resolve().parent.parent / "results"


def table(shape: str) -> dict[int, int]:
    """``{unit: A}`` of the two-stack table of ``shape``."""
    out = {}
    for line in (RESULTS / f"{shape}-symmetry-two-stack.tsv").read_text().splitlines():
        cells = line.split("\t")
        if cells and cells[0].isdigit():
            out[int(cells[0])] = int(cells[4])
    return out


def units(shape: str) -> tuple[list[dict], int]:
    """The rows of the two-stack table of ``shape`` (``unit``, class ``size``,
    relabelling ``type``, ``element``, ``A``) and the grid count its report
    divides by N! for the identity."""
    out = []
    for line in (RESULTS / f"{shape}-symmetry-two-stack.tsv").read_text().splitlines():
        cells = line.split("\t")
        if cells and cells[0].isdigit():
            out.append({"unit": int(cells[0]), "size": int(cells[1]), "type": cells[2],
                        "element": cells[3], "A": int(cells[4])})
    report = (RESULTS / f"{shape}-symmetry-two-stack.md").read_text()
    mark = "identity: the grid count "
    at = report.find(mark)
    if at < 0:
        raise ValueError(f"no grid count in results/{shape}-symmetry-two-stack.md")
    return out, int(report[at + len(mark):].split()[0].replace(",", ""))


def record(path: Path, section: str, written_by: str, rows: list[str],
           load: tuple[float, float], seconds: float) -> None:
    """Write (or replace) the section titled ``section`` at the end of
    ``path``: the paragraph ``written_by``, this machine, the load average at
    the start and the end (``load``), the wall ``seconds``, the table of
    ``rows`` (unit, element, A here, A in the table, verdict, seconds) and how
    many are equal."""
    text = path.read_text()
    start = text.find("\n" + section + "\n")
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start + 1] + (text[end + 1:] if end >= 0 else "")
    from counting.job import describe_machine   # only here: a check itself needs no package

    same = sum(" | equal | " in r for r in rows)
    m = describe_machine()
    body = [section, "", written_by, "",
            f"Machine: {m['cpu']}, {m['cores']} cores; load average {load[0]:.1f} at the start, "
            f"{load[1]:.1f} at the end (shared); {seconds:.0f} s wall in all.",
            "",
            "| unit | element | A here | A in the table | | seconds |",
            "|---:|---|---:|---:|---|---:|", *rows, "",
            f"{same} of {len(rows)} equal"
            + (": the difference from A291188 is not in these terms." if same == len(rows)
               else "; the others are DIFFERENT: a term of the table is wrong."),
            ""]
    path.write_text(text.rstrip("\n") + "\n\n" + "\n".join(body))
