variant tiny-trumps "Tiny with a trump rule"
extends tiny

play:
  add must-trump after follows: must play a trump when able
