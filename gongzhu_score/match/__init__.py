"""A match (比赛/一盘) as a ledger: the pure value, and its files on disk."""
