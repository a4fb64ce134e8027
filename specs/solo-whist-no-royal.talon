# House rule 11: the ladder has no Abundance in Trumps.
variant solo-whist-no-royal "Solo Whist without Abundance in Trumps"
extends solo-whist

tables:
  remove ladder abundance-in-trumps

auction:
  remove royal-overcall
