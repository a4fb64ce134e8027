# House rule 6: announcing a marriage makes its suit trumps from the next trick on (as in
# the game 1000); the marriage is then worth the trump value.
variant 501-marriage-trumps "501, marriages change trumps"
extends 501

melds:
  add marriage-trumps [house]: a marriage makes its suit trumps from the next trick
  replace marriage-worth [house]: a marriage is worth marriage-in-trumps
