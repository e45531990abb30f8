"""Running units: the one unit counter and its engine cache
(:mod:`counting.run.counter`), the local process pool
(:mod:`counting.run.pool`), the Dask pool (:mod:`counting.run.dask_pool`,
:mod:`counting.run.dask_stats`) and the progress bar
(:mod:`counting.run.progress`)."""
