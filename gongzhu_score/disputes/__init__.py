"""Settling disputes: claims checked against the rules, rule sets compared on one hand."""
