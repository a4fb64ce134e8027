# House rule: when every seat passes without a bid, the deal is annulled and the same
# dealer deals again; after any other deal the deal passes left as usual.
variant 501-same-dealer "501, the same dealer deals again after all pass"
extends 501

auction:
  replace all-pass [house]: when every seat passes without a bid, the deal is annulled and the same dealer deals again
