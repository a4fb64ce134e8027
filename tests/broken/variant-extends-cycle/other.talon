variant other "Two"
extends spec

play:
  remove lead
