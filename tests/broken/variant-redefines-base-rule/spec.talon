variant tiny-again "Tiny again"
extends tiny

play:
  follow: must play a card that beats the trick when able
