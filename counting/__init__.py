"""gridcount's counting library: reductions, runs, the store, the CLI."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("gridcount")
except PackageNotFoundError:   # a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
