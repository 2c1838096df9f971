"""Scoring files of recorded hands: reading them, scoring them in order, per-player totals."""
