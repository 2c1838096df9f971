"""Results as text for people and data for scripts, in the language asked.

The output formats, tables and help pages live here; the words are :mod:`..terms`.
"""

from ..core import from_source

from_source(__name__, __file__, "lines")  # (the compiled lines, or their source: as the engine)
