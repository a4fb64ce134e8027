variant spec "Itself"
extends spec

play:
  remove follow
