"""Turning results into text: the output formats, tables, and the words of each in English and
Chinese (:mod:`.words`, joined to the one table of terms here, before any output is made)."""

from . import words as words
