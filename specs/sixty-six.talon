# Sixty-six (Sechsundsechzig): two players, a stock to draw from, closing, marriages.
# Restated in docs/rules/sixty-six.md; each rule cites its clause (R66-n).
game sixty-six "Sixty-six"
tables "sixty-six.yaml"
examples "examples/sixty-six"

players:
  seats [R66-2]: 2 seats
  start [R66-2]: each seat starts at 0
  record-start [R66-2, R66-19]: a record may start only when every seat has score >= 0

deal:
  rotation [R66-3]: the first dealer is drawn at random; the deal passes left after every deal
  packets [R66-4]: 2 rounds of 3 cards to each seat
  stock [R66-4]: the other cards form the stock
  turn-up [R66-4]: the bottom card of the stock is turned face up
  trumps [R66-4]: the suit of the face up card is trumps

play:
  first-lead [R66-5]: left of the dealer leads the first trick
  draw [R66-6]: after each trick, every seat draws a card from the stock, the winner first
  trump-exchange [R66-11]: the leader may exchange the 9 of trumps for the face up card when tricks of seat >= 1 and stock > 2
  close [R66-12]: the leader may close the stock
  follow-suit [R66-7, R66-8]: when closed or stock = 0, must play a card of the suit led when able
  must-beat [R66-8]: when closed or stock = 0, must play a card that beats the trick when able
  must-trump [R66-8]: when closed or stock = 0, must play a trump when able
  trick-winner [R66-5]: the highest trump wins, else the highest card of the suit led
  sixty-six [R66-14]: the deal ends at once when any seat has points >= goal

melds:
  marriage [R66-9]: meld of K and Q of one suit, announced when leading one of them
  marriage-worth [R66-9]: a marriage is worth marriage-in-trumps when its suit is trumps, else marriage-plain
  marriage-counts [R66-10]: a marriage counts when tricks of its announcer >= 1

scoring:
  total [R66-13]: points of each seat = card points + meld points + (last-trick-bonus if seat is last trick winner and not closed else 0)
  reached [R66-14]: let reached = points >= goal
  closer-failed [R66-17]: let closer failed = closed and not (any seat has (reached and seat is closer))
  winner [R66-14, R66-15, R66-17]: let wins = reached and not closer failed or closer failed and seat is not closer or not closed and not (any seat has reached) and seat is last trick winner
  failed-closing [R66-17]: when wins and closer failed, each seat scores 3 if tricks at the close = 0 else 2
  game-points [R66-15, R66-16]: when wins and not closer failed, each seat scores 1 if every seat has (wins or points >= half) else 2 if every seat has (wins or tricks >= 1) else 3

end:
  game-end [R66-18]: the game ends after a deal when any seat has score >= game
  winners [R66-18]: seats with score >= game
