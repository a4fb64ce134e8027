# R66-13's other reading (as in Schnapsen): no bonus for the last trick.
variant sixty-six-no-last-trick "Sixty-six without the last-trick bonus"
extends sixty-six

tables:
  set values last-trick-bonus to 0
