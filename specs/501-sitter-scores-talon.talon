# House rule: in a 4-seat game, when a deal is played or abandoned (not annulled), the
# dealer who sits out subtracts the card points of the three talon cards as dealt.
variant 501-sitter-scores-talon "501, the dealer sitting out scores the talon"
extends 501

scoring:
  add sitter-talon [house]: when dealer sits out, the dealer scores -card points of the talon
