# Oh Hell: an exact bid from every seat, the dealer hooked, hand sizes that shrink.
# Restated in docs/rules/oh-hell.md; each rule cites its clause (ROH-n).
game oh-hell "Oh Hell"
tables "oh-hell.yaml"
examples "examples/oh-hell"

players:
  seats [ROH-2]: 3 to 7 seats, 4 by default
  start [ROH-2]: each seat starts at 0

deal:
  first-hand [ROH-3]: let first hand = min(most-cards, 51 / number of seats)
  rotation [ROH-4]: the first dealer is drawn at random; the deal passes left after every deal
  one-by-one [ROH-3, ROH-5]: (first hand - deal number + 1) rounds of 1 card to each seat
  stock [ROH-5]: the other cards form the stock
  turn-up [ROH-6]: the top card of the stock is turned face up
  trumps [ROH-6]: the suit of the face up card is trumps

auction:
  opener [ROH-7]: left of the dealer speaks first
  bids [ROH-7]: each seat bids once: a number from 0, at most hand size
  hook [ROH-8, ROH-9]: a bid may be made only when speaker is not dealer or total bid + this bid != hand size

play:
  first-lead [ROH-10]: left of the dealer leads the first trick
  follow-suit [ROH-11]: must play a card of the suit led when able
  trick-winner [ROH-12]: the highest trump wins, else the highest card of the suit led

scoring:
  exact [ROH-13]: each seat scores exact-bonus + bid of seat if tricks = bid of seat else 0

end:
  game-end [ROH-15]: the game ends after a deal when deals played >= first hand
  winners [ROH-15, ROH-16]: every seat, then the highest score
