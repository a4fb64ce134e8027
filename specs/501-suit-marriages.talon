# House rule 7: marriages are worth 100 in hearts, 80 in diamonds, 60 in clubs and 40 in
# spades, whatever the trump suit (the values of 1000), at no trumps too.
variant 501-suit-marriages "501, marriages valued by suit"
extends 501

tables:
  set values marriage-by-suit to {H: 100, D: 80, C: 60, S: 40}

melds:
  replace marriage-worth [house]: a marriage is worth marriage-by-suit of its suit
