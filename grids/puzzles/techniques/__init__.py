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
from grids.puzzles.techniques.chains import AIC, X_CHAIN, XY_CHAIN, aic, x_chain, xy_chain
from grids.puzzles.techniques.colouring import SIMPLE_COLOURING, simple_colouring
from grids.puzzles.techniques.fish import FISH, jellyfish, swordfish, x_wing
from grids.puzzles.techniques.wings import XY_WING, XYZ_WING, xy_wing, xyz_wing

__all__ = ["TECHNIQUES"]

#: ``(rule name, function)`` in the order they are tried; each function's
#: deductions carry that rule name.
TECHNIQUES = (
    (FISH[2], x_wing),
    (XY_WING, xy_wing),
    (FISH[3], swordfish),
    (SIMPLE_COLOURING, simple_colouring),
    (XYZ_WING, xyz_wing),
    (X_CHAIN, x_chain),
    (XY_CHAIN, xy_chain),
    (FISH[4], jellyfish),
    (AIC, aic),
)
