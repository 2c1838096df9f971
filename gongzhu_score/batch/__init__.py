"""Scoring many recorded hands: on one core, every core, or Dask.

It chooses each input's run, reads the inputs, scores them in order by columns or by rows, and
keeps per-player totals.
"""

from ..core import from_source

from_source(__name__, __file__, "lines")  # (the compiled loop, or its source: as the engine)
