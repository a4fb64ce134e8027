# House rule 1 (house-rules.md): passing is not final. Drops the seed's clarification
# R501-8: a seat that passed may bid again while the auction is open; the auction still
# ends when, after the last bid, every other seat has passed in turn.
variant 501-open-passing "501, a pass is not final"
extends 501

auction:
  remove pass-is-final
