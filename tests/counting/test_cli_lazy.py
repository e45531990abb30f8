"""The command group loads a command's module only when the command runs
(counting/cli/lazy.py): ``gridcount --version`` and ``--help`` import none of
the library, and the group's listing is the one the imported commands give."""
import click
import pytest
from click.testing import CliRunner

from counting.cli import COMMANDS, cli
from counting.cli.lazy import LazyGroup, short_help

# what a command needs and --version/--help do not: the job, the pool, the engine, numpy
HEAVY = ("counting.job", "counting.run.pool", "counting.reduction", "dlx", "numpy")

_PROBE = """
import sys
from counting.cli import cli
try:
    cli(sys.argv[1:], prog_name="gridcount")
except SystemExit:
    pass
heavy = [m for m in {heavy!r} if m in sys.modules]
print("loaded:", ",".join(heavy), file=sys.stderr)
"""


@pytest.fixture
def loaded(run_python):
    """``loaded(*args, among=HEAVY)``: the modules of ``among`` that
    ``gridcount ARGS`` has imported when it ends (in a fresh process)."""
    def modules(*args: str, among=HEAVY) -> list[str]:
        out = run_python("-c", _PROBE.format(heavy=among), *args)
        line = [x for x in out.stderr.splitlines() if x.startswith("loaded:")]
        assert line, out.stderr
        return [m for m in line[-1].removeprefix("loaded:").strip().split(",") if m]
    return modules


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["-h"]])
def test_version_and_help_import_none_of_the_library(args, loaded):
    assert loaded(*args) == []


def test_a_command_loads_what_it_needs(loaded):
    assert "counting.job" in loaded("count", "--help")


def test_count_help_imports_neither_dask_nor_the_dask_pool(loaded):
    # noticed: cli/count.py imported counting.run.dask_pool for one help text
    # (--wait-workers' default), and plan.py for three exception classes
    dask = ("dask", "distributed", "counting.run.dask_pool")
    assert loaded("count", "--help", among=dask + ("counting.cli.count",)) == \
        ["counting.cli.count"]          # the command was imported, its help built


def test_the_group_lists_every_command_with_the_help_its_function_gives():
    eager = click.Group(name="gridcount")
    for name, (module, attribute) in COMMANDS.items():
        command = getattr(__import__(module, fromlist=[attribute]), attribute)
        assert command.name == name   # the table names each command as click does
        eager.add_command(command)
    lazy = LazyGroup(name="gridcount", lazy_commands=COMMANDS)
    for width in (60, 80, 120):
        texts = []
        for group in (eager, lazy):
            ctx = click.Context(group, terminal_width=width)
            formatter = ctx.make_formatter()
            group.format_commands(ctx, formatter)
            texts.append(formatter.getvalue())
        assert texts[0] == texts[1]
        assert "count-solutions" in texts[1]


def test_short_help_is_read_from_the_source_as_click_shortens_it():
    from counting.cli.count import count
    for limit in (30, 45, 70):
        assert short_help("counting.cli.count", "count", limit) == count.get_short_help_str(limit)
    assert short_help("counting.cli.count", "no_such_function", 45) is None


def test_every_puzzle_command_is_in_the_group():
    from counting.cli.puzzles import COMMANDS as PUZZLE_COMMANDS
    assert {c.name for c in PUZZLE_COMMANDS} <= set(COMMANDS)


def test_the_group_still_runs_its_commands():
    result = CliRunner().invoke(cli, ["classes", "2x2"])
    assert result.exit_code == 0, result.output
    assert "classes" in result.output


def test_solve_without_a_bar_imports_neither_tqdm_nor_the_package_metadata(loaded):
    # issue 37: tqdm (and the package metadata it reads) were imported for a bar
    # that cannot show when stderr is no terminal: a tenth of `solve FILE`'s start-up
    assert loaded("solve", "1234341221434321", among=("tqdm", "importlib.metadata")) == []
    assert loaded("generate", "--shape", "2x2", "--clues", "6", "--seed", "1",
                  among=("tqdm",)) == []


def test_solve_loads_no_explanation_generation_variants_or_pool(loaded):
    # issue 37: `solve FILE` imported the explanation (rule solver, techniques),
    # the generator, the variant constraints (hashlib, their encoding), the
    # process pool of dlx.pools and concurrent.futures, none of which it uses
    unused = ("grids.puzzles.explanation", "grids.puzzles.generation", "grids.puzzles.rules",
              "grids.puzzles.techniques", "grids.variants", "dlx.pools", "concurrent.futures",
              "counting.cli.explain", "counting.cli.generate")
    assert loaded("solve", "1234341221434321", among=unused) == []
    assert loaded("solve", "--first", "--json", "1234341221434321", among=unused) == []
    # and the commands that use them still load them
    assert "grids.puzzles.explanation" in loaded("explain", "1234341221434321",
                                                 among=unused)


PLAIN = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
         "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n")


@pytest.mark.parametrize("flags", [[], ["--first"]])
def test_solve_of_a_plain_file_loads_no_numpy(flags, loaded, tmp_path):
    # issue 37: importing NumPy was 0.10 s of `solve --first FILE`'s 0.44 s (tdoku's
    # whole run 0.17 s); a file of N²-symbol lines is read, solved and written as bytes
    path = tmp_path / "plain.txt"
    path.write_text(PLAIN)
    assert loaded("solve", *flags, str(path), among=("numpy",)) == []


def test_solve_of_any_other_input_still_takes_the_library_way(loaded, tmp_path):
    # the plain way is only for plain files without --json, --all, --workers or a bar
    path = tmp_path / "plain.txt"
    path.write_text(PLAIN)
    commented = tmp_path / "commented.txt"
    commented.write_text("# two puzzles\n" + PLAIN)
    assert loaded("solve", "--json", str(path), among=("numpy",)) == ["numpy"]
    assert loaded("solve", str(commented), among=("numpy",)) == ["numpy"]
