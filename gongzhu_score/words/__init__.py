"""The English of every term, by the part of the tool that says it.

Each other language is a catalog (``gongzhu_score/locale/``) that translates these. Data only:
:mod:`..terms` says them.
"""
