"""The play phase: tricks, follow and lead rules, melds announced with a lead, a stock
drawn from after each trick (which the leader may close, or whose face-up card it may
take in exchange for a low trump), and a deal that may end at once."""
from __future__ import annotations

from .base import PLAY, _RANDBELOW
from .env import EMPTY, Env


class Play:
    name = "play"

    @staticmethod
    def start(d) -> bool:
        g = d.game
        if d.trumps is None:
            d.trumps = -1
        if g.lead_card >= 0:
            holder = next((s for s in d.active if d.hands[s] >> g.lead_card & 1), d.active[0])
            d.leader = holder
        else:
            ref, cond, other = g.first_lead
            if cond is not None and not cond(d, EMPTY):
                ref = other
            d.leader = d.seat_ref(ref)
            if d.leader not in d.pos:          # a seat sitting out never leads
                d.leader = d.active[0]
        d.turn = d.leader
        d.tricks_total = d.hands[d.leader].bit_count() + (len(d.stock) // max(d.n_active, 1) if g.draw else 0)
        d.tricks_left = d.tricks_total
        if d.tricks_left == 0:
            d.finish()
            return False
        return True

    # ------------------------------------------------------------ what may be played
    @staticmethod
    def allowed(d, s: int) -> int:
        """The cards of seat s's hand that the rules allow on the trick now."""
        hand = d.hands[s]
        fns = _rules(d.game)
        if d.trick:
            return fns[0](d, hand, d.trick_suit, d.trumps, d.win_card)
        return fns[1](d, hand)

    @staticmethod
    def pre_lead(d, s: int) -> list:
        """Actions the leader may take before leading: exchange, close."""
        g = d.game
        c = d.codec
        out = []
        if d.trick or s != d.turn:
            return out
        if g.exchange_rank >= 0 and Play.can_exchange(d, s):
            out.append(c.EXCHANGE + Play.exchange_card(d))
        if g.close is not None and not d.closed and d.stock and (g.close is True or g.close(d, Env(s))):
            out.append(c.CLOSE)
        return out

    @staticmethod
    def exchange_card(d) -> int:
        g = d.game
        return d.trumps * g.n_ranks + g.exchange_rank if d.trumps >= 0 else -1

    @staticmethod
    def can_exchange(d, s: int) -> bool:
        g = d.game
        card = Play.exchange_card(d)
        if card < 0 or not d.stock or d.closed or not d.hands[s] >> card & 1 or d.exposed < 0:
            return False
        return g.exchange_when is None or bool(g.exchange_when(d, Env(s)))

    @staticmethod
    def meld_leads(d, s: int, allowed: int) -> list:
        g = d.game
        hand = d.hands[s]
        out = []
        env = None
        for mask, acts, mi, suit in g.meld_leads:
            if hand & mask == mask:
                m = g.melds[mi]
                if m.announce_when is not None:
                    env = Env(s, suit)
                    if not m.announce_when(d, env):
                        continue
                out += [a for a in acts if allowed >> (a - g.codec.MELD) % g.n_cards & 1]
        return out

    @staticmethod
    def legal(d, s: int) -> list:
        from .base import bits
        allowed = Play.allowed(d, s)
        acts = bits(allowed)
        if not d.trick:
            if d.game.melds:
                acts += Play.meld_leads(d, s, allowed)
            acts += Play.pre_lead(d, s)
        return acts

    @staticmethod
    def is_legal(d, a: int, s: int) -> bool:
        c = d.codec
        if a < c.MELD:
            return bool(Play.allowed(d, s) >> a & 1)
        return a in Play.legal(d, s)

    @staticmethod
    def why_not(d, a: int, s: int) -> tuple:
        g = d.game
        c = d.codec
        kind = c.kind(a)
        if kind in ("pass", "bid"):
            return "the auction is over" if g.has_auction else "this game has no auction", ""
        if kind == "close":
            rule = g.rules_of_kind("close")
            if g.close is None:
                return "this game has no stock to close", ""
            if d.trick:
                return "only the leader may close the stock, before leading", rule
            if d.closed:
                return "the stock is already closed", rule
            if not d.stock:
                return "the stock is exhausted", rule
            return g.rule_text(rule) or "the stock may not be closed now", rule
        if kind == "exchange":
            rule = g.rules_of_kind("exchange_trump")
            if g.exchange_rank < 0:
                return "this game has no exchange of the face-up card", ""
            card = c.fields(a)["card"]
            want = Play.exchange_card(d)
            if card != want:
                return (f"only the {g.ranks[g.exchange_rank]} of trumps "
                        f"({g.card_names[want] if want >= 0 else 'none'}) may be exchanged"), rule
            if d.trick:
                return "only the leader may exchange, before leading", rule
            if not d.hands[s] >> card & 1:
                return f"{{seat{s}}} does not hold {g.card_names[card]}", rule
            if d.closed or not d.stock:
                return "the stock is closed or exhausted", rule
            return g.rule_text(rule) or "the exchange is not allowed now", rule
        if kind == "play":
            f = c.fields(a)
            card, mi = f["card"], f["meld"]
            hand = d.hands[s]
            if not hand >> card & 1:
                if card == d.exposed and d.exposed_visible and d.game.face_up != "dealer-last":
                    return f"{g.card_names[card]} is the face-up card: nobody holds it", ""
                return f"{{seat{s}}} does not hold {g.card_names[card]}", ""
            if mi >= 0:
                m = g.melds[mi]
                if d.trick:
                    return f"a {m.name} is announced only when leading", g.rules_of_kind("meld", m.name)
                mask = next(mk for mk, acts, i, suit in g.meld_leads if i == mi and suit == g.card_suit[card])
                if not mask >> card & 1:
                    cards = " or ".join(g.card_names[x] for x in range(g.n_cards) if mask >> x & 1)
                    return (f"{g.card_names[card]} is not a card of the {m.name}: it is announced by leading "
                            f"one of its cards ({cards})"), g.rules_of_kind("meld", m.name)
                if hand & mask != mask:
                    return f"{{seat{s}}} does not hold the {m.name} of that suit", g.rules_of_kind("meld", m.name)
                if m.announce_when is not None and not m.announce_when(d, Env(s, g.card_suit[card])):
                    rule = g.rule_for_meld_condition(m.name)
                    return g.rule_text(rule) or f"a {m.name} may not be announced now", rule
            return _narrow_reason(d, s, card)
        return f"it is the play: {{seat{s}}} must play a card", ""

    # ------------------------------------------------------------ apply
    @staticmethod
    def apply(d, s: int, a: int):
        g = d.game
        c = d.codec
        if a >= c.PASS:
            if a == c.CLOSE:
                d.closed = True
                d.closer = s
                d.tricks_at_close = list(d.tricks)
                return
            if c.EXCHANGE <= a < c.GIVE:
                card = a - c.EXCHANGE
                up = d.stock[-1]
                d.hands[s] = (d.hands[s] & ~(1 << card)) | (1 << up)
                d.stock[-1] = card
                d.exposed = card
                return
        if a >= c.MELD:
            mi, card = divmod(a - c.MELD, g.n_cards)
            m = g.melds[mi]
            suit = g.card_suit[card]
            worth = m.worth(d, Env(s, suit))
            d.melds.append((s, mi, suit, worth))
            if m.makes_trumps:
                d.pending_trumps = suit
        else:
            card = a
        d.hands[s] &= ~(1 << card)
        d.played |= 1 << card
        if card == d.exposed and g.face_up == "dealer-last":
            d.exposed_visible = False
        trick = d.trick
        trick.append((s, card))
        if len(trick) == 1:
            d.trick_suit = g.card_suit[card]
            d.trick_keys = g.trick_keys[d.trumps + 1][d.trick_suit]
            d.win_seat, d.win_card = s, card
            if a >= c.MELD and g.deal_ends is not None and g.deal_ends(d, EMPTY):
                d.ended_early = True
                return d.finish()
        elif d.trick_keys[card] > d.trick_keys[d.win_card]:
            d.win_seat, d.win_card = s, card
        if len(trick) < d.n_active:
            d.turn = d.next_seat[s]
            return
        end_trick(d)


def end_trick(d):
    """The trick is complete: its winner takes it, the stock is drawn from, and the
    winner leads the next trick (or the deal ends)."""
    g = d.game
    trick = d.trick
    w = d.win_seat
    d.tricks[w] += 1
    cp = g.card_points
    pts = m = 0
    for _, tc in trick:
        pts += cp[tc]
        m |= 1 << tc
    d.card_points[w] += pts
    d.taken[w] |= m
    d.history_tricks.append((d.leader, trick, w))
    d.trick = []
    d.tricks_done += 1
    if d.tricks_done == 1:
        if g.face_up == "dealer-last":
            d.exposed_visible = False
        if g.open_hand is not None and g.open_hand(d, EMPTY):
            d.hand_shown = True
    if d.pending_trumps is not None:
        d.trumps, d.pending_trumps = d.pending_trumps, None
    d.leader = d.turn = w
    left = d.hands[w].bit_count()
    if g.draw or g.deal_ends is not None:
        return _end_trick_stock(d, g, w, left)
    d.tricks_left = left
    if left == 0:
        d.last_trick_winner = w
        d.finish()


def _end_trick_stock(d, g, w, left):
    """The end of a trick where the stock is drawn from, or where the deal may end at once."""
    if g.deal_ends is not None and left and g.deal_ends(d, EMPTY):
        d.ended_early = True             # nothing more is drawn or played
        return d.finish()
    if g.draw and not d.closed and d.stock:
        stock = d.stock
        for t in d.clockwise_from(w, include=True):
            if not stock:
                break
            card = stock.pop(0)
            d.hands[t] |= 1 << card
            if card == d.exposed:
                d.exposed_visible = False
        left = d.hands[w].bit_count()
    if g.draw and not d.closed:
        left += len(d.stock) // max(d.n_active, 1)
    d.tricks_left = left
    if left == 0:
        d.last_trick_winner = w
    if g.deal_ends is not None and g.deal_ends(d, EMPTY):
        d.ended_early = left > 0
        return d.finish()
    if left == 0:
        d.finish()


# ---------------------------------------------------------------- follow and lead rules
_SET_CODE = {
    "suit-led": "SM[led]",
    "trump": "(SM[trumps] if trumps >= 0 else 0)",
    "beats-trick": "B[trumps + 1][led][win]",
    "trump-beats": "(B[trumps + 1][led][win] & SM[trumps] if trumps >= 0 else 0)",
    "points": "PM",
    "no-points": "NPM",
}


def _set_code(cards) -> str:
    parts = []
    for kind, arg in cards.parts:
        if kind == "suit":
            parts.append(f"SM[{arg}]")
        elif kind == "card":
            parts.append(f"{1 << arg}")
        elif kind == "trumps-suit":
            parts.append("(SM[trumps] if trumps >= 0 else 0)")
        else:
            parts.append(_SET_CODE[kind])
    return "(" + " | ".join(parts) + ")"


def _rule_code(i: int, r, lead: bool) -> str:
    if lead and r.void:
        return ""                    # on a lead there is no suit led to be void in
    conds = []
    if r.first:
        conds.append("d.tricks_done == 0")
    if r.void and not lead:
        conds.append("not hand & SM[led]")
    if r.when is not None:
        conds.append(f"W[{i}](d, E)")
    s = _set_code(r.cards)
    body = (f"m = cand & {s}" if r.mode == "must" else f"m = cand & ~{s}") + "\n"
    code = ""
    ind = "    "
    if conds:
        code += f"    if {' and '.join(conds)}:\n"
        ind = "        "
    code += ind + body + ind + "if m:\n" + ind + "    cand = m\n"
    return code


def _rules(g):
    """The follow and lead rules compiled to two functions (built once per game):
    follow(d, hand, suit led, trumps, winning card) and lead(d, hand) -> the cards of
    hand the rules allow."""
    fns = g._cache.get("narrow")
    if fns is not None:
        return fns
    W = [r.when for r in g.narrows]
    follow_src = "def follow(d, hand, led, trumps, win):\n    cand = hand\n"
    lead_src = "def lead(d, hand):\n    cand = hand\n    trumps = d.trumps\n"
    if g.lead_card >= 0:
        lead_src += f"    if d.tricks_done == 0 and hand >> {g.lead_card} & 1:\n        return {1 << g.lead_card}\n"
    for i, r in enumerate(g.narrows):
        if r.on in ("follow", "play"):
            follow_src += _rule_code(i, r, False)
        if r.on in ("lead", "play") and not r.cards.uses_trick():
            lead_src += _rule_code(i, r, True)
    follow_src += "    return cand\n"
    lead_src += "    return cand\n"
    full = (1 << g.n_cards) - 1
    ns = {"SM": g.suit_mask, "B": g.beats, "PM": g.points_mask, "NPM": full & ~g.points_mask,
          "W": W, "E": EMPTY}
    exec(compile(follow_src + lead_src, f"<follow rules of {g.name}>", "exec"), ns)
    fns = (ns["follow"], ns["lead"])
    g._cache["narrow"] = fns
    return fns


def _narrow_reason(d, s: int, card: int) -> tuple:
    """Why a card in hand may not be played: the first rule that took it away."""
    g = d.game
    hand = d.hands[s]
    cand = hand
    lead = not d.trick
    if lead and g.lead_card >= 0 and d.tricks_done == 0 and hand >> g.lead_card & 1:
        return (f"the first trick must be led with {g.card_names[g.lead_card]}",
                g.rules_of_kind("lead_card"))
    for i, r in enumerate(g.narrows):
        if lead and (r.on == "follow" or r.cards.uses_trick()):
            continue
        if not lead and r.on == "lead":
            continue
        before = cand
        f = _single(g, i, lead)
        cand = f(d, hand, cand, d.trick_suit, d.trumps, d.win_card)
        if before >> card & 1 and not cand >> card & 1:
            return "{seat%d} " % s + _rule_words(r), r.rule
    return "that card may not be played now", ""


def _single(g, i: int, lead: bool):
    key = ("single", i, lead)
    f = g._cache.get(key)
    if f is None:
        src = "def one(d, hand, cand, led, trumps, win):\n" + _rule_code(i, g.narrows[i], lead) + "    return cand\n"
        full = (1 << g.n_cards) - 1
        ns = {"SM": g.suit_mask, "B": g.beats, "PM": g.points_mask, "NPM": full & ~g.points_mask,
              "W": [r.when for r in g.narrows], "E": EMPTY}
        exec(compile(src, "<rule>", "exec"), ns)
        f = g._cache[key] = ns["one"]
    return f


def _rule_words(r) -> str:
    return r.words or "a rule forbids it"


# ---------------------------------------------------------------- random play, fast
def random_play_action(d, rng) -> int:
    """In the play phase, the action ``rng.choice(d.legal_actions())`` picks: the same
    action from the same random draw, found without building the list when it can."""
    g = d.game
    s = d.turn
    if not d.trick and (g.close is not None or g.exchange_rank >= 0):
        acts = d.legal_actions()
        return acts[rng._randbelow(len(acts))]
    mask = Play.allowed(d, s)
    extra = Play.meld_leads(d, s, mask) if g.melds and not d.trick else ()
    n = mask.bit_count()
    total = n + len(extra)
    if g.concede is not None and d._can_concede(s):
        total += 1
    if not total:
        raise RuntimeError(f"seat {s} has no card to play")
    r = rng._randbelow(total)
    if r < n:
        while r:
            mask &= mask - 1
            r -= 1
        return (mask & -mask).bit_length() - 1
    r -= n
    return extra[r] if r < len(extra) else d.codec.CONCEDE


def play_random(d, rng):
    """Play the rest of the play phase at random: each action is the one
    ``random_play_action(rng)`` picks, applied as ``apply_action`` would. The loop
    compiled from the spec does it where it can (``compiled.py``)."""
    if d.phase != PLAY:
        return
    fn = d.game._cache.get("compiled_play", False)
    if fn is False:
        from .compiled import compiled_play
        fn = compiled_play(d.game)
    if fn is not None and type(rng)._randbelow is _RANDBELOW:
        return fn(d, rng)
    play_random_interpreted(d, rng)


def play_random_interpreted(d, rng):
    """``play_random`` without the compiled loop: the reference it is tested against."""
    g = d.game
    if g.close is not None or g.exchange_rank >= 0 or g.deal_ends is not None or g.draw:
        while d.phase == PLAY:
            d.apply_action(random_play_action(d, rng))
        return
    history, hands, next_seat = d.history, d.hands, d.next_seat
    below = rng._randbelow       # the reference: the generator's own draw, called
    concede = g.concede is not None
    melds = bool(g.melds)
    n_active, exposed = d.n_active, d.exposed
    dealer_up = g.face_up == "dealer-last"
    follow, lead = _rules(g)
    if g._cache.get("lead_free") is None:
        g._cache["lead_free"] = g.lead_card < 0 and not any(r.on in ("lead", "play") for r in g.narrows)
    lead_free = g._cache["lead_free"]
    simple_melds = melds and all(m.announce_when is None for m in g.melds)
    leads_table = [(mask, acts) for mask, acts, _, _ in g.meld_leads]
    suit_of, keys_of = g.card_suit, g.trick_keys
    meld_leads = Play.meld_leads
    while d.phase == PLAY:
        s = d.turn
        hand = hands[s]
        trick = d.trick
        extra = ()
        if trick:
            mask = follow(d, hand, d.trick_suit, d.trumps, d.win_card)
            n = total = mask.bit_count()
        else:
            mask = hand if lead_free else lead(d, hand)
            n = total = mask.bit_count()
            if melds:
                if simple_melds and lead_free:
                    extra = [a for mk, acts in leads_table if hand & mk == mk for a in acts]
                else:
                    extra = meld_leads(d, s, mask)
                total += len(extra)
        if concede and d._can_concede(s):
            total += 1
        if not total:
            raise RuntimeError(f"seat {s} has no card to play")
        r = below(total)
        if r >= n:
            r -= n
            d.apply_action(extra[r] if r < len(extra) else d.codec.CONCEDE)
            continue
        while r:
            mask &= mask - 1
            r -= 1
        c = (mask & -mask).bit_length() - 1
        played = (s, c)
        history.append(played)
        hands[s] = hand ^ (1 << c)
        d.played |= 1 << c
        if c == exposed and dealer_up:
            d.exposed_visible = False
        trick.append(played)
        if len(trick) == 1:
            d.trick_suit = suit_of[c]
            d.trick_keys = keys_of[d.trumps + 1][d.trick_suit]
            d.win_seat, d.win_card = played
        elif d.trick_keys[c] > d.trick_keys[d.win_card]:
            d.win_seat, d.win_card = played
        if len(trick) < n_active:
            d.turn = next_seat[s]
        else:
            end_trick(d)
