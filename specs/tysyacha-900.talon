# A common table: the barrel at 900 and no bolts.
variant tysyacha-900 "Tysyacha, barrel at 900, no bolts"
extends tysyacha

tables:
  set values barrel-score to 900

scoring:
  remove bolt
  remove third-bolt
  remove bolts-reset
