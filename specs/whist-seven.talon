# RW-14's profile: the American game, played to 7 points.
variant whist-seven "Whist to seven"
extends whist

tables:
  set values game to 7
