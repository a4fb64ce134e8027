# A small plain-trick game: the base of many specs of the broken-spec corpus.
game tiny "Tiny"
tables "tiny.yaml"

players:
  Seats: 4 seats
  start: each seat starts at 0

deal:
  rotation: the deal passes left after every deal
  rounds: 2 rounds of 4 cards to each seat

auction:
  opener: left of the dealer speaks first
  bids: a bid is a number from 1, above the highest bid
  pass-is-final: a seat that has passed does not speak again
  all-pass: when every seat passes without a bid, the deal is annulled

play:
  lead: left of the dealer leads the first trick
  follow: must play a card of the suit led when able
  winner: the highest card of the suit led wins

scoring:
  result: each seat scores tricks of seat

end:
  game-end: the game ends after a deal when deals played >= 4
  winners: every seat, then the highest score
