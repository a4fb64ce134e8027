variant tiny-x "Tiny, x"
extends tinny

play:
  remove follow
