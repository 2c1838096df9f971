"""The seat colours every picture uses: the chart files, and the page, which gets them from
the server.

One colour a seat, seat 1 first, so that a player is drawn in the same colour everywhere. Each
has a contrast of at least 4.5:1 against white (WCAG AA for text: the page writes names in
white on them; graphics need 3:1).
"""

from __future__ import annotations

__all__ = ["SEAT_COLOURS"]

SEAT_COLOURS: tuple[str, ...] = ("#1f6fbf", "#177a4a", "#b35a0c", "#8a3fb8")
"""Seats 1 to 4: blue, green, orange, purple (contrast on white 5.1, 5.4, 4.8, 6.0: the page
writes white names on them, which needs 4.5:1)."""
