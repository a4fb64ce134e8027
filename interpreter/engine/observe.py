"""What one seat may see of a deal (apart from the state itself)."""
from __future__ import annotations

from .base import bits


def observation(d, seat: int, names=None) -> dict:
    g = d.game
    c = d.codec
    nm = (lambda s: names[s]) if names else (lambda s: s)
    cards = lambda m: [g.card_names[x] for x in bits(m)]
    public = ("pass", "bid", "abandon", "trumps", "contract", "close", "exchange", "concede")
    ob = {
        "seat": nm(seat), "dealer": nm(d.dealer), "phase": d.phase,
        "active": [nm(s) for s in d.active],
        "turn": nm(d.turn) if d.turn >= 0 else None,
        "scores": {nm(s): d.scores[s] for s in d.all_seats},
        "hand": cards(d.hands[seat]) if d.looked[seat] else None,
        "hand_size": bin(d.hands[seat]).count("1"),
        "talon": cards(d.talon_dealt) if d.talon_shown else None,
        "exposed": g.card_names[d.exposed] if d.exposed_visible and d.exposed >= 0 else None,
        "stock": len(d.stock) if g.stock else None,
        "closed": d.closed if g.close is not None else None,
        "received": cards(d.given[seat]) if d.given[seat] else [],
        "auction": [d.action_to_string(a, s, names) for s, a in d.history if c.kind(a) in public],
        "declarer": nm(d.declarer) if d.declarer >= 0 else None,
        "partners": [nm(s) for s in d.declarers],
        "sides": [[nm(s) for s in side] for side in d.sides] if g.partners else None,
        "bids": {nm(s): d.bids[s] for s in d.active} if g.auction_kind == "exact" else None,
        "contract": d.contract_name(),
        "trumps": (None if d.trumps is None else "none" if d.trumps < 0 else g.suit_words[d.trumps]),
        "melds": [{"seat": nm(s), "meld": g.melds[mi].name,
                   "cards": [g.card_names[suit * g.n_ranks + r] for r in g.melds[mi].ranks]}
                  for s, mi, suit, _ in d.melds],
        "trick": [[nm(s), g.card_names[x]] for s, x in d.trick],
        "tricks": {nm(s): d.tricks[s] for s in d.active},
        "last_trick": ([[nm(s), g.card_names[x]] for s, x in d.history_tricks[-1][1]]
                       if d.history_tricks else []),
    }
    if d.hand_shown and seat != d.declarer:
        ob["declarer_hand"] = cards(d.hands[d.declarer])
    return ob
