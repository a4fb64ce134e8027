# House rule 8: blind bidding is not allowed (drops R501-10 and R501-11).
variant 501-no-blind "501 without blind bids"
extends 501

auction:
  remove blind-bidding
