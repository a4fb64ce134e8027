# 501 (Pyatsot odno): a Russian point-trick game for three players.
# Restated in docs/rules/501.md; each rule cites its clause (R501-n).
game 501 "501 (Pyatsot odno)"
tables "501.yaml"
examples "examples/501"

players:
  seats [R501-2]: 3 or 4 seats
  sit-out [R501-2]: the dealer sits out when there are 4 seats
  start [R501-3]: each seat starts at start-score

deal:
  rotation [R501-4]: the first dealer is drawn at random; the deal passes left after every deal
  first-rounds [R501-5, R501-6]: 3 rounds of 1 card to each seat, then 1 card to the talon
  last-rounds [R501-5]: 4 rounds of 1 card to each seat

auction:
  opener [R501-7]: left of the dealer speaks first
  bids [R501-7]: a bid is a number from minimum-bid, above the highest bid
  pass-is-final [R501-8, house]: a seat that has passed does not speak again
  all-pass [R501-9]: when every seat passes without a bid, the deal is annulled
  blind-bidding [R501-10, R501-11]: a seat may bid blind until it looks at its cards

contract:
  show-talon [R501-12]: the talon is shown to every seat
  abandon [R501-13]: the declarer may abandon the deal
  take-talon [R501-13]: the declarer takes the talon
  trumps [R501-14]: the declarer names trumps: a suit or none
  final-contract [R501-14]: the declarer names the contract: a number, at least the bid
  give [R501-15]: the declarer gives 1 card face down to each defender

play:
  first-lead [R501-16]: left of the dealer leads the first trick
  follow-suit [R501-17]: must play a card of the suit led when able
  must-trump [R501-17]: must play a trump when able
  trick-winner [R501-17]: the highest trump wins, else the highest card of the suit led

melds:
  marriage [R501-18]: meld of K and Q of one suit, announced when leading one of them
  marriage-worth [R501-18]: a marriage is worth marriage-in-trumps when its suit is trumps, else marriage-plain
  marriage-counts [R501-19]: a marriage counts when tricks of its announcer >= 1

scoring:
  deal-points [R501-20]: points of each seat = card points of seat + meld points of seat
  made [R501-20]: the contract is made when points of declarer >= contract
  stake [R501-11]: let stake = 2 if blind else 1
  declarer-result [R501-20]: when played, the declarer scores (-contract if made else contract) * stake
  defender-result [R501-20]: when played, each defender scores -points of seat
  abandon-result [R501-21]: when abandoned, the declarer scores bid * stake
  abandon-penalty [R501-21]: when abandoned, each defender scores -abandon-penalty

end:
  game-end [R501-22]: the game ends after a deal when any seat has score <= 0
  winners [R501-23, house]: seats with score <= 0, then the lowest score
