"""Turning results into text: the output formats, tables, and the words of each in English and
Chinese (:mod:`.words`, joined to the one table of terms here, before any output is made)."""

from ..core import from_source
from . import words as words

from_source(__name__, __file__, "lines")  # (the compiled lines, or their source: as the engine)
