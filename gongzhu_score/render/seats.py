"""The seat colours every picture uses: the chart files, and the page, which gets them from
the server.

One colour a seat, seat 1 first, so that a player is drawn in the same colour everywhere. Each
has a contrast of at least 4.5:1 against white (WCAG AA for text: the page writes names in
white on them; graphics need 3:1).
"""

from __future__ import annotations

__all__ = ["MORE_COLOURS", "SEAT_COLOURS"]

SEAT_COLOURS: tuple[str, ...] = ("#1f6fbf", "#177a4a", "#b35a0c", "#8a3fb8")
"""Seats 1 to 4: blue, green, orange, purple (contrast on white 5.1, 5.4, 4.8, 6.0: the page
writes white names on them, which needs 4.5:1)."""

MORE_COLOURS: tuple[str, ...] = ("#00838f", "#ad1457", "#6d4c41", "#5b6b00")
"""The colours of a season's players past the fourth (``stats --chart``): teal, raspberry,
brown, olive (contrast on white 4.5, 7.0, 7.6, 5.9: more than the 3:1 a line needs)."""
