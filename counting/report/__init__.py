"""A report of one store: the job, its units, its workers, as one page.

``gridcount report STORE -o FILE`` writes a self-contained HTML page (charts inline
as SVG, no network needed to view it) or, with ``--format md``, Markdown
with PNG files beside it (for ``results/``).  The content is the same:

* **the job** — shape, reduction, factors, the weighted sum, units done and
  remaining, the total (or the partial state), engine versions, the
  machines (units and workers on each), the first and last unit's dates,
  the wall time, and the published value it is compared with
  (:mod:`counting.published`);
* **charts** — every unit's count at its class (the class weights drawn
  beneath), unit seconds (distribution and by class), nodes and memo hits
  per unit, and units finished over time per worker and per host;
* **classes** — per class its weight, units done, Σ unit counts and its part
  of the weighted sum, with the Σ row; for a symmetry job this is the
  Burnside table (class size, A, size × A and the elements of the class);
* **the slowest units** and **the workers**.

The modules, one idea each: :mod:`counting.report.content` (what the
report says, read from the store), :mod:`counting.report.charts` (the
charts; their ticks and tick labels in :mod:`counting.report.axes`) and
:mod:`counting.report.pages` (HTML and Markdown).  The charts
need matplotlib, an optional extra (``python -m pip install -e '.[report]'``):
without it :func:`write_report` raises :class:`ReportUnavailable` with
that instruction.

Example
-------
>>> from counting.report import write_report        # doctest: +SKIP
>>> write_report("results/2x3-rmoves.sqlite", "report.html")   # doctest: +SKIP
"""
from counting.report.charts import ReportUnavailable
from counting.report.content import Report, build_report
from counting.report.pages import FORMATS, write_report

__all__ = ["Report", "ReportUnavailable", "build_report", "write_report", "FORMATS"]
