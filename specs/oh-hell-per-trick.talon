# ROH-13's other common table: one point a trick taken, plus 10 for an exact bid.
variant oh-hell-per-trick "Oh Hell, a point a trick"
extends oh-hell

scoring:
  replace exact [ROH-13]: each seat scores tricks + (exact-bonus if tricks = bid of seat else 0)
