variant tiny-x "Tiny, x"

play:
  remove follow
