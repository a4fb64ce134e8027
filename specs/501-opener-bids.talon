# House rule: the first speaker (the dealer's left neighbour) may not pass on its first
# turn: it must bid at least the minimum (blind, if it has not looked).
variant 501-opener-bids "501, the opener must bid"
extends 501

auction:
  add opener-bids [house] after opener: the opener may not pass at its first turn
