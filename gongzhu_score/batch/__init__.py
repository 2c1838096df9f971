"""Scoring many recorded hands: on one core, every core, or Dask.

It chooses each input's run, reads the inputs, scores them in order by columns or by rows, and
keeps per-player totals.
"""
