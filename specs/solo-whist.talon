# Solo Whist: four players, temporary alliances, a ladder of contracts.
# Restated in docs/rules/solo-whist.md; each rule cites its clause (RSW-n).
game solo-whist "Solo Whist"
tables "solo-whist.yaml"
examples "examples/solo-whist"

players:
  seats [RSW-1]: 4 seats
  start [RSW-17]: each seat starts at 0

deal:
  rotation [RSW-2]: the first dealer is drawn at random; the deal passes left after every deal
  packets [RSW-2]: 4 rounds of 3 cards to each seat
  singles [RSW-2]: 1 round of 1 card to each seat
  exposed-trump [RSW-3]: the dealer's last card is dealt face up

auction:
  opener [RSW-7]: left of the dealer speaks first
  bids [RSW-7]: a bid is a contract from the ladder, above the highest bid
  prop-opens [RSW-8]: prop may be bid only when the highest bid is none
  cop-accepts [RSW-8]: cop may be bid only when the highest bid is prop and the highest bidder is not speaker
  royal-overcall [RSW-4]: abundance-in-trumps may be bid only when the highest bid is abundance
  pass-is-final [RSW-9]: a seat that has passed does not speak again
  second-chance [RSW-9]: a seat that has passed may bid cop when speaker is opener and passes of speaker = 1 and bids in the first round = 1 and the highest bid is prop
  unaccepted [RSW-11]: when a partnership contract has no partner, its bidder may raise it, else the deal is annulled
  all-pass [RSW-11]: when every seat passes without a bid, the deal is annulled

contract:
  abundance-trumps [RSW-5]: the declarer names trumps: a suit

play:
  first-lead [RSW-12]: the declarer leads the first trick when declarer-leads, else left of the dealer
  follow-suit [RSW-12]: must play a card of the suit led when able
  trick-winner [RSW-12]: the highest trump wins, else the highest card of the suit led
  open-hand [RSW-6]: the declarer's hand is shown after the first trick when open
  concede [RSW-14]: the declarer may concede when the contract is lost and concedable

scoring:
  made [RSW-15, RSW-16]: the contract is made when tricks of declarers >= least and tricks of declarers <= most
  declarer-result [RSW-15, RSW-16]: each declarer scores (unit if made else -unit) * number of defenders / number of declarers
  defender-result [RSW-15, RSW-16]: each defender scores -unit if made else unit

end:
  game-end [RSW-17]: the game ends after a deal when deals played >= session-deals
  winners [RSW-17]: every seat, then the highest score
