# House rule: playing the queen of spades breaks hearts too (RH-10 says it does not).
variant hearts-queen-breaks "Hearts, the queen breaks hearts"
extends hearts

play:
  replace broken [house]: let hearts broken = hearts played > 0 or QS played > 0
