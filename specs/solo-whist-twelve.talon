# House rule 12: a session is twelve deals (RSW-17 says eight).
variant solo-whist-twelve "Solo Whist, twelve-deal sessions"
extends solo-whist

tables:
  set values session-deals to 12
