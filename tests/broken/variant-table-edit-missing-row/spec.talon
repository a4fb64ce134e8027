variant bids-x "Bids, x"
extends bids

tables:
  set ladder sixx unit to 3
