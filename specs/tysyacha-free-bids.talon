# R1000-8's other reading: a bid above 120 needs no marriage in hand.
variant tysyacha-free-bids "Tysyacha, bids above 120 without a marriage"
extends tysyacha

auction:
  remove marriage-bid
