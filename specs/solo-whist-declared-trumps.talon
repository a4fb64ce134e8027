# House rule 9: Abundance Declared is played with trumps the declarer names after the
# auction, like Abundance (the base follows the seed's profile: no trumps).
variant solo-whist-declared-trumps "Solo Whist, Abundance Declared with trumps"
extends solo-whist

tables:
  set ladder abundance-declared trumps to chosen
