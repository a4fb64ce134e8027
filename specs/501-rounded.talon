# House rule 4: defenders' deal points are rounded to the nearest multiple of 5 before
# they are subtracted (32 -> 30, 33 -> 35).
variant 501-rounded "501, defenders' points rounded to fives"
extends 501

scoring:
  replace defender-result [house]: when played, each defender scores -round(points of seat, 5)
