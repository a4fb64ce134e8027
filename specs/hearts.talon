# Hearts (Black Lady): pass three cards, no trumps, avoid hearts and the queen of spades.
# Restated in docs/rules/hearts.md; each rule cites its clause (RH-n).
game hearts "Hearts"
tables "hearts.yaml"
examples "examples/hearts"

players:
  seats [RH-2]: 4 seats
  start [RH-2]: each seat starts at 0

deal:
  rotation [RH-3]: the first dealer is drawn at random; the deal passes left after every deal
  one-by-one [RH-3]: 13 rounds of 1 card to each seat

exchange:
  passing [RH-4, RH-5, RH-6]: each seat passes 3 cards face down to the left, then right, then across, then nobody

play:
  first-lead [RH-7]: the holder of the 2C leads it to the first trick
  follow-suit [RH-8]: must play a card of the suit led when able
  no-points-first [RH-9]: may not play a heart or the QS to the first trick unless it holds nothing else
  broken [RH-10]: let hearts broken = hearts played > 0
  no-heart-lead [RH-11]: when not hearts broken, may not lead a heart unless it holds nothing else
  trick-winner [RH-8]: the highest card of the suit led wins

scoring:
  penalty [RH-12]: points of each seat = card points of seat
  shooter [RH-13]: let shooter = hearts taken by seat = 13 and QS taken by seat = 1
  moon [RH-13]: let shot = any seat has shooter
  deal-score [RH-13]: each seat scores (0 if shooter else moon-points) if shot else points

end:
  game-end [RH-14]: the game ends after a deal when any seat has score >= game
  winners [RH-14]: every seat, then the lowest score
