"""Turning results into text: the output formats, tables, and the English/Chinese terms."""
