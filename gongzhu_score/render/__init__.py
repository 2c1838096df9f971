"""Results as text for people and data for scripts, in the language asked.

The output formats, tables and help pages live here; the words are :mod:`..terms`.
"""
