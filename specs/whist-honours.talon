# RW-13's profile: honours counted. A side dealt all four of A K Q J of trumps scores 4,
# three of them 2; none for a side one point short of game when the deal began, and none
# if the tricks ended the game.
variant whist-honours "Whist with honours"
extends whist

scoring:
  add short [RW-13]: let one short = score = game - 1
  add honours [RW-13]: let honours = trump honours dealt to its side
  add honour-points [RW-13]: when not one short and not (any seat has score >= game), each side scores 4 if honours = 4 else 2 if honours = 3 else 0
