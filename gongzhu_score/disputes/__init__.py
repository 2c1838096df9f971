"""Settling disputes: claimed scores (自报得分) checked, rule sets compared."""
