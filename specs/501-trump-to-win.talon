# House rule: when void in the suit led, a seat must play a trump that would win the
# trick if it holds one; if no trump it holds would win, it may play any card (replaces
# the duty to trump of R501-17). Following suit is unchanged.
variant 501-trump-to-win "501, trump to win"
extends 501

play:
  replace must-trump [house]: when void in the suit led, must play a trump that beats the trick when able
