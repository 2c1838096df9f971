"""The pure core: cards, rule sets, hands, the scoring engine, normalization. No I/O.

Nothing here imports from input, output or CLI code; everything else is built on it.
"""
