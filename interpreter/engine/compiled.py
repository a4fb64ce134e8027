"""The deal compiled from the spec: Python source generated once per game (and per
deal plan) for what a simulation runs most, kept in the game's cache.

* ``compiled_play``: the rest of the play phase at random, with the follow and lead
  rules, their conditions (inlined formulas), the trick winner, the card points and the
  bookkeeping of a trick written inline for that game only. It makes exactly the
  choices ``random_play_action`` makes, from the same draws, and leaves the deal as
  applying those actions one by one leaves it. Anything rare — a meld announced with a
  lead, exchanging the face-up card, closing the stock, conceding — and the end of a
  trick where a stock is drawn from, are applied through the interpreted path, and the
  loop picks up from the state they leave.
* ``compiled_settle``: the scoring, the statements unrolled and formulas inlined.
* ``compiled_shuffle`` and ``compiled_split``: the shuffle unrolled (the same draws as
  ``random.Random.shuffle``) and the deck split into hands, talon and stock.

``with interpreted(game):`` runs a game on the interpreted paths, the reference
``tests/test_compiled.py`` compares every action and score against on thousands of
seeded deals of every bundled spec. Nothing here knows a game: which lines are
generated depends only on the rule units the spec uses.
"""
from __future__ import annotations

from .base import PLAY
from .env import EMPTY
from .play import Play, _rule_code, end_trick


def _indent(code: str, by: str) -> str:
    return "".join(by + line + "\n" for line in code.splitlines() if line.strip())


def plain(g) -> bool:
    """Play without a stock, closing or an early end: the end of a trick is compiled too
    (otherwise the interpreted ``end_trick`` does it, and the loop picks up after it)."""
    return not (g.close is not None or g.exchange_rank >= 0 or g.deal_ends is not None or g.draw)


def source(g, ns: dict | None = None) -> str:
    """The Python source of ``play(d, rng)`` for game `g` (the objects the inlined
    conditions name go into `ns`)."""
    from ..language.expr import source_of
    ns = {} if ns is None else ns

    def inline(code: str) -> str:
        for i, r in enumerate(g.narrows):
            if r.when is not None:
                code = code.replace(f"W[{i}](d, E)", source_of(r.when, ns))
        return code

    melds = bool(g.melds)
    simple_melds = melds and all(m.announce_when is None for m in g.melds)
    lead_free = g.lead_card < 0 and not any(r.on in ("lead", "play") for r in g.narrows)
    concede = g.concede is not None
    pre_lead = g.close is not None or g.exchange_rank >= 0      # exchange, close before a lead
    stock = not plain(g)
    # a formula may read the deal while a card is followed: keep the deal's fields
    # current there (at a lead they are: the trick's end wrote them)
    sync_follow = any(r.when is not None for r in g.narrows if r.on in ("follow", "play"))
    dealer_up = g.face_up == "dealer-last"
    makes_trumps = any(m.makes_trumps for m in g.melds)

    # between tricks, a formula may read the deal (a condition on a rule of play, the
    # declarer's concession, a meld's announcement, an open hand): keep it current then
    # (where every such formula is inlined, only the fields it reads)
    sync_trick = ("d.trick = trick; d.tricks_done = tricks_done; d.played = played; "
                  "d.trick_suit = led; d.trick_keys = keys; d.win_seat = ws; d.win_card = win")
    full_end = sync_trick + "; d.leader = d.turn = ws; d.tricks_left = left"
    if stock:
        live = full_end        # the interpreted end of a trick keeps the deal current
    elif concede or (melds and not simple_melds) or g.open_hand is not None:
        live = full_end
    else:
        live = _fields_read(g, ns)
    sync_card = ("d.turn = s; d.played = played; d.trick_suit = led; d.trick_keys = keys; "
                 "d.win_seat = ws; d.win_card = win")
    load = (
        "trick = d.trick; trick_append = trick.append; nt = len(trick)\n"
        "played = d.played; trumps = d.trumps; s = d.turn; leader = d.leader; tricks_done = d.tricks_done\n"
        "led = d.trick_suit; keys = d.trick_keys; ws = d.win_seat; win = d.win_card\n"
        "wk = keys[win] if nt else -1\n"
        "LEDM = SM[led] if nt else 0; TRM = SM[trumps] if trumps >= 0 else 0\n"
        "tp = 0; tm = 0\n"
        "for _, c in trick:\n"
        "    tp += CP[c]; tm |= 1 << c\n")
    if dealer_up:
        load += "exposed = d.exposed\n"
    L = []
    w = L.append
    w("def play(d, rng):")
    w("    hands = d.hands; next_seat = d.next_seat; n_active = d.n_active")
    w("    hist_append = d.history.append; htricks_append = d.history_tricks.append")
    w("    tricks = d.tricks; cpts = d.card_points; taken = d.taken")
    w("    getbits = rng.getrandbits")
    w("    st = d; env = EMPTY")
    if concede:
        w("    declarer = d.declarer; declarers = d.declarers")
        # a concession needs the contract lost (Deal.lost): its trick goal out of reach
        w("    goal = LADDER[d.entry_index] if d.entry_index >= 0 else None")
    L.append(_indent(load, "    ").rstrip("\n"))
    w("    while True:")
    w("        hand = hands[s]")
    # --- the cards allowed
    w("        if nt:")
    if sync_follow:
        w("            " + sync_card)
    follow = "cand = hand\n" + "".join(
        _rule_code(i, r, False).replace("    ", "", 1).replace("\n    ", "\n")
        for i, r in enumerate(g.narrows) if r.on in ("follow", "play"))
    follow = follow.replace("d.tricks_done", "tricks_done").replace("SM[led]", "LEDM")
    follow = follow.replace("(SM[trumps] if trumps >= 0 else 0)", "TRM")
    L.append(_indent(inline(follow), "            ").rstrip("\n"))
    w("            mask = cand")
    w("            n = total = mask.bit_count()")
    if concede and (melds or pre_lead):
        # only a concession makes more choices than cards when following
        w("            extra = (); pre = ()")
    w("        else:")
    if lead_free:
        w("            mask = hand")
    else:
        lead = "cand = hand\n" + "".join(
            _rule_code(i, r, True).replace("    ", "", 1).replace("\n    ", "\n")
            for i, r in enumerate(g.narrows) if r.on in ("lead", "play") and not r.cards.uses_trick())
        lead = lead.replace("d.tricks_done", "tricks_done").replace("(SM[trumps] if trumps >= 0 else 0)", "TRM")
        if g.lead_card >= 0:
            w(f"            if tricks_done == 0 and hand >> {g.lead_card} & 1:")
            w(f"                cand = {1 << g.lead_card}")
            w("            else:")
            L.append(_indent(inline(lead), "                ").rstrip("\n"))
        else:
            L.append(_indent(inline(lead), "            ").rstrip("\n"))
        w("            mask = cand")
    w("            n = total = mask.bit_count()")
    if melds:
        if simple_melds and lead_free:
            # count the meld leads held; their list is built only when one is drawn
            # (a count per holding of the melds' cards, remembered: at most 2**k of them)
            union = 0
            for mk, _, _, _ in g.meld_leads:
                union |= mk
            terms = " + ".join(f"({len(acts)} if key & {mk} == {mk} else 0)"
                               for mk, acts, _, _ in g.meld_leads)
            w(f"            key = hand & {union}")
            if union.bit_count() <= 12:
                w("            nx = NXC.get(key)")
                w("            if nx is None:")
                w(f"                nx = NXC[key] = {terms or '0'}")
            else:
                w(f"            nx = {terms or '0'}")
            w("            extra = None")
        else:
            w("            extra = meld_leads(d, s, mask)")
            w("            nx = len(extra)")
        w("            total += nx")
    elif pre_lead:
        w("            extra = ()")
    if pre_lead:
        # exchanging the face-up card, closing the stock: the deal is current at a lead
        w("            pre = pre_lead(d, s)")
        w("            total += len(pre)")
    if concede:
        w("        can_concede = False")
        w("        if s == declarer and goal is not None:")
        w("            won = 0")
        w("            for t in declarers:")
        w("                won += tricks[t]")
        w("            if won > goal.most or won + d.tricks_left < goal.least:")
        w("                " + sync_card)
        w("                if d._can_concede(s):")
        w("                    total += 1")
        w("                    can_concede = True")
    w("        if not total:")
    w("            raise RuntimeError(f'seat {s} has no card to play')")
    w("        k = BL[total]")
    w("        r = getbits(k)")
    w("        while r >= total:")
    w("            r = getbits(k)")
    if melds or concede or pre_lead:
        w("        if r >= n:")
        w("            " + sync_card)
        if live != full_end:
            w("            " + sync_trick)
            w("            d.leader = leader; d.tricks_left = hand.bit_count()")
        # the actions after the cards, in the order of legal_actions: melds, then the
        # rest (exchange, close, concede) sorted
        if melds and simple_melds and lead_free:
            w("            if extra is None:")
            w("                extra = [a for mk, acts in LEADS if hand & mk == mk for a in acts]")
        w("            opts = list(extra)" if (melds or pre_lead) else "            opts = []")
        if pre_lead or concede:
            w("            tail = list(pre)" if pre_lead else "            tail = []")
            if concede:
                w("            if can_concede:")
                w("                tail.append(CONCEDE)")
            w("            opts += sorted(tail)")
        w("            d.apply_action(opts[r - n])")
        w("            if d.phase != PLAY:")
        w("                return")
        L.append(_indent(load, "            ").rstrip("\n"))
        w("            continue")
    w("        while r:")
    w("            mask &= mask - 1")
    w("            r -= 1")
    w("        b = mask & -mask")
    w("        c = BIT[b]")
    w("        hands[s] = hand ^ b")
    w("        p = (s, c)")
    w("        hist_append(p)")
    w("        trick_append(p)")
    w("        played |= b")
    w("        tp += CP[c]")
    w("        tm |= b")
    if dealer_up:
        w("        if c == exposed:")
        w("            d.exposed_visible = False")
    w("        if nt:")
    w("            if keys[c] > wk:")
    w("                ws = s; win = c; wk = keys[c]")
    w("        else:")
    w("            led = SUIT[c]; keys = TK[trumps + 1][led]; ws = s; win = c; wk = keys[c]; LEDM = SM[led]")
    w("        nt += 1")
    w("        if nt < n_active:")
    w("            s = next_seat[s]")
    w("            continue")
    if stock:
        # --- the trick is complete: a stock is drawn from, or the deal may end at once:
        # the interpreted end of a trick does it, and the loop picks up from there
        w("        " + sync_card)
        w("        END_TRICK(d)")
        w("        if d.phase != PLAY:")
        w("            return")
        L.append(_indent(load, "        ").rstrip("\n"))
        return "\n".join(L) + "\n"
    # --- the trick is complete (end_trick, for play without a stock)
    w("        tricks[ws] += 1")
    w("        cpts[ws] += tp")
    w("        taken[ws] |= tm")
    w("        htricks_append((leader, trick, ws))")
    w("        trick = []; trick_append = trick.append; nt = 0; tp = 0; tm = 0")
    w("        tricks_done += 1")
    if live == full_end:
        w("        " + sync_trick)          # as end_trick leaves it for the first trick's rules

    if dealer_up or g.open_hand is not None:
        w("        if tricks_done == 1:")
        if dealer_up:
            w("            d.exposed_visible = False")
        if g.open_hand is not None:
            w("            if OPEN(d, EMPTY):")
            w("                d.hand_shown = True")
    if makes_trumps:
        w("        if d.pending_trumps is not None:")
        w("            d.trumps = trumps = d.pending_trumps")
        w("            TRM = SM[trumps] if trumps >= 0 else 0")
        w("            d.pending_trumps = None")
    w("        leader = s = ws")
    w("        left = hands[ws].bit_count()")
    if live == full_end:
        w("        d.leader = d.turn = ws; d.tricks_left = left")
    elif live:
        w("        " + live)
    w("        if not left:")
    if live != full_end:
        w("            " + full_end)
    w("            d.last_trick_winner = ws")
    w("            d.finish()")
    w("            return")
    return "\n".join(L) + "\n"


# the deal's fields the play loop keeps in locals, and how the end of a trick writes them
_STALE = {"trick": "d.trick = trick", "tricks_done": "d.tricks_done = tricks_done",
          "played": "d.played = played", "trick_suit": "d.trick_suit = led",
          "trick_keys": "d.trick_keys = keys", "win_seat": "d.win_seat = ws",
          "win_card": "d.win_card = win", "leader": "d.leader = ws", "turn": "d.turn = ws",
          "tricks_left": "d.tricks_left = left"}


def _fields_read(g, ns: dict) -> str:
    """What the end of a trick must write back for the play's conditions: nothing where
    there are none; the fields their inlined sources read; else every field."""
    import re
    from ..language.expr import source_of
    reads = set()
    for r in g.narrows:
        if r.when is None:
            continue
        src = source_of(r.when, ns)
        if "_f" in src or re.search(r"st\.\w+\(", src):     # a call may read anything
            reads = set(_STALE)
            break
        reads |= set(re.findall(r"st\.(\w+)", src))
    return "; ".join(code for name, code in _STALE.items() if name in reads)


def compiled_play(g):
    """The generated ``play(d, rng)`` for game `g` (built once)."""
    fn = g._cache.get("compiled_play")
    if fn is not None:
        return fn
    ns: dict = {}
    src = source(g, ns)              # the objects its inlined formulas name go into ns
    full = (1 << g.n_cards) - 1
    most = g.n_cards * (1 + len(g.melds)) + 8      # the most actions a seat may have
    ns |= {"SM": g.suit_mask, "B": g.beats, "PM": g.points_mask, "NPM": full & ~g.points_mask,
           "W": [r.when for r in g.narrows], "E": EMPTY, "EMPTY": EMPTY,
           "CP": g.card_points, "SUIT": g.card_suit, "TK": g.trick_keys,
           "LEADS": [(mask, acts) for mask, acts, _, _ in g.meld_leads],
           "meld_leads": Play.meld_leads, "CONCEDE": g.codec.CONCEDE, "PLAY": PLAY,
           "OPEN": g.open_hand, "BL": [n.bit_length() for n in range(most + 1)], "LADDER": g.ladder,
           "BIT": {1 << c: c for c in range(g.n_cards)}, "NXC": {},
           "END_TRICK": end_trick, "pre_lead": Play.pre_lead}
    exec(compile(src, f"<play phase of {g.name}>", "exec"), ns)
    fn = g._cache["compiled_play"] = ns["play"]
    return fn


# ---------------------------------------------------------------- scoring
def settle_source(g, ns: dict | None = None) -> str:
    """The Python source of ``settle(d)`` for game `g`: ``scoring.settle`` with the
    spec's statements unrolled, each payee's selection written out and each formula
    inlined where it has a source (the objects the source names go into `ns`)."""
    from ..language.expr import source_of
    ns = {} if ns is None else ns

    def src(f):
        # the deal is over when it is scored: a seat's points and meld points are read
        # from where they are kept (as Deal.points and Deal.meld_points do once it is over)
        return (source_of(f, ns).replace("st.meld_points(env.seat)", "st.meld_points_of[env.seat]")
                .replace("st.points(env.seat)", "st.deal_points_of[env.seat]"))

    L = []
    w = L.append
    w("def settle(d):")
    w("    if d.annulled:")
    w("        return")
    w("    st = d")
    w("    env = Env()")
    if g.melds:
        w("    if d.melds:")
        w("        mp = d.meld_points_of")
        w("        for s, mi, suit, worth in d.melds:")
        w("            env.seat = s; env.suit = suit")
        if len(g.melds) == 1:
            counts = g.melds[0].counts
            w(f"            if {src(counts) if counts is not None else 'True'}:")
        else:
            w("            c = COUNTS[mi]")
            w("            if c is None or c(d, env):")
        w("                mp[s] += worth")
        w("        env.suit = -1")
    w("    pts = d.deal_points_of")
    if g.deal_points is None:
        w("    cp = d.card_points; mp = d.meld_points_of")
        w("    for s in d.active:")
        w("        pts[s] = cp[s] + mp[s]")
    else:
        w("    for s in d.active:")
        w("        env.seat = s")
        w(f"        pts[s] = {src(g.deal_points)}")
    w("    env.seat = -1")
    if g.made is not None:
        w(f"    d.made = bool({src(g.made)}) if (not d.conceded and not d.abandoned and d.declarer >= 0) else False")
    else:
        w("    d.made = False")
    if g.lets:
        w("    lets = d.lets")
    for name, f, per_seat in g.lets:
        if per_seat:
            w("    vals = [None] * d.n_seats")
            w("    for s in d.all_seats:")
            w("        env.seat = s")
            w(f"        vals[s] = {src(f)}")
            w(f"    lets[{name!r}] = vals")
            w("    env.seat = -1")
        else:
            w(f"    lets[{name!r}] = {src(f)}")
    w("    deltas = d.deltas; scores = d.scores")
    for i, st in enumerate(g.statements):
        who = st.payee
        simple = len(st.effects) == 1 and st.effects[0][0] == "score" and who != "sides"
        if not simple:
            _general_statement(w, st, src)
            continue
        cond = src(st.when) if st.when is not None else ""
        value = src(st.effects[0][1])
        if who == "declarer":
            # one payee: its value, then applied
            w("    s = d.declarer")
            w("    if s >= 0:")
            w("        env.seat = s")
            ind = "        "
            if cond:
                w(f"        if {cond}:")
                ind = "            "
            w(f"{ind}v = {value}")
            w(f"{ind}if v.__class__ is not int:")
            w(f"{ind}    v = v if isinstance(v, int) else 0")
            w(f"{ind}deltas[s] += v; scores[s] += v")
            continue
        seats = {"defenders": "d.defenders", "seats": "d.active"}.get(who, f"payees(d, {who!r})")
        w("    vals = []")
        w(f"    for s in {seats}:")
        w("        env.seat = s")
        ind = "        "
        if cond:
            w(f"        if {cond}:")
            ind = "            "
        w(f"{ind}vals.append((s, {value}))")
        w("    for s, v in vals:")
        w("        if v.__class__ is not int:")
        w("            v = v if isinstance(v, int) else 0")
        w("        deltas[s] += v; scores[s] += v")
    return "\n".join(L) + "\n"


def _general_statement(w, st, src):
    """``scoring.statement`` written out for one statement: its values worked out for
    every payee first, then applied (to a partnership's every seat for `sides`)."""
    who = st.payee
    seats = {"declarer": "((d.declarer,) if d.declarer >= 0 else ())", "defenders": "d.defenders",
             "seats": "d.active"}.get(who, f"payees(d, {who!r})")
    w("    ch = []")
    w(f"    for s in {seats}:")
    w("        env.seat = s")
    ind = "        "
    if st.when is not None:
        w(f"        if {src(st.when)}:")
        ind = "            "
    for k, eff in enumerate(st.effects):
        w(f"{ind}ch.append((s, {k}, {src(eff[1] if eff[0] == 'score' else eff[2])}))")
    w("    for s, k, v in ch:")
    w("        if v.__class__ is not int:")
    w("            v = v if isinstance(v, int) else 0")
    w("        for t in (d.side_of.get(s, (s,)) if SIDES else (s,)):".replace("SIDES", str(who == "sides")))
    for k, eff in enumerate(st.effects):
        if eff[0] == "score":
            what, setting = "score", False
        else:
            what, setting = eff[1], eff[0] == "set"
        w(f"            {'if' if k == 0 else 'elif'} k == {k}:")
        if what == "score":
            w("                deltas[t] += v - scores[t]; scores[t] = v" if setting else
              "                deltas[t] += v; scores[t] += v")
        else:
            w(f"                d.counters[{what!r}][t] = v" if setting else
              f"                d.counters[{what!r}][t] += v")


def compiled_settle(g):
    """The generated ``settle(d)`` for game `g` (built once)."""
    fn = g._cache.get("compiled_settle")
    if fn is None:
        from .env import Env
        from .scoring import payees, statement
        ns = {"Env": Env, "COUNTS": [m.counts for m in g.melds], "ST": g.statements,
              "payees": payees, "statement": statement}
        src = settle_source(g, ns)
        exec(compile(src, f"<scoring of {g.name}>", "exec"), ns)
        fn = g._cache["compiled_settle"] = ns["settle"]
    return fn


# ---------------------------------------------------------------- the reference
class interpreted:
    """``with interpreted(game):`` runs the game's deals on the interpreted paths (the
    reference the compiled code is tested against), then restores the compiled ones."""

    KEYS = ("compiled_play", "compiled_settle")

    def __init__(self, g):
        self.g = g

    def __enter__(self):
        from .scoring import settle
        cache = self.g._cache
        self.saved = {k: cache[k] for k in self.KEYS if k in cache}
        cache["compiled_play"] = None
        cache["compiled_settle"] = settle
        return self.g

    def __exit__(self, *exc):
        cache = self.g._cache
        for k in self.KEYS:
            cache.pop(k, None)
        cache.update(self.saved)
        return False


# ---------------------------------------------------------------- the deal
def compiled_shuffle(g):
    """``shuffle(getrandbits) -> deck``: ``random.Random.shuffle`` of the deck unrolled,
    the same draws in the same order (built once per game)."""
    fn = g._cache.get("compiled_shuffle")
    if fn is None:
        L = ["def shuffle(b):", f"    deck = list(range({g.n_cards}))"]
        for i, m, k in g.shuffle_steps:
            L.append(f"    j = b({k})")
            L.append(f"    while j >= {m}:")
            L.append(f"        j = b({k})")
            L.append(f"    deck[{i}], deck[j] = deck[j], deck[{i}]")
        L.append("    return deck")
        ns: dict = {}
        exec(compile("\n".join(L) + "\n", f"<shuffle of {g.name}>", "exec"), ns)
        fn = g._cache["compiled_shuffle"] = ns["shuffle"]
    return fn


def compiled_split(g, owner: tuple, k: int):
    """``split(deck) -> (masks, stock)`` for a deal plan: `owner[i]` says where deck
    position i goes (an index into the active seats, k for the talon, above for the
    stock); masks[o] is the cards of place o, the stock is in deck order."""
    key = ("compiled_split", owner)
    fn = g._cache.get(key)
    if fn is None:
        places = []
        for o in range(k + 1):
            terms = " | ".join(f"B[deck[{i}]]" for i, x in enumerate(owner) if x == o)
            places.append(terms or "0")
        stock = ", ".join(f"deck[{i}]" for i, x in enumerate(owner) if x > k)
        src = (f"def split(deck):\n    return ({', '.join(places)},), [{stock}]\n")
        ns = {"B": [1 << c for c in range(g.n_cards)]}
        exec(compile(src, f"<deal of {g.name}>", "exec"), ns)
        fn = ns["split"]
        if len(g._cache) < 4096:
            g._cache[key] = fn
    return fn
