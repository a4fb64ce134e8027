# Tysyacha (1000): 501's big brother, with marriages that make trumps, the barrel and bolts.
# Restated in docs/rules/tysyacha.md; each rule cites its clause (R1000-n).
game tysyacha "Tysyacha (1000)"
tables "tysyacha.yaml"
examples "examples/tysyacha"

players:
  seats [R1000-3]: 3 seats
  start [R1000-3]: each seat starts at start-score
  barrel [R1000-22]: each seat keeps a count of barrel, starting at 0
  bolts [R1000-23]: each seat keeps a count of bolts, starting at 0
  record-start [R1000-25]: a record may start only when every seat has score < barrel-score

deal:
  rotation [R1000-4]: the first dealer is drawn at random; the deal passes left after every deal
  first-rounds [R1000-5]: 3 rounds of 1 card to each seat, then 1 card to the talon
  last-rounds [R1000-5]: 4 rounds of 1 card to each seat

auction:
  opener [R1000-6]: left of the dealer speaks first
  opening [R1000-6]: the opener may not pass at its first turn
  bids [R1000-7]: a bid is a number from opening-bid, in steps of 5, above the highest bid
  first-bid [R1000-6]: a bid may be made only when bids > 0 or this bid = opening-bid
  marriage-bid [R1000-8]: a bid may be made only when this bid <= 120 or speaker holds a marriage
  pass-is-final [R1000-7]: a seat that has passed does not speak again

contract:
  show-talon [R1000-10]: the talon is shown to every seat
  take-talon [R1000-10]: the declarer takes the talon
  abandon [R1000-11]: the declarer may abandon the deal
  give [R1000-12]: the declarer gives 1 card face down to each defender
  final-contract [R1000-13]: the declarer names the contract: a number, at least the bid, in steps of 5

play:
  first-lead [R1000-14]: the declarer leads the first trick
  follow-suit [R1000-15]: must play a card of the suit led when able
  must-trump [R1000-15]: must play a trump when able
  trick-winner [R1000-15]: the highest trump wins, else the highest card of the suit led

melds:
  marriage [R1000-2, R1000-16]: meld of K and Q of one suit, announced when leading one of them
  marriage-worth [R1000-2]: a marriage is worth marriage-by-suit of its suit
  marriage-after-trick [R1000-16]: a marriage may be announced only when tricks of its announcer >= 1
  marriage-trumps [R1000-17]: a marriage makes its suit trumps from the next trick

scoring:
  deal-points [R1000-18]: points of each seat = card points of seat + meld points of seat
  made [R1000-19]: the contract is made when points of declarer >= contract
  gain [R1000-11, R1000-19, R1000-20]: let gain = (-bid if abandoned else contract if made else -contract) if seat is declarer else (abandon-gain if abandoned else round(points, 5))
  on-barrel [R1000-22]: let on barrel = barrel > 0
  leaves [R1000-22]: let leaves barrel = on barrel and seat is declarer and (gain < 0 or barrel-score + gain >= goal)
  add-gain [R1000-21, R1000-22]: when not on barrel or leaves barrel, each seat scores gain
  bolt [R1000-23]: when not on barrel and gain = 0, each seat's bolts go up by 1
  third-bolt [R1000-23]: when bolts = bolts-allowed, each seat scores -bolt-penalty
  bolts-reset [R1000-23]: when bolts = bolts-allowed, each seat's bolts become 0
  barrel-time [R1000-22]: when on barrel and not leaves barrel, each seat's barrel goes up by 1
  barrel-drop [R1000-22]: when barrel > barrel-deals, each seat scores -barrel-penalty
  barrel-off [R1000-22]: when leaves barrel or barrel > barrel-deals, each seat's barrel becomes 0
  barrel-on [R1000-21, R1000-24]: when not on barrel and score >= barrel-score and not (seat is declarer and made and score >= goal), each seat's score becomes barrel-score
  barrel-mark [R1000-21]: when not on barrel and score = barrel-score, each seat's barrel becomes 1

end:
  game-end [R1000-24]: the game ends after a deal when any seat has score >= goal
  winners [R1000-24]: seats with score >= goal
