# Partnership Whist, the English short game of five points.
# Restated in docs/rules/whist.md; each rule cites its clause (RW-n).
game whist "Whist"
tables "whist.yaml"
examples "examples/whist"

players:
  seats [RW-2]: 4 seats
  partnerships [RW-2]: partners sit opposite each other
  start [RW-2]: each seat starts at 0

deal:
  rotation [RW-3]: the first dealer is drawn at random; the deal passes left after every deal
  one-by-one [RW-4]: 13 rounds of 1 card to each seat
  turned-trump [RW-5, RW-6]: the dealer's last card is dealt face up
  trumps [RW-5]: the suit of the face up card is trumps

play:
  first-lead [RW-8]: left of the dealer leads the first trick
  follow-suit [RW-9]: must play a card of the suit led when able
  trick-winner [RW-10]: the highest trump wins, else the highest card of the suit led

scoring:
  odd-tricks [RW-12]: each side scores max(tricks of its side - book, 0)

end:
  game-end [RW-14]: the game ends after a deal when any seat has score >= game
  winners [RW-15]: seats with score >= game
