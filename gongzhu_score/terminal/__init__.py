"""The terminal a command runs at: its streams, its width, the prompts.

The prompts ask a table for a hand one line at a time. The command line (:mod:`..cli`) wires
these in.
"""
