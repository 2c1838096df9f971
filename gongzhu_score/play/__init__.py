"""The rules of play (出牌规则): replaying a trick-by-trick record, checking every play."""
