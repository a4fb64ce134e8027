variant tiny-beat "Tiny, you must beat"
extends tiny

play:
  replace folow: must play a card that beats the trick when able
