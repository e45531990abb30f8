"""The stronger solving techniques, one module per family, each a function
``technique(geometry, candidates) -> Deduction | None`` that only removes
candidates, and only ones no solution of the current position can hold.

:data:`TECHNIQUES` lists them in the order the rule solver tries them
(after singles, locked candidates and naked/hidden pairs and triples),
simplest first:

* :mod:`~grids.puzzles.techniques.fish` — X-Wing, Swordfish, Jellyfish;
* :mod:`~grids.puzzles.techniques.wings` — XY-Wing, XYZ-Wing;
* :mod:`~grids.puzzles.techniques.colouring` — simple colouring;
* :mod:`~grids.puzzles.techniques.chains` — X-chain, XY-chain, AIC.
"""
from grids.puzzles.techniques.chains import aic, x_chain, xy_chain
from grids.puzzles.techniques.colouring import simple_colouring
from grids.puzzles.techniques.fish import jellyfish, swordfish, x_wing
from grids.puzzles.techniques.wings import xy_wing, xyz_wing

__all__ = ["TECHNIQUES"]

#: ``(rule name, function)`` in the order they are tried.
TECHNIQUES = (
    ("X-Wing", x_wing),
    ("XY-Wing", xy_wing),
    ("Swordfish", swordfish),
    ("simple colouring", simple_colouring),
    ("XYZ-Wing", xyz_wing),
    ("X-chain", x_chain),
    ("XY-chain", xy_chain),
    ("Jellyfish", jellyfish),
    ("AIC", aic),
)
