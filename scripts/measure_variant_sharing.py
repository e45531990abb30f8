"""Measure which way of sharing work across a kind's units would pay (issue 35 item 3).

A kind such as centre-dot (``3x3+centre``) is counted today by prefix units (row 1 + the
kind's extra house), each a search of rows 2-9 whose memo of row-end states (keyed on the
uncovered columns) lives in one worker's table.  Two ways of sharing work across units
are candidates: a *shared row-end memo* (the same table for every unit of a machine and
every run) and a *band decomposition* (count by bands, as ``patterns3`` does, carrying
what the extra rules need across band borders).  This script measures, before either
is built:

1. **Which units can share a row-end state at all** (all units, exact): a state after
   row k contains the unit's givens below row k (their row, column, box and house items
   are covered from the start), so only units whose givens below row k cover the same
   cells, (row, digit) and (box, digit) items can meet the same state there.  Units are
   grouped by those for every k.
2. **How many states after row 3 (the band-1 border) units share** (all units, exact):
   every band-1 completion of every unit (rows 2-3 under the Sudoku rules with row 1 and
   the unit's givens; the extra house is wholly given, so it restricts nothing else),
   its state after row 3 being its column sets (with the unit's givens below).  The sum
   over units of their distinct states is what per-unit memos hold; the number of
   distinct (givens below, state) pairs is what one shared memo would hold.
3. **What a warm shared table saves the engine** (a sample, measured): sub-units (a
   unit with one band-1 completion added) of several units, counted on one matrix with
   the memo table emptied between units (per-unit memos) and kept across units (one
   shared table), and emptied before each sub-unit (no sharing), search nodes compared;
   for units in one group of step 1 after row 5 (same givens in rows 6-9) and for units
   of different groups.
4. **Key sizes of a band decomposition**: every band-1 filling with row 1 = 1..9 that
   keeps the kind's rules inside the band, and the number of distinct band interfaces
   a band decomposition would carry across a border: the column sets alone (plain
   Sudoku's ``patterns3``), with the digits on the band's cells of the extra house
   (centre, girandola, asterisk), or with the band's last row (anti-king, whose pairs
   cross a band border between adjacent rows).
5. **Anti-king in the engine** (two pairs of its band-1 units, measured): each unit's own
   memo hits and stores, and what a table warm from the first unit of a pair saves the
   second, for two units of equal band-1 column sets and for two of different ones.

    nice python scripts/measure_variant_sharing.py --markdown results/variants-sharing.md
"""
from __future__ import annotations

import argparse
import itertools
import os
import random
import time
from collections import defaultdict

import numpy as np

from counting.job import describe_machine
from counting.reduction.prefix import PrefixReduction
from grids.kind import as_kind

N = 9
ROW1 = np.arange(1, N + 1, dtype=np.int8)   # row 1 of every normal filling
CENTRE = ("3x3+centre", "rows=1,r2c2,r2c5,r2c8,r5c2,r5c5,r5c8,r8c2,r8c5,r8c8")
GIRANDOLA = ("3x3+girandola", "rows=1,r1c1,r1c9,r2c5,r5c2,r5c5,r5c8,r8c5,r9c1,r9c9")
BAND_KINDS = ("3x3", "3x3+centre", "3x3+girandola", "3x3+asterisk", "3x3+anti-king")


# ---------------------------------------------------------------- band 1 of plain Sudoku
def band_fillings() -> tuple[np.ndarray, np.ndarray]:
    """Rows 2 and 3 of every Sudoku band whose row 1 is 1..9: two (2,612,736, 9) int8 arrays."""
    perms = np.array(list(itertools.permutations(range(1, N + 1))), dtype=np.int8)
    stack = np.arange(N) // 3
    row2 = perms[np.all((perms - 1) // 3 != stack, axis=1)]          # 12,096 second rows
    orders = np.array(list(itertools.permutations(range(3))))        # 6 orders of a box's row 3
    rows3 = []
    for s in range(3):
        box = np.concatenate([np.broadcast_to(ROW1[3 * s:3 * s + 3], (len(row2), 3)),
                              row2[:, 3 * s:3 * s + 3]], axis=1)
        missing = np.array([sorted(set(range(1, N + 1)) - set(b)) for b in box.tolist()],
                           dtype=np.int8)                             # (12,096, 3)
        rows3.append(missing[:, orders])                             # (12,096, 6, 3)
    r3 = (rows3[0][:, :, None, None, :], rows3[1][:, None, :, None, :],
          rows3[2][:, None, None, :, :])
    shape = (len(row2), 6, 6, 6, 3)
    row3 = np.concatenate([np.broadcast_to(x, shape) for x in r3], axis=-1).reshape(-1, N)
    row2 = np.repeat(row2, 216, axis=0)
    return row2, np.ascontiguousarray(row3)


def column_keys(row2: np.ndarray, row3: np.ndarray) -> np.ndarray:
    """Each band's column sets (row 1 = 1..9) as one 128-bit key (two uint64 words)."""
    bits = (np.left_shift(1, row2.astype(np.int64) - 1) | np.left_shift(1, row3.astype(np.int64) - 1))
    lo = np.zeros(len(row2), dtype=np.uint64)
    hi = np.zeros(len(row2), dtype=np.uint64)
    for c in range(N):
        if c < 5:
            lo |= bits[:, c].astype(np.uint64) << np.uint64(9 * c)
        else:
            hi |= bits[:, c].astype(np.uint64) << np.uint64(9 * (c - 5))
    return np.stack([lo, hi], axis=1)


def n_distinct(*columns: np.ndarray) -> int:
    """How many distinct rows the arrays (side by side, integer) have."""
    a = np.ascontiguousarray(np.column_stack([np.asarray(c).astype(np.uint64) for c in columns]))
    return len(np.unique(a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1])))))


# ---------------------------------------------------------------- units and their groups
def below(unit, k: int) -> tuple:
    """What a state after row k holds of the unit's givens below row k (0-based rows >= k):
    their cells and their (row, digit) and (box, digit) items.  Two units can meet at
    row k only if these are equal (their column items may come from rows above)."""
    low = [(r, c, d) for r, c, d in unit.givens if r >= k]
    return (frozenset((r, c) for r, c, _ in low), frozenset((r, d) for r, _, d in low),
            frozenset((3 * (r // 3) + c // 3, d) for r, c, d in low))


def lower_column_bits(unit) -> np.ndarray:
    """The digits given below row 3 in each column, in :func:`column_keys`' layout."""
    out = np.zeros(2, dtype=np.uint64)
    for r, c, d in unit.givens:
        if r >= 3:
            out[c // 5] |= np.uint64(1 << (d - 1 + 9 * (c % 5)))
    return out


def group_table(units) -> list[dict]:
    """Step 1: for each row end k, the groups of units with equal givens below row k."""
    out = []
    for k in range(1, N):
        groups = defaultdict(int)
        for u in units:
            groups[below(u, k)] += 1
        sizes = sorted(groups.values())
        out.append({"k": k, "groups": len(groups), "largest": sizes[-1],
                    "shared": sum(s for s in sizes if s > 1)})
    return out


def band1_mask(unit, row2, row3) -> np.ndarray:
    """Which band fillings complete the unit's band 1 (its givens in rows 2-3, and no
    digit of a given below row 3 in that given's column)."""
    ok = np.ones(len(row2), dtype=bool)
    for r, c, d in unit.givens:
        if r == 0:
            assert d == ROW1[c], "row 1 of a normal filling reads 1..9"
        elif r == 1:
            ok &= row2[:, c] == d
        elif r == 2:
            ok &= row3[:, c] == d
        elif r >= 3:
            ok &= (row2[:, c] != d) & (row3[:, c] != d)
    return ok


def row3_sharing(units, row2, row3, keys) -> dict:
    """Step 2: states after row 3, per unit and shared."""
    per_unit = 0
    per_group: dict[tuple, list] = defaultdict(list)
    sizes = []
    completions = 0
    for u in units:
        k = keys[band1_mask(u, row2, row3)] | lower_column_bits(u)
        completions += len(k)
        distinct = np.unique(k.view(np.dtype((np.void, 16))))
        sizes.append(len(distinct))
        per_unit += len(distinct)
        per_group[below(u, 3)].append(distinct)
    union = sum(len(np.unique(np.concatenate(v))) for v in per_group.values())
    return {"units": len(units), "completions": completions, "per_unit_sum": per_unit,
            "union": union,
            "median_per_unit": int(np.median(sizes)), "groups": len(per_group)}


# ---------------------------------------------------------------- the engine, warm and cold
def engine_sample(red, units, row2, row3, per_unit: int, seed: int, memo_mb: float) -> dict:
    """Step 3: sub-units of ``units`` counted with the memo emptied between units (cold)
    and kept across them (warm); the counts must agree, the nodes are compared."""
    rng = random.Random(seed)
    problem = red.problem(units[0])
    ec = problem.build()
    subs = []
    for u in units:
        idx = np.flatnonzero(band1_mask(u, row2, row3))
        pick = sorted(rng.sample(range(len(idx)), min(per_unit, len(idx))))
        given = list(red.problem(u).given)
        for i in idx[pick]:
            extra = [N * (N * r + c) + int(v) - 1 for r, row in ((1, row2[i]), (2, row3[i]))
                     for c, v in enumerate(row)]
            subs.append((u.unit_id, sorted(set(given) | set(extra))))
    out = {}
    for mode in ("alone", "cold", "warm"):
        ec.clear_memo()
        nodes, counts, last, t0 = 0, [], None, time.process_time()
        for uid, given in subs:
            if mode == "alone" or (mode == "cold" and uid != last):
                ec.clear_memo()
            last = uid
            counts.append(ec.count(given=given, memo=True, memo_mb=memo_mb))
            nodes += ec.stats.nodes
        out[mode] = {"nodes": nodes, "cpu": time.process_time() - t0, "counts": counts}
    assert out["alone"]["counts"] == out["cold"]["counts"] == out["warm"]["counts"], \
        "the counts differ between memo tables"
    return {"subunits": len(subs), "units": len(units), "alone_nodes": out["alone"]["nodes"],
            "cold_nodes": out["cold"]["nodes"],
            "warm_nodes": out["warm"]["nodes"], "cold_cpu": out["cold"]["cpu"],
            "warm_cpu": out["warm"]["cpu"]}


def anti_king_pairs(seed: int, memo_mb: float) -> dict:
    """Step 5: anti-king's units of band 1 (no givens below): two of equal column sets
    and two of different ones, the second of each counted after the first in one table
    (warm) and alone (cold); each unit's own memo hits and stores."""
    red = PrefixReduction("3x3+anti-king", "band")
    units = red.units()
    ec = red.problem(units[0]).build()
    by_pattern = defaultdict(list)
    for u in units:
        cols = [0] * N
        for r, c, d in u.givens:
            cols[c] |= 1 << (d - 1)
        by_pattern[tuple(cols)].append(u)
    rng = random.Random(seed)
    twins = rng.choice(sorted((v for v in by_pattern.values() if len(v) > 1),
                              key=lambda v: v[0].unit_id))[:2]
    pattern_a, pattern_b = rng.sample(sorted(by_pattern, key=lambda k: by_pattern[k][0].unit_id), 2)
    apart = [by_pattern[pattern_a][0], by_pattern[pattern_b][0]]
    out = {"units": len(units), "patterns": len(by_pattern)}
    for label, (a, b) in (("same column sets", twins), ("different column sets", apart)):
        ec.clear_memo()
        ec.count(given=list(red.problem(a).given), memo=True, memo_mb=memo_mb)
        first = ec.stats
        ec.count(given=list(red.problem(b).given), memo=True, memo_mb=memo_mb)
        warm = ec.stats
        ec.clear_memo()
        ec.count(given=list(red.problem(b).given), memo=True, memo_mb=memo_mb)
        cold = ec.stats
        out[label] = {"first_hits": first.memo_hits, "first_stores": first.memo_stores,
                      "cold_nodes": cold.nodes, "warm_nodes": warm.nodes,
                      "cold_hits": cold.memo_hits, "warm_hits": warm.memo_hits,
                      "seconds": first.seconds + warm.seconds + cold.seconds}
    return out


# ---------------------------------------------------------------- band decomposition keys
def band_key_sizes(kind_text: str, row2, row3, keys) -> dict:
    """Step 4: band-1 fillings (row 1 = 1..9) keeping the kind's rules inside band 1, and
    the distinct interfaces a band decomposition would carry."""
    kind = as_kind(kind_text)
    grid = {0: None, 1: row2, 2: row3}

    def digits(cell):
        r, c = divmod(cell, N)
        return np.full(len(row2), ROW1[c], dtype=np.int8) if r == 0 else grid[r][:, c]

    ok = np.ones(len(row2), dtype=bool)
    house_cells = []
    for house in kind.houses():
        inside = [k for k in house if k < 3 * N]
        house_cells += inside
        for a, b in itertools.combinations(inside, 2):
            ok &= digits(a) != digits(b)
    for a, b in kind.differences():
        if b < 3 * N:
            ok &= digits(a) != digits(b)
    k = keys[ok]
    out = {"kind": kind_text, "fillings": int(ok.sum()), "patterns": n_distinct(k[:, 0], k[:, 1])}
    if kind.differences():
        out["label"] = "row 3"
        out["keys"] = n_distinct(k[:, 0], k[:, 1], *(row3[ok][:, c] for c in range(N)))
    elif house_cells:
        out["label"] = "digits on " + ", ".join(f"r{c // N + 1}c{c % N + 1}" for c in sorted(house_cells))
        out["keys"] = n_distinct(k[:, 0], k[:, 1], *(digits(c)[ok] for c in sorted(house_cells)))
    else:
        out["label"] = "none"
        out["keys"] = out["patterns"]
    return out


# ---------------------------------------------------------------- report
def markdown(res: dict) -> str:
    g = lambda x: f"{x:,}"   # noqa: E731
    lines = ["# Sharing work across a kind's units: what pays (issue 35 item 3)", "",
             f"Written by `nice python scripts/measure_variant_sharing.py --markdown "
             f"results/variants-sharing.md` ({res['seconds']:,.0f} s wall, load average "
             f"{res['load'][0]:.1f} at the start, {res['load_end'][0]:.1f} at the end). "
             "Machine: " + ", ".join(f"{k} {v}" for k, v in res["machine"].items()
                                     if k in ("cpu", "cores", "memory_gib", "python",
                                              "engine_version")) + ".", ""]
    for name, kres in res["kinds"].items():
        lines += [f"## {name}: prefix `{kres['prefix']}`, {g(kres['units'])} units", "",
                  "**1. Which units can meet the same row-end state** (all units; a state after "
                  "row k holds the givens below row k: their cells, their (row, digit) and their "
                  "(box, digit) items, so only units equal in these can share it):", "",
                  "| after row | groups of units that could meet | largest group | "
                  "units in a group of 2 or more |", "|---:|---:|---:|---:|"]
        for row in kres["groups"]:
            lines.append(f"| {row['k']} | {g(row['groups'])} | {g(row['largest'])} | "
                         f"{g(row['shared'])} |")
        s = kres["row3"]
        lines += ["", "**2. States after row 3 (the band-1 border), all units, exact:** "
                  f"the units' {g(s['completions'])} band-1 completions reach {g(s['per_unit_sum'])} "
                  f"states counted "
                  f"unit by unit (median {g(s['median_per_unit'])} a unit); one table shared by "
                  f"all units would hold {g(s['union'])} (the {g(s['groups'])} groups of step 1 "
                  f"after row 3 taken apart): per-unit memos compute "
                  f"{s['per_unit_sum'] / max(s['union'], 1):,.2f}× the states one shared memo "
                  "would.", ""]
        if kres.get("engine"):
            lines += ["**3. The engine: one table per sub-unit, per unit, for all** (sub-units: a "
                      "unit with one band-1 completion given, "
                      f"{res['per_unit']} drawn from each unit's completions; the same sub-units in "
                      "the same order, the memo emptied before each sub-unit (alone), at each new "
                      "unit (cold: today's per-unit table, at this density) or never (warm: one "
                      "table for all); the counts agree in all three). 'Within' is what a unit's "
                      "own table saved (alone to cold), 'across' what one table for all units "
                      "saved beyond that (cold to warm):", "",
                      "| sample | units | sub-units | nodes alone | nodes cold | nodes warm | within | "
                      "across | CPU cold | CPU warm |",
                      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
            for label, e in kres["engine"].items():
                within = 1 - e["cold_nodes"] / max(e["alone_nodes"], 1)
                saved = 1 - e["warm_nodes"] / max(e["cold_nodes"], 1)
                lines.append(f"| {label} | {e['units']} | {e['subunits']} | {g(e['alone_nodes'])} | "
                             f"{g(e['cold_nodes'])} | {g(e['warm_nodes'])} | {within:.1%} | "
                             f"{saved:.1%} | {e['cold_cpu']:.1f} s | {e['warm_cpu']:.1f} s |")
            lines.append("")
    ak = res.get("anti-king", {})
    if "same column sets" in ak:
        lines += [f"## 3x3+anti-king: its units of band 1 ({ak['units']:,} units, "
                  f"{ak['patterns']:,} column-set patterns), in the engine", "",
                  "**5.** Two units of equal band-1 column sets and two of different ones; the "
                  "second of each pair counted after the first in one table (warm) and alone "
                  "(cold):", "",
                  "| pair | first unit: memo hits / stores | second, cold: nodes (hits) | "
                  "second, warm: nodes (hits) | saved |", "|---|---:|---:|---:|---:|"]
        for label in ("same column sets", "different column sets"):
            e = ak[label]
            lines.append(f"| {label} | {g(e['first_hits'])} / {g(e['first_stores'])} | "
                         f"{g(e['cold_nodes'])} ({g(e['cold_hits'])}) | {g(e['warm_nodes'])} "
                         f"({g(e['warm_hits'])}) | "
                         f"{1 - e['warm_nodes'] / max(e['cold_nodes'], 1):.1%} |")
        lines.append("")
    lines += ["## Band decomposition: the interfaces it would carry", "",
              "Every band 1 with row 1 = 1..9 that keeps the kind's rules inside the band, and "
              "how many distinct interfaces a band decomposition would key its tables on: "
              "the column sets (what `patterns3` carries for plain Sudoku), with the label the "
              "kind's rules need across a border.", "",
              "| kind | band-1 fillings | distinct column sets | label carried | distinct keys | "
              "keys per column-set pattern |", "|---|---:|---:|---|---:|---:|"]
    for b in res["bands"]:
        lines.append(f"| `{b['kind']}` | {g(b['fillings'])} | {g(b['patterns'])} | {b['label']} | "
                     f"{g(b['keys'])} | {b['keys'] / max(b['patterns'], 1):,.1f} |")
    lines += conclusion(res)
    return "\n".join(lines) + "\n"


def conclusion(res: dict) -> list[str]:
    """The reading of the figures above, each figure taken from them."""
    c, gi = res["kinds"]["3x3+centre"], res["kinds"]["3x3+girandola"]
    ak = res.get("anti-king")
    ak2 = res.get("anti-king-rows2")
    bands = {b["kind"]: b for b in res["bands"]}
    plain = bands["3x3"]["patterns"]

    def ratio(k):
        s = res["kinds"][k]["row3"]
        return s["per_unit_sum"] / max(s["union"], 1)

    def first_shared(kres):
        return next((r for r in kres["groups"] if r["largest"] > 1), None)

    def saved(label, a="cold", b="warm"):
        e = c["engine"][label]
        return 1 - e[f"{b}_nodes"] / max(e[f"{a}_nodes"], 1)

    row5 = next(r for r in c["groups"] if r["k"] == 5)
    gi5 = first_shared(gi)
    out = ["", "## Method and conclusion", "",
           "Method: steps 1, 2 and 4 enumerate exactly (every unit of the prefix, every band-1 "
           "filling with row 1 = 1..9, 2,612,736 of them, in NumPy); step 3 counts sub-units with "
           "the engine as `count` does (memo at row ends), with the table emptied before each "
           "sub-unit, at each new unit and never, and checks that all three give the same "
           "counts. A state is what "
           "the memo keys on (the uncovered columns), so equal cells, (row, digit) and (box, "
           "digit) items given below row k are necessary for two units to meet at row k; step "
           "2 compares the states themselves (column sets with the digits given below).", "",
           f"* **A shared row-end memo does not pay, on these figures, for these kinds with "
           f"their best prefixes.** To bring centre-dot's 164 core-hours within a day on 2 "
           f"cores (48 core-hours) it would have to save 3.4× (girandola, 241: 5×). "
           f"Centre-dot by row 1 + its cells: up to row 4 units can share states in pairs at "
           f"most ({c['groups'][1]['shared']:,} of {c['units']:,} units have a partner), from row "
           f"5 in groups of at most {row5['largest']:,}, all of them only after row 8; at the "
           f"band-1 border per-unit memos compute {ratio('3x3+centre'):.2f}× the states one "
           f"shared memo would. Counting sub-units with a warm table saved "
           f"{saved('one group after row 5 (same givens in rows 6-9)'):.1%} of the nodes for "
           f"units of one group after row 5 and "
           f"{saved('different groups after row 5'):.1%} for units of different groups, "
           f"where each unit's own table saved "
           f"{saved('one group after row 5 (same givens in rows 6-9)', 'alone', 'cold'):.1%} "
           f"at the same density ({res['per_unit']} of a unit's band-1 completions, median "
           f"{c['row3']['median_per_unit']:,} states). A full unit and a full group share "
           "more than this sample, which bounds nothing at full density; what it shows is "
           "that units of one group share about as their own sub-units do, units of different "
           "groups almost not at all, and that the states of these searches are mostly "
           "distinct even inside a unit. "
           f"Girandola by row 1 + its cells: no two units can meet before row "
           f"{gi5['k'] if gi5 else 9} ({ratio('3x3+girandola'):.2f}× at the band-1 border). "
           "The house cells given below row 1, which make these prefixes cheap, are what "
           "keeps units apart.",
           "* A shared memo could pay only for prefixes that give nothing below their rows "
           "(rows 1-2, band 1), whose units are many times more work by the estimates "
           "(`results/variants-prefixes.md`: centre by band 1 3,641 core-hours against 164), "
           "and for anti-king, whose cheapest prefix is rows 1-2"
           + (f" ({ak2['units']:,} units, all with equal (no) givens below row 2)" if ak2 else "")
           + ": there a state after row k holds row k's digits (its pairs with row k+1), so "
           "states after row 3 determine row 2 and units can meet from row 4 on. "
           + (f"Step 5: a unit of band 1 stored {ak['same column sets']['first_stores']:,} row-end "
              f"states and found {ak['same column sets']['first_hits']:,} of them again, and a warm "
              f"table saved {1 - ak['same column sets']['warm_nodes'] / max(ak['same column sets']['cold_nodes'], 1):.1%} "
              "for a unit with the first one's column sets and "
              f"{1 - ak['different column sets']['warm_nodes'] / max(ak['different column sets']['cold_nodes'], 1):.1%} "
              "for one with other column sets: the memo key holds every secondary item of "
              "the difference pairs, those of pairs whose two cells are filled too, so a state "
              "keeps which digits every finished pair holds and no two states met are equal, "
              "inside a unit or across units. A key without the items of finished pairs (they "
              "no longer constrain anything) would let units of equal column sets meet from "
              "row 4 on; not built: it is an engine change, and it concerns anti-knight too."
              if ak and "same column sets" in ak else "Not measured here."),
           f"* **A band decomposition's interface is small for the kinds with one house cell per "
           f"box.** With row 1 fixed, plain Sudoku's bands have {plain:,} column-set patterns "
           f"(what `patterns3` contracts, 9×9 in under a second); carrying the digits on the "
           f"band's house cells makes {bands['3x3+centre']['keys']:,} keys for centre-dot "
           f"({bands['3x3+centre']['keys'] / plain:.1f}× plain), "
           f"{bands['3x3+girandola']['keys']:,} for girandola "
           f"({bands['3x3+girandola']['keys'] / plain:.1f}×) and "
           f"{bands['3x3+asterisk']['keys']:,} for asterisk "
           f"({bands['3x3+asterisk']['keys'] / plain:.1f}×). The contraction also grows by the "
           "label combinations of the three bands (house digits disjoint across bands) and by "
           "the smaller symmetry group (fewer classes); not measured here. For anti-king the "
           f"interface is the whole band ({bands['3x3+anti-king']['keys']:,} keys for "
           f"{bands['3x3+anti-king']['fillings']:,} fillings): no compression.",
           "* **Conclusion:** build band decompositions for centre-dot, girandola and asterisk "
           "(a band table keyed on column sets and the band's three house digits, contracted "
           "over compatible bands with disjoint house digits), checked against brute force on "
           "4×4 and 6×6 kinds with one house cell per box; anti-king needs its own measurement "
           "(a shared memo with rows 1-2, or a row-by-row transfer)."]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", metavar="FILE", help="write the results as Markdown")
    ap.add_argument("--sample-units", type=int, default=4, help="units per engine sample")
    ap.add_argument("--per-unit", type=int, default=24, help="sub-units per unit (engine)")
    ap.add_argument("--memo-mb", type=float, default=512, help="memo table (engine samples)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    res = {"machine": describe_machine(), "load": os.getloadavg(), "kinds": {}, "bands": [],
           "per_unit": args.per_unit}
    row2, row3 = band_fillings()
    keys = column_keys(row2, row3)
    print(f"band fillings with row 1 = 1..9: {len(row2):,}")
    for kind, prefix in (CENTRE, GIRANDOLA):
        red = PrefixReduction(kind, prefix)
        units = red.units()
        kres = {"prefix": prefix, "units": len(units), "groups": group_table(units),
                "row3": row3_sharing(units, row2, row3, keys)}
        print(kind, kres["groups"], kres["row3"])
        if kind == CENTRE[0] and args.sample_units:
            rng = random.Random(args.seed)
            by_low = defaultdict(list)
            for u in units:
                by_low[below(u, 5)].append(u)
            big = max(by_low.values(), key=len)
            same = rng.sample(big, min(args.sample_units, len(big)))
            apart = [rng.choice(v) for v in rng.sample(list(by_low.values()),
                                                       min(args.sample_units, len(by_low)))]
            kres["engine"] = {
                "one group after row 5 (same givens in rows 6-9)":
                    engine_sample(red, same, row2, row3, args.per_unit, args.seed, args.memo_mb),
                "different groups after row 5":
                    engine_sample(red, apart, row2, row3, args.per_unit, args.seed, args.memo_mb)}
            print(kres["engine"])
        res["kinds"][kind] = kres
    ak = PrefixReduction("3x3+anti-king", "rows=2").units()
    res["anti-king-rows2"] = {"units": len(ak), "groups": group_table(ak)}
    if args.sample_units:
        res["anti-king"] = anti_king_pairs(args.seed, args.memo_mb)
        print(res["anti-king"])
    for kind in BAND_KINDS:
        res["bands"].append(band_key_sizes(kind, row2, row3, keys))
        print(res["bands"][-1])
    res["seconds"] = time.perf_counter() - t0
    res["load_end"] = os.getloadavg()
    text = markdown(res)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
