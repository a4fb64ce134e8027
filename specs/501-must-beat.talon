# House rule 5: a player must beat the trick when able: follow with a higher card of the
# suit led (unless the trick is already trumped); when void, trump, and overtrump.
variant 501-must-beat "501, you must beat the trick"
extends 501

play:
  add must-beat [house] after must-trump: must play a card that beats the trick when able
