"""Scoring sets of recorded hands: which run each input takes, reading them, scoring them in
order on one core, every core, a column at a time or on Dask, per-player totals."""
