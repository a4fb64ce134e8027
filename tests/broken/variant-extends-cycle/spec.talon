variant spec "One"
extends other

play:
  remove follow
