"""A match (比赛/一盘): the ledger as a value, its files on disk, every change as one function, a
hand being entered, stats across matches."""
