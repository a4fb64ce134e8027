# A game with an auction on a ladder of contracts.
game bids "Bids"
tables "bids.yaml"

players:
  seats: 4 seats
  start: each seat starts at 0

deal:
  rotation: the deal passes left after every deal
  rounds: 4 rounds of 2 cards to each seat

auction:
  opener: left of the dealer speaks first
  bids: a bid is a contract from the ladder, above the highest bid
  six-later: six may be bid only when the highest bid is no-trumps
  pass-is-final: a seat that has passed does not speak again
  all-pass: when every seat passes without a bid, the deal is annulled

contract:
  trumps: the declarer names trumps: a suit

play:
  lead: left of the dealer leads the first trick
  follow: must play a card of the suit led when able
  winner: the highest trump wins, else the highest card of the suit led

scoring:
  made: the contract is made when tricks of declarers >= least
  declarer: each declarer scores unit if made else -unit
  defender: each defender scores -unit if made else unit

end:
  game-end: the game ends after a deal when deals played >= 4
  winners: every seat, then the highest score
