"""``python -m gridcount``: the ``gridcount`` command (:mod:`counting.cli`)."""
from counting import __version__

__all__ = ["__version__"]
