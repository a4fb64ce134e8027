# House rule 10: Prop+Cop and Solo pay one extra chip per opponent for each trick above
# the goal when made, and for each trick short when failed.
variant solo-whist-overtricks "Solo Whist, over- and undertricks paid"
extends solo-whist

tables:
  set ladder cop per-trick to 1
  set ladder solo per-trick to 1

scoring:
  add extra [house] after made: let extra = per-trick * (tricks of declarers - least if made else least - tricks of declarers)
  replace declarer-result [house]: each declarer scores (unit + extra if made else -(unit + extra)) * number of defenders / number of declarers
  replace defender-result [house]: each defender scores -(unit + extra) if made else unit + extra
