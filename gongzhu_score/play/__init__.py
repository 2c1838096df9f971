"""Play (出牌): the state of play and its rules, replaying a trick-by-trick record, claims of the
remaining tricks (声称), and judging a record whole."""
