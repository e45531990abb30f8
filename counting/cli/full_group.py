"""``gridcount classes KIND --group``: the kind's full symmetry group.

A thin layer over :func:`counting.group.cover_automorphisms.compare`: the
order of the automorphism group of the kind's exact cover, the order of the
group ``--up-to-symmetry`` uses today (geometric part × relabelling), the
index, and what the full group adds, in words.  The comparison is kept in
the cache directory (:func:`counting.group.cover_cache.cached_compare`), so
a second run, ``status`` and ``report`` read it instead of computing it.
"""
from __future__ import annotations

import json

import click

from counting.cli.common import fail, note, print_table
from counting.exact_json import exact_map
from counting.group.cover_automorphisms import nauty_missing
from counting.group.cover_cache import cached_compare
from counting.group.group_note import with_factorial
from counting.run.notice import say_if_slow
from grids.kind import GridKind

__all__ = ["show_group"]


def show_group(kind: GridKind, as_json: bool) -> None:
    """Print the kind's full symmetry group beside today's (see the module docstring)."""
    missing = nauty_missing()
    if missing is not None:
        fail(missing)
    try:
        with say_if_slow(note, f"computing the symmetry groups of {kind.name} "
                               f"(nauty: minutes from 16x16 on) ..."):
            c = cached_compare(kind)
        index, adds = c.index, c.describe()
    except (ValueError, ArithmeticError) as e:
        fail(str(e))
    if as_json:
        orders = exact_map({"full_order": c.full_order, "today_order": c.today_order,
                            "index": index})
        click.echo(json.dumps({"kind": kind.name, **orders, "adds": adds}, indent=2))
        return
    n = kind.shape.n
    click.echo(f"{kind.name}: the symmetries of its exact cover (nauty), beside today's group")
    rows = [("full group (automorphisms of the exact cover)", with_factorial(c.full_order, n))]
    if c.today_order is not None:
        rows += [("today's group (geometric part × relabelling)",
                  with_factorial(c.today_order, n)),
                 ("index", f"{index:,}")]
    print_table(rows)
    if index == 1:
        click.echo("the full group is today's group: --up-to-symmetry already uses all of it")
    for line in adds:
        click.echo(line)
