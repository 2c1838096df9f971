"""Turning results into text for people and data for scripts: the output formats, tables, help
pages, each in the language asked (the words: :mod:`..terms`)."""

from ..core import from_source

from_source(__name__, __file__, "lines")  # (the compiled lines, or their source: as the engine)
