"""Settling disputes: claimed scores (自报得分) checked against the rules, rule sets compared on
one hand."""
