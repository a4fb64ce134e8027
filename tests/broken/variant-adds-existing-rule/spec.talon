variant tiny-again "Tiny again"
extends tiny

play:
  add follow: must play a card that beats the trick when able
