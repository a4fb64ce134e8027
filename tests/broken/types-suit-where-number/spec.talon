# A point-trick game with numeric bids and a meld.
game points "Points"
tables "points.yaml"

players:
  seats: 3 seats
  start: each seat starts at 0

deal:
  rotation: the deal passes left after every deal
  rounds: 8 rounds of 1 card to each seat

auction:
  opener: left of the dealer speaks first
  bids: a bid is a number from minimum-bid, above the highest bid
  pass-is-final: a seat that has passed does not speak again
  all-pass: when every seat passes without a bid, the deal is annulled

contract:
  trumps: the declarer names trumps: a suit or none

play:
  lead: left of the dealer leads the first trick
  follow: must play a card of the suit led when able
  winner: the highest trump wins, else the highest card of the suit led

melds:
  pair: meld of K and Q of one suit, announced when leading one of them
  pair-worth: a pair is worth 20

scoring:
  deal-points: points of each seat = card points of seat + meld points of seat
  made: the contract is made when points of declarer >= trumps
  declarer: the declarer scores contract if made else -contract

end:
  game-end: the game ends after a deal when any seat has score >= 500
  winners: seats with score >= 500, then the highest score
