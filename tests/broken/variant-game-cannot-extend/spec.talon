game tiny-x "Tiny, x"
extends tiny
tables "tiny.yaml"

play:
  remove follow
