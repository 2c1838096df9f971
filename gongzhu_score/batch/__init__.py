"""Scoring sets of recorded hands: which run each input takes, reading them, scoring them in
order on one core, every core, a column at a time or on Dask, per-player totals."""

from ..core import from_source

from_source(__name__, __file__, "lines")  # (the compiled loop, or its source: as the engine)
