"""A match (比赛/一盘): the ledger, its files, its changes, entry, stats."""
