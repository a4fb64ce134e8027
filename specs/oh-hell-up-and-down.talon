# ROH-3's profile: after the one-card deal the hands grow again, one card a deal, back to
# the first size (F, F-1, ..., 1, 2, ..., F: 2F - 1 deals).
variant oh-hell-up-and-down "Oh Hell, down and up the river"
extends oh-hell

deal:
  replace one-by-one [ROH-3]: (abs(first hand - deal number) + 1) rounds of 1 card to each seat

end:
  replace game-end [ROH-15]: the game ends after a deal when deals played >= 2 * first hand - 1
