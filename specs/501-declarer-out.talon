# House rule 2: when several seats reach zero or less in the same deal, the declarer of
# that deal wins if among them; otherwise the lowest score wins (replaces R501-23).
variant 501-declarer-out "501, the declarer goes out first"
extends 501

end:
  replace winners [house]: seats with score <= 0, then the declarer, then the lowest score
