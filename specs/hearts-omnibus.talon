# House rule (Omnibus Hearts): the jack of diamonds counts -10 to whoever takes it, on a
# moon shot too.
variant hearts-omnibus "Hearts with the jack of diamonds"
extends hearts

tables:
  set points JD to -10

scoring:
  replace deal-score [house]: each seat scores (0 if shooter else moon-points) - 10 * JD taken by seat if shot else points
