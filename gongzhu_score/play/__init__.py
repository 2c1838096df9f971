"""Play (出牌): its state and rules, replay, claims (声称), judging records."""
