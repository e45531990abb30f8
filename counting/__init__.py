"""gridcount's counting library: reductions, runs, the store, the CLI."""

__all__ = ["__version__"]


def __getattr__(name: str):
    """``__version__``, read from the installed package's metadata on first
    use ("0+unknown" in a source tree that was never installed).  Not at
    import: :mod:`importlib.metadata` and the lookup cost every process that
    imports the library (the CLI, each worker of a pool) 20-60 ms of its
    start-up (issue 37)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version
    try:
        value = version("gridcount")
    except PackageNotFoundError:   # a source tree that was never installed
        value = "0+unknown"
    globals()["__version__"] = value
    return value
