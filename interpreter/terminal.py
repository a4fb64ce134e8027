"""`talon play`: a person plays one seat in the terminal against random players.

The person sees only what their seat may see (``Deal.observation``), picks from the
legal actions by number or by typing the action as it is written in hand records
(``bid 70``, ``play KS``, ``give 9C B``), and sees every other seat's action,
every trick and the scores as they happen. The game is written as a game record after
every action (to a temporary file renamed over the record, so nothing is lost), and
``--resume FILE`` replays such a record and continues it.
"""
from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path

from .agents import RandomAgent
from .engine import AUCTION, CONTRACT, DONE, EXCHANGE, PLAY, Match, bits
from .errors import RecordError
from .model.actions import VERBS
from .records import (OutputError, deal_record, deal_summary, dump_yaml, explain, number_problem, output_problem,
                      printable, read_record_file, record_spec_ref, replay_record, spec_files, write_atomic)

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130
NAMES = "ABCDEFGH"
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANGE_MIN = 6          # this many numbers of one verb or more are shown as one range
WIDTH = 78
MAX_REFUSED = 100      # scripted input (not a terminal): this many refused lines in a row end the session


_ASCII = str.maketrans({"…": "...", "—": "-", "═": "=", "─": "-", **{v: k for k, v in SYMBOLS.items()}})


class _Leave(Exception):
    """The person leaves the game: at end of input, or by typing `quit`."""

    def __init__(self, why: str):
        self.why = why


# ------------------------------------------------------------------ the console
class Console:
    """Line input and output. On a terminal `input()` gives line editing; otherwise the
    line read is echoed after the prompt so that a transcript reads like a session."""

    def __init__(self, inp=None, out=None):
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.tty = _isatty(self.inp) and _isatty(self.out)
        self.encoding = getattr(self.out, "encoding", None) or "utf-8"
        try:
            "♠♥♦♣…—═─".encode(self.encoding)
            self.unicode = True
        except (UnicodeEncodeError, LookupError):
            self.unicode = False
            self.encoding = "ascii"

    def say(self, text: str = ""):
        text = printable(text)          # titles, seat names and actions come from files
        if not self.unicode:
            text = text.translate(_ASCII)
            text = text.encode(self.encoding, "replace").decode(self.encoding)
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except BrokenPipeError:
            pass

    def ask(self, prompt: str) -> str:
        """One line of input; EOFError at end of input."""
        if self.tty and self.inp is sys.stdin and self.out is sys.stdout:
            return input(prompt)
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            raise EOFError
        line = line.rstrip("\r\n")
        echo = printable(line)
        echo = echo if self.unicode else echo.translate(_ASCII).encode("ascii", "replace").decode("ascii")
        self.out.write(echo + "\n")
        self.out.flush()
        return line


def _isatty(f) -> bool:
    try:
        return bool(f.isatty())
    except (AttributeError, ValueError, OSError):
        return False


# ------------------------------------------------------------------ menus
class Choice:
    """One line of the menu: a single action, or a run of numeric actions
    (`bid 66 (or more)`): its number picks the lowest, a typed number any other.
    `text` is the action as records write it (without the seat); `label` what is shown."""

    def __init__(self, label: str, action=None, verb=None, suffix="", lo=0, hi=0, open_ended=False,
                 step=1, values=(), missing=(), text=None, group=""):
        self.label, self.action, self.group = label, action, group
        self.text = label if text is None else text
        self.verb, self.suffix, self.lo, self.hi, self.open_ended = verb, suffix, lo, hi, open_ended
        self.step, self.values, self.missing = step, tuple(values), tuple(missing)

    @property
    def is_range(self) -> bool:
        return self.action is None


class Menu(list):
    """The choices of one turn. `amounts` is set when a run of numbers starts low enough to
    clash with the choices' own numbers (bids of 0, 1, 2 … tricks): then a number typed is
    always an amount, and the choices are shown without numbers."""
    amounts = False


_NUMERIC = re.compile(r"^(\S+) (\d+)((?: \S+)*)$")
ELLIPSIS = "…"


def _runs_text(values: list, step: int) -> str:
    """`0…4, 6…10` for 0 1 2 3 4 6 7 8 9 10."""
    runs = []
    for v in values:
        if runs and v - runs[-1][1] == step:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}, {b}" if b - a == step else f"{a}{ELLIPSIS}{b}"
                     for a, b in runs)


def build_menu(deal, seat: int, actions: list, seats: list) -> Menu:
    """The legal actions as menu choices, runs of numbers folded into one line."""
    g = deal.game
    texts = [(a, deal.action_to_string(a, seat, seats).split(" ", 1)[1]) for a in actions]
    runs: dict = {}
    for a, t in texts:
        m = _NUMERIC.match(t)
        if m:
            runs.setdefault((m.group(1), m.group(3)), []).append(int(m.group(2)))
    # A run is folded when it is long, or when its numbers are small enough to be
    # mistaken for the menu's own numbers (a bid of 1 trick is not choice 1).
    folded = {k for k, v in runs.items() if len(v) >= RANGE_MIN or min(v) <= len(texts)}
    passing = deal.phase == EXCHANGE
    menu, seen = Menu(), set()
    for a, t in texts:
        m = _NUMERIC.match(t)
        key = (m.group(1), m.group(3)) if m else None
        if key in folded:
            if key not in seen:
                seen.add(key)
                menu.append(_range_choice(deal, seat, seats, key, sorted(set(runs[key]))))
            continue
        label, group = t, ""
        kind = g.codec.kind(a)
        if kind == "give":          # cards given or passed: one line of cards for each receiver
            f = g.codec.fields(a)
            label = g.card_names[f["card"]]
            group = f"{'pass' if passing else 'give'} to {seats[f['seat']]}:"
        elif kind == "exchange" and 0 <= deal.exposed < g.n_cards:
            label = f"{t} (for the face-up {g.card_names[deal.exposed]})"
        elif kind == "close":
            label = "close (the stock: no more drawing)"
        menu.append(Choice(label, a, text=t, group=group))
    menu.amounts = any(c.is_range and c.lo <= len(menu) for c in menu)
    return menu


def _range_choice(deal, seat, seats, key, values) -> Choice:
    verb, suffix = key
    lo, hi = values[0], values[-1]
    gaps = [b - a for a, b in zip(values, values[1:])]
    step = min(gaps) if gaps else 1
    probe = _parse(deal, [verb, str(hi + step)] + suffix.split(), seats)
    open_ended = probe is not None and deal.is_legal(probe, seat)
    have = set(values)
    missing = []
    for v in range(lo, hi + 1, step):
        if v not in have and len(missing) < 3:
            a = _parse(deal, [verb, str(v)] + suffix.split(), seats)
            if a is not None:
                missing.append((v, explain(deal, a, seat, seats)))
    steps = f", in steps of {step}" if step > 1 else ""
    if open_ended and len(have) == (hi - lo) // step + 1:
        label = f"{verb} {lo}{suffix} (or more{steps})"
    elif open_ended:
        label = f"{verb} {_runs_text(values, step)}{suffix} (or more{steps})"
    else:
        label = f"{verb} {_runs_text(values, step)}{suffix}"
    return Choice(label, None, verb, suffix, lo, hi, open_ended, step, values, missing)


def _parse(deal, words, seats):
    try:
        return deal.parse_action(words, {n: i for i, n in enumerate(seats)})
    except ValueError:
        return None


def render_menu(menu: list) -> list:
    """The choices, several to a line: numbered, or (when numbers typed are amounts) not."""
    amounts = getattr(menu, "amounts", False)
    lines, cur, group = [], "", ""
    for i, c in enumerate(menu, 1):
        it = c.label if amounts else f"{i}) {c.label}"
        g = getattr(c, "group", "")
        if g != group:              # a new group starts a line of its own
            if cur:
                lines.append("  " + cur)
            cur, group = g, g
        if cur and cur != group and len(cur) + 3 + len(it) > WIDTH - 2:
            lines.append("  " + cur)
            cur = " " * len(group) + " " * bool(group) + it if group else it
        elif cur:
            cur = f"{cur}{' ' if cur == group else '   '}{it}"
        else:
            cur = it
    if cur:
        lines.append("  " + cur)
    ranges = [c for c in menu if c.is_range]
    for c in ranges:
        for v, why in c.missing:
            lines.append(f"  (`{c.verb} {v}{c.suffix}` is not allowed: {why})")
    if ranges:
        ex = ranges[0]
        if amounts:
            v = ex.values[1] if len(ex.values) > 1 else ex.lo
            others = [c.text for c in menu if not c.is_range]
            lines.append(f"  (type the number: `{v}` is `{ex.verb} {v}{ex.suffix}`"
                         + (", or type " + " or ".join(f"`{t}`" for t in others) if others else "") + ")")
        else:
            v = ex.lo + 4 * ex.step if ex.open_ended or ex.lo + 4 * ex.step <= ex.hi else ex.lo
            lines.append(f"  (for a higher {ex.verb}, type the number: `{v}`"
                         + "".join(f", `{v}{c.suffix}`" for c in ranges if c.suffix) + ")")
    return lines


# ------------------------------------------------------------------ the session
DIRECTION_WORDS = {1: "to the left", -1: "to the right", 2: "across"}


class Session:
    def __init__(self, game, seats, human, match, spec_ref, record_path, seed, console,
                 start_scores, done_records, deals_limit=0):
        self.g, self.seats, self.human, self.match = game, seats, human, match
        self.names = {n: i for i, n in enumerate(seats)}
        self.spec_ref, self.record_path, self.seed = spec_ref, record_path, seed
        self.io = console
        self.start_scores = start_scores
        self.done_texts = []            # YAML of finished deals, written once each
        self.done_records = []
        for r in done_records:
            self._add_done(r)
        self.deal = None
        self.deals_limit = deals_limit
        self.deals_this_session = 0
        self.offered = set()
        self.queue = []                 # cards typed ahead (several cards passed on one line)
        self.first_deal = match.deals_played + 1 - len(done_records)   # the number of the record's first deal
        self.refused = 0                # lines in a row that gave no action
        self.agents = None              # the other seats' agents (arena.agent_texts), None: random play

    # -------------------------------------------------------------- the record
    def _add_done(self, rec: dict):
        self.done_records.append(rec)
        self.done_texts.append(dump_yaml({"deals": [rec]})[len("deals:\n"):])

    def header(self) -> dict:
        head = {"spec": self.spec_ref, "seats": list(self.seats),
                "scores": {n: s for n, s in zip(self.seats, self.start_scores)}}
        if self.first_deal != 1:        # the passing direction, the hand size … depend on it
            head["deal_number"] = self.first_deal
        return head

    def record(self) -> dict:
        deals = list(self.done_records)
        if self.deal is not None and self.deal.phase is not None:
            deals.append(deal_record(self.deal, self.seats))
        return {**self.header(), "deals": deals}

    def save(self):
        if not self.record_path:
            return
        path = self.record_path
        if path.endswith(".json"):
            text = json.dumps(self.record(), indent=1) + "\n"
        else:
            text = dump_yaml(self.header()) + "deals:\n" + "".join(self.done_texts)
            if self.deal is not None and self.deal.phase is not None:
                text += dump_yaml({"deals": [deal_record(self.deal, self.seats)]})[len("deals:\n"):]
        # A temporary file made exclusively beside the record, renamed over it: never
        # through a planted symlink, never over a device, a FIFO or the spec itself.
        write_atomic(path, text, protect=spec_files(self.g), sync=False)

    # -------------------------------------------------------------- words
    def nm(self, s: int) -> str:
        return self.seats[s]

    def who(self, s: int) -> str:
        return "you" if s == self.human else self.seats[s]

    def verb_s(self, s: int, verb: str) -> str:
        """`you draw` / `B draws`."""
        return verb if s == self.human else (verb + "es" if verb.endswith(("s", "sh", "ch")) else verb + "s")

    def side_text(self, side) -> str:
        return " and ".join(f"you ({self.nm(s)})" if s == self.human else self.nm(s) for s in side)

    def suit_word(self, suit: int) -> str:
        return self.g.suit_words[suit] if suit >= 0 else "none"

    def hand_text(self, cards: list) -> str:
        g = self.g
        ints = sorted(g.card_by_name[c] for c in cards)
        parts = []
        for si, suit in enumerate(g.suits):
            ranks = [g.ranks[g.card_rank[c]] for c in ints if g.card_suit[c] == si]
            parts.append(f"{SYMBOLS.get(suit, suit)} " + (" ".join(ranks) if ranks else "—"))
        return "   ".join(parts)

    def trick_text(self, pairs) -> str:
        return "  ".join(f"{s}: {c}" for s, c in pairs)

    def scores_line(self, scores) -> str:
        return "   ".join(f"{n}{' (you)' if i == self.human else ''} {scores[i]}"
                          for i, n in enumerate(self.seats))

    def counters_line(self, counters) -> str:
        """`Name: A (you) 0  B 1  C 0   Other: …` for a game whose seats keep counts from deal to deal."""
        parts = []
        for name, _ in self.g.counters:
            vals = counters.get(name) or [0] * len(self.seats)
            parts.append(f"{name[:1].upper()}{name[1:]}: " + "  ".join(
                f"{n}{' (you)' if i == self.human else ''} {vals[i]}" for i, n in enumerate(self.seats)))
        return "   ".join(parts)

    def say_scores(self, scores, counters, label="Scores: "):
        self.io.say(label + self.scores_line(scores))
        if self.g.counters:
            self.io.say("  " + self.counters_line(counters))

    def _passing(self, deal, s: int) -> bool:
        """Whether a `give` by seat s is a pass among all seats (not a declarer's gift)."""
        return bool(self.g.exchange) and EXCHANGE in self.g.phases and (deal.declarer < 0 or s != deal.declarer)

    def public_text(self, deal, s: int, a: int) -> str:
        """An action as the person's seat sees it: cards given face down are shown
        only to the giver and the receiver (cards passed arrive only when all have passed)."""
        g = self.g
        text = deal.action_to_string(a, s, self.seats)
        kind = g.codec.kind(a)
        if kind == "give":
            f = g.codec.fields(a)
            d, c = f["seat"], f["card"]
            if self._passing(deal, s):
                if s != self.human:
                    return f"{self.nm(s)} passes a card face down to {self.who(d)}"
                return text
            if self.human == d:
                return f"{self.nm(s)} gives you {g.card_names[c]} face down"
            if self.human != s:
                return f"{self.nm(s)} gives {self.nm(d)} a card face down"
        if kind == "look":
            return f"{self.nm(s)} looks at their cards"
        return text

    def phase_word(self, deal) -> str:
        if deal.phase == AUCTION and self.g.auction_kind == "exact":
            return "bidding"
        return {AUCTION: "auction", CONTRACT: "contract", EXCHANGE: "passing", PLAY: "play"}.get(deal.phase,
                                                                                              deal.phase)

    # -------------------------------------------------------------- what the table shows
    def contract_text(self, deal, ob) -> str:
        if ob["declarer"] is None:
            return ""
        who = " and ".join(ob["partners"]) if len(ob["partners"]) > 1 else ob["declarer"]
        text = f"Contract: {who} {ob['contract']}"
        if deal.declarer_blind:
            text += " (blind: doubled)"
        if ob["trumps"] is not None:
            if ob["trumps"] == "none" and self.meld_trumps():
                text += ", no trumps yet"
            else:
                text += f", trumps {ob['trumps']}"
        if deal.pending_trumps is not None:
            text += f" ({self.suit_word(deal.pending_trumps)} from the next trick)"
        return text

    def meld_trumps(self) -> bool:
        return any(m.makes_trumps for m in self.g.melds)

    def bids_text(self, deal) -> str:
        """An exact auction: every bid so far and their total against the tricks."""
        bids = [(s, deal.bids[s]) for s in deal.active if deal.bids[s] is not None]
        total = sum(b for _, b in bids)
        head = ", ".join(f"{self.nm(s)} {b}" for s, b in bids) if bids else "(none yet)"
        n = deal.hand_size
        return f"Bids: {head} — {total} bid for {n} trick{'s' if n != 1 else ''}"

    def face_up_text(self, deal, ob, start=False) -> str:
        """The card turned face up, and the trumps it makes."""
        g = self.g
        up = ob["exposed"]
        turned = g.card_names[deal.exposed_dealt] if deal.exposed_dealt >= 0 else None
        trumps = (f"trumps are {self.suit_word(deal.trumps)}"
                  if g.face_up_trumps and deal.trumps is not None and deal.trumps >= 0 else "")
        if g.face_up == "dealer-last":
            holder = deal.dealer if deal.dealer in deal.pos else (deal.active[-1] if deal.active else deal.dealer)
            whose = "your" if holder == self.human else f"{self.nm(holder)}'s"
            if up is not None:
                if start:
                    return (f"{self.nm(holder)}'s last card is dealt face up: {up}"
                            + (f" — {trumps}" if trumps else "")
                            + f". It is part of {whose} hand, face up on the table until the first trick is over.")
                return (f"Trumps: {self.suit_word(deal.trumps)} — the turned-up {up} is {whose} own card "
                        f"(face up until the first trick is over)" if trumps
                        else f"Face up: {up} ({whose} own card, face up until the first trick is over)")
            if trumps and turned:
                return f"Trumps: {self.suit_word(deal.trumps)} ({turned} was turned up)"
            return ""
        if g.face_up == "stock-top" and turned:
            if start:
                return f"The top card of the stock is turned face up: {turned}" + (f" — {trumps}" if trumps else "")
            return (f"Trumps: {self.suit_word(deal.trumps)} (the {turned} turned up from the stock)" if trumps
                    else f"Face up: {turned} (from the stock)")
        if g.face_up == "stock-bottom":
            if up is not None:
                if start:
                    return (f"The stock has {len(deal.stock)} cards; under it, face up: {up}"
                            + (f" — {trumps}" if trumps else ""))
                return (f"Trumps: {self.suit_word(deal.trumps)} — face up under the stock: {up}" if trumps
                        else f"Face up under the stock: {up}")
            if trumps:
                return f"Trumps: {self.suit_word(deal.trumps)}"
        return ""

    def stock_text(self, deal) -> str:
        g = self.g
        if not (g.stock and g.draw) or deal.phase != PLAY:
            return ""
        n = len(deal.stock)
        if deal.closed:
            return (f"Stock: closed by {self.who(deal.closer)} ({n} card{'s' if n != 1 else ''} out of play); "
                    f"no more drawing")
        if not n:
            return "Stock: exhausted; no more drawing"
        return f"Stock: {n} card{'s' if n != 1 else ''}"

    def task_text(self, deal) -> str:
        """What the person must do now, where the menu alone does not say it."""
        g = self.g
        h = self.human
        if deal.turn != h:
            return ""
        if deal.phase == AUCTION and g.opener_must_bid and h == deal.opener and deal.turns[h] == 0:
            rule = g.rules_of_kind("opener_bids")
            return "You open the auction and may not pass" + (f" (rule `{rule}`)" if rule else "") + "."
        if deal.phase == CONTRACT and 0 <= deal.step < len(g.contract_steps):
            step = g.contract_steps[deal.step]
            if step[0] == "give":
                n = step[1]
                due = [(t, n - deal.give_count.get(t, 0)) for t in deal.defenders]
                return (f"Give {n} card{'s' if n != 1 else ''} face down to each defender: "
                        + ", ".join(f"{self.nm(t)} {k} more" if k else f"{self.nm(t)} done" for t, k in due))
            if step[0] == "contract":
                return (f"Name the contract: at least {deal.bid_value}"
                        + (f", in steps of {g.contract_step}" if g.contract_step > 1 else "") + ".")
            if step[0] == "trumps":
                return "Name trumps" + (" (or none)" if step[1] else "") + "."
        return ""

    def passing_text(self, deal) -> str:
        from .engine.steps import Passing
        g = self.g
        n = g.exchange[0]
        t = Passing.target(deal, self.human)
        done = [g.card_names[c] for c in bits(deal.passing[self.human])]
        text = (f"Pass {n} card{'s' if n != 1 else ''} face down to {self.nm(t)} "
                f"({DIRECTION_WORDS.get(Passing.direction(deal), 'this deal')})")
        if done:
            text += f"; passed so far: {' '.join(done)}, {n - len(done)} more"
        return text

    def tricks_text(self, deal, ob) -> str:
        sides = [side for side in deal.sides if side]
        if self.g.partners and any(len(side) > 1 for side in sides):
            per = "  ".join(f"{n} {k}" for n, k in ob["tricks"].items())
            return ("Tricks won: " + ", ".join(f"{self.side_text(side)} {sum(deal.tricks[s] for s in side)}"
                                                for side in sides) + f"   ({per})")
        if self.g.auction_kind == "exact":
            return "Tricks won (bid): " + "  ".join(
                f"{self.nm(s)} {deal.tricks[s]} ({deal.bids[s] if deal.bids[s] is not None else '-'})"
                for s in deal.active)
        return "Tricks won: " + "  ".join(f"{n} {k}" for n, k in ob["tricks"].items())

    def points_text(self, deal) -> str:
        from .report import counts_points
        if not counts_points(self.g):
            return ""
        try:
            pts = [(s, deal.points(s)) for s in deal.active]
        except Exception:            # a formula that needs the end of the deal
            return ""
        return "Points so far: " + "  ".join(f"{self.nm(s)} {p}" for s, p in pts)

    def table_lines(self, deal) -> list:
        """What the person's seat may see now (``Deal.observation``), line by line."""
        ob = deal.observation(self.human, self.seats)
        g = self.g
        out = []
        if deal.phase == AUCTION:
            if g.auction_kind == "exact":
                out.append(self.bids_text(deal))
            else:
                out.append("Auction: " + (", ".join(ob["auction"]) if ob["auction"] else "(you speak first)"))
        else:
            ct = self.contract_text(deal, ob)
            if ct:
                out.append(ct)
            if g.auction_kind == "exact" and deal.phase == PLAY:
                out.append(self.bids_text(deal))
        for line in (self.face_up_text(deal, ob), self.stock_text(deal)):
            if line:
                out.append(line)
        if ob["talon"] is not None and deal.phase == CONTRACT:
            out.append("Talon: " + " ".join(ob["talon"]))
        task = self.task_text(deal)
        if task:
            out.append(task)
        if deal.phase == EXCHANGE:
            out.append(self.passing_text(deal))
        if deal.phase == PLAY:
            out.append(self.tricks_text(deal, ob))
            pts = self.points_text(deal)
            if pts:
                out.append(pts)
            if ob["melds"]:
                out.append("Announced: " + ", ".join(f"{m['seat']} {m['meld']} {'+'.join(m['cards'])}"
                                                     for m in ob["melds"]))
            if ob["last_trick"] and not ob["trick"]:
                out.append("Last trick: " + self.trick_text(ob["last_trick"]))
            out.append("Trick: " + (self.trick_text(ob["trick"]) if ob["trick"] else "(you lead)"))
        if "declarer_hand" in ob:
            out.append(f"Open hand of {ob['declarer']}: " + self.hand_text(ob["declarer_hand"]))
        if ob["hand"] is None:
            out.append(f"Your hand: {ob['hand_size']} cards, face down (type `look` to see them)")
        else:
            out.append("Your hand: " + self.hand_text(ob["hand"]))
            if ob["received"]:
                how = "passed to you" if self._passing(deal, -1) else "given to you face down"
                out.append(f"  ({how}: " + " ".join(ob["received"]) + ")")
        return out

    def status(self, deal):
        """What the person's seat may see now, before they choose."""
        say = self.io.say
        say("")
        title = f"Deal {deal.deal_number}, {self.phase_word(deal)}"
        if deal.phase == PLAY:
            title += f", trick {deal.tricks_done + 1}"
        say(f"── {title} — your turn ({self.nm(self.human)}) ──")
        for line in self.table_lines(deal):
            say(line)

    # -------------------------------------------------------------- choosing
    def choose(self, deal):
        """Ask the person for an action until a legal one is given."""
        self.status(deal)
        prompt = f"{self.nm(self.human)}> "
        while True:
            menu = build_menu(deal, self.human, deal.legal_actions(self.human), self.seats)
            if self.queue:
                line = self.queue.pop(0)
                self.io.say(f"{prompt}{line}   (typed ahead)")
                a = self.interpret(deal, menu, line)
                if a not in (None, "menu"):
                    return a
                self.queue.clear()
            for line in render_menu(menu):
                self.io.say(line)
            while True:
                a = self.read_action(deal, menu, prompt)
                if a not in (None, "menu"):
                    self.refused = 0
                    return a
                self.refused += 1
                if self.refused >= MAX_REFUSED and not self.io.tty:
                    raise _Leave("stuck")
                if a == "menu":
                    break

    def read_action(self, deal, menu, prompt):
        """One line -> a legal action, None (ask again) or "menu" (show the menu again)."""
        try:
            line = self.io.ask(prompt).strip()
        except EOFError:
            raise _Leave("end of input")
        return self.interpret(deal, menu, line)

    def _card(self, word: str):
        try:
            return self.g.parse_card(word)
        except ValueError:
            return None

    def interpret(self, deal, menu, line: str):
        if not line:
            return None
        low = line.lower()
        if low in ("?", "h", "help"):
            self.io.say("Type a number from the list, or an action as in hand records "
                        "(e.g. `bid 70`, `pass`, `play KS`; a card alone plays or passes it); "
                        "`show` repeats the table, `quit` saves and leaves.")
            return "menu"
        if low in ("q", "quit", "exit"):
            raise _Leave("quit")
        if low in ("show", "status", "hand"):
            self.status(deal)
            return "menu"
        words = line.split()
        if words[0].upper() == self.nm(self.human).upper() and len(words) > 1 and words[1].lower() in VERBS:
            words = words[1:]           # "A bid 70", as written in records
        ranges = [c for c in menu if c.is_range]
        amounts = getattr(menu, "amounts", False)
        bad = next((p for p in map(number_problem, words) if p), None)
        if bad:
            self.io.say(bad)
            return "menu"
        if deal.phase == EXCHANGE and len(words) > 1 and all(self._card(w) is not None for w in words):
            self.queue = words[1:]      # several cards to pass: the first now, the others next
            words = words[:1]
        text = " ".join(words)
        if text.isdigit():
            n = int(text)
            if not amounts and 1 <= n <= len(menu):
                c = menu[n - 1]
                if not c.is_range:
                    return c.action
                return self.check(deal, [c.verb, str(c.lo)] + c.suffix.split())
            # An amount: of a folded run, or of a bid or contract listed on its own line.
            plain = [(c.verb, c.lo) for c in ranges if not c.suffix] or [(c.verb, c.lo) for c in ranges]
            if not plain:
                singles = [_NUMERIC.match(c.text) for c in menu if not c.is_range]
                plain = [(m.group(1), int(m.group(2))) for m in singles if m and not m.group(3)]
            if not plain or (not amounts and n < min(lo for _, lo in plain)):
                self.io.say(f"there is no choice {n}: pick 1 to {len(menu)}"
                            + (f", or a {plain[0][0]} of {min(lo for _, lo in plain)} or more" if plain else ""))
                return "menu"
            words = [plain[0][0], text]
        elif words[0].isdigit() and ranges:
            words = [ranges[0].verb] + words
        elif words[0].lower() not in VERBS:
            # Without the verb: `hearts` for `trumps hearts`, a contract's name for `bid NAME`.
            tails = [c for c in menu if not c.is_range and " " in c.text
                     and c.text.split(" ", 1)[1].lower() == text.lower()]
            if len(tails) == 1:
                return tails[0].action
            card = self._card(words[0])
            if card is not None and len(words) == 1:
                return self.card_choice(deal, menu, card, words[0])
            for verb in dict.fromkeys(c.text.split(" ", 1)[0] for c in menu):
                if _parse(deal, [verb] + words, self.seats) is not None:
                    return self.check(deal, [verb] + words)
            if card is not None:
                words = ["play"] + words
        if words[0].lower() == "give" and len(words) == 3:
            for n in self.seats:
                if words[2].lower() == n.lower():
                    words[2] = n
        return self.check(deal, words)

    def card_choice(self, deal, menu, card: int, typed: str):
        """A card typed alone: the choice that plays it (or passes it, or gives it)."""
        c = self.g.codec
        plays = [m for m in menu if not m.is_range and c.kind(m.action) == "play"
                 and c.fields(m.action)["card"] == card and c.fields(m.action)["meld"] < 0]
        if plays:
            return plays[0].action
        gives = [m for m in menu if not m.is_range and c.kind(m.action) == "give"
                 and c.fields(m.action)["card"] == card]
        if len(gives) == 1:
            return gives[0].action
        if len(gives) > 1:
            self.io.say(f"give {self.g.card_names[card]} to whom? type "
                        + " or ".join(f"`{m.text}`" for m in gives))
            return "menu"
        if deal.phase == EXCHANGE:
            from .engine.steps import Passing
            return self.check(deal, ["give", typed, self.nm(Passing.target(deal, self.human))])
        if deal.phase == CONTRACT and any(c.kind(m.action) == "give" for m in menu if not m.is_range):
            return self.check(deal, ["give", typed, self.nm(c.fields(next(
                m.action for m in menu if not m.is_range and c.kind(m.action) == "give"))["seat"])])
        return self.check(deal, ["play", typed])

    def check(self, deal, words):
        text = " ".join(words)
        bad = next((p for p in map(number_problem, words) if p), None)
        if bad:
            self.io.say(f"not understood: {bad}")
            return "menu"
        try:
            a = deal.parse_action(words, self.names)
        except ValueError as e:
            self.io.say(f"not understood: {e}")
            return "menu"
        if not deal.is_legal(a, self.human):
            self.io.say(f"`{text}` is not allowed: {explain(deal, a, self.human, self.seats)}")
            return "menu"
        return a

    def offer_free(self, deal, free: list):
        """Actions the person may take although it is not their turn (look, concede)."""
        menu = [Choice(deal.action_to_string(a, self.human, self.seats).split(" ", 1)[1], a) for a in free]
        self.io.say("")
        ob = deal.observation(self.human, self.seats)
        self.io.say(f"{self.nm(deal.turn)} is to act. You may also, at any time: "
                    + "   ".join(f"{i}) {c.label}" for i, c in enumerate(menu, 1)))
        if ob["hand"] is None:
            self.io.say(f"(your {ob['hand_size']} cards are face down)")
        while True:
            try:
                line = self.io.ask("Enter to wait, or choose: ").strip()
            except EOFError:
                raise _Leave("end of input")
            low = line.lower()
            if not line or low in ("w", "wait"):
                return None
            if low in ("q", "quit", "exit"):
                raise _Leave("quit")
            if number_problem(line):
                self.io.say(number_problem(line))
                continue
            if line.isdigit() and 1 <= int(line) <= len(menu):
                return menu[int(line) - 1].action
            a = _parse(deal, line.split(), self.seats)
            if a is not None and a in free:
                return a
            self.io.say("it is not your turn: press Enter to wait, or choose "
                        + " or ".join(f"{i} ({c.label})" for i, c in enumerate(menu, 1)))

    # -------------------------------------------------------------- playing
    def apply(self, deal, a: int, s: int):
        before = {"tricks": len(deal.history_tricks), "phase": deal.phase, "talon": deal.talon_shown,
                  "open": deal.hand_shown, "stock": list(deal.stock), "exposed": deal.exposed,
                  "trumps": deal.trumps, "melds": len(deal.melds)}
        deal.apply_action(a, s)
        self.save()
        self.narrate(deal, s, a, before)

    def narrate(self, deal, s, a, before):
        say = self.io.say
        g = self.g
        kind = g.codec.kind(a)
        n_pass = g.exchange[0] if g.exchange else 0
        if kind == "give" and s != self.human and self._passing(deal, s):
            if deal.passed_count[s] >= n_pass:          # one line for a seat's whole pass
                from .engine.steps import Passing
                say(f"  {self.nm(s)} passes {n_pass} card{'s' if n_pass != 1 else ''} face down to "
                    f"{self.who(Passing.target(deal, s))}")
        else:
            say("  " + self.public_text(deal, s, a))
        if kind == "close":
            say(f"  {'You close' if s == self.human else self.nm(s) + ' closes'} the stock: nobody draws any more"
                + (f" ({len(deal.stock)} cards stay out of play)" if deal.stock else ""))
        elif kind == "exchange" and before["exposed"] >= 0:
            card = g.card_names[g.codec.fields(a)["card"]]
            say(f"  {self.who(s).capitalize() if s == self.human else self.nm(s)} "
                f"{self.verb_s(s, 'take')} the face-up {g.card_names[before['exposed']]} and "
                f"{self.verb_s(s, 'leave')} {card} face up under the stock")
        if len(deal.melds) > before["melds"]:
            self.say_meld(deal, deal.melds[-1])
        ob = deal.observation(self.human, self.seats)
        if len(deal.history_tricks) > before["tricks"]:
            leader, trick, w = deal.history_tricks[-1]
            pairs = [(self.nm(t), g.card_names[c]) for t, c in trick]
            say(f"  Trick {len(deal.history_tricks)}: {self.trick_text(pairs)} — "
                f"{'you win' if w == self.human else self.nm(w) + ' wins'} it")
            self.say_draws(deal, w, before)
            if deal.trumps != before["trumps"] and deal.trumps is not None and deal.trumps >= 0:
                say(f"  From now on {self.suit_word(deal.trumps)} are trumps.")
        if before["phase"] == AUCTION and deal.phase != AUCTION and not deal.annulled:
            if g.auction_kind == "exact":
                say("The bidding is over. " + self.bids_text(deal))
            elif deal.phase in (CONTRACT, PLAY, EXCHANGE):
                say(f"The auction is over. {self.contract_text(deal, ob)}"
                    + (" — you declare" if deal.declarer == self.human else ""))
        if deal.talon_shown and not before["talon"] and ob["talon"] is not None:
            say("The talon is turned face up: " + " ".join(ob["talon"]))
        if before["phase"] == EXCHANGE and deal.phase != EXCHANGE:
            self.say_arrival(deal)
        if before["phase"] != PLAY and deal.phase == PLAY:
            say("The play begins. " + self.play_begins(deal, ob))
        if deal.hand_shown and not before["open"] and "declarer_hand" in ob:
            say(f"{ob['declarer']} lays the hand open: " + self.hand_text(ob["declarer_hand"]))
        if deal.phase == DONE and deal.ended_early:
            rule = g.rules_of_kind("deal_end")
            pts = self.points_text(deal).replace("Points so far: ", "")
            say("  The deal ends at once" + (f" (rule `{rule}`: {g.rule_text(rule)})" if rule else "")
                + (f". Points: {pts}" if pts else "") + ".")

    def say_meld(self, deal, meld):
        from .engine.env import Env
        g = self.g
        s, mi, suit, worth = meld
        m = g.melds[mi]
        text = (f"  {'You announce' if s == self.human else self.nm(s) + ' announces'} the {m.name} "
                f"of {self.suit_word(suit)}, worth {worth}")
        try:
            counts = m.counts is None or bool(m.counts(deal, Env(s, suit)))
        except Exception:
            counts = True
        if not counts:
            rule = g.rules_of_kind("meld_counts")
            text += f" (not counted yet: {g.rule_text(rule)})" if rule else " (not counted yet)"
        if m.makes_trumps and deal.phase == PLAY:
            text += f"; {self.suit_word(suit)} will be trumps from the next trick"
        self.io.say(text)

    def say_draws(self, deal, w: int, before):
        """After a trick, every seat draws from the stock: the person sees its own card,
        and the face-up card whoever takes it."""
        g = self.g
        stock = before["stock"]
        k = len(stock) - len(deal.stock)
        if not g.draw or k <= 0:
            return
        parts = []
        for t, card in zip(deal.clockwise_from(w, include=True), stock[:k]):
            if t == self.human:
                parts.append(f"you draw {g.card_names[card]}")
            elif card == before["exposed"]:
                parts.append(f"{self.nm(t)} takes the face-up {g.card_names[card]}")
            else:
                parts.append(f"{self.nm(t)} draws a card")
        left = len(deal.stock)
        text = "; ".join(parts)
        self.io.say("  " + text[:1].upper() + text[1:]
                    + (f" (stock: {left} left)." if left else ". The stock is exhausted: no more drawing."))

    def say_arrival(self, deal):
        from .engine.steps import Passing
        if self.human not in deal.pos:
            return
        g = self.g
        got = [g.card_names[c] for c in bits(deal.given[self.human])]
        giver = next((s for s in deal.active if Passing.target(deal, s) == self.human), None)
        if got:
            self.io.say("The passed cards arrive: you receive " + " ".join(got)
                        + (f" from {self.nm(giver)}" if giver is not None else "") + ".")

    def play_begins(self, deal, ob) -> str:
        g = self.g
        parts = []
        ct = self.contract_text(deal, ob)
        if ct:
            parts.append(ct + ".")
        elif deal.trumps is not None and deal.trumps >= 0:
            parts.append(f"Trumps: {self.suit_word(deal.trumps)}.")
        elif not g.has_declarer:
            parts.append("No trumps.")
        t = deal.turn
        if g.lead_card >= 0 and deal.tricks_done == 0 and deal.hands[t] >> g.lead_card & 1:
            card = g.card_names[g.lead_card]
            parts.append(f"You hold the {card} and lead it." if t == self.human
                         else f"{self.nm(t)} holds the {card} and leads it.")
        else:
            parts.append(f"{self.nm(t)} leads.")
        return " ".join(parts)

    def start_deal(self, deal, resumed=False):
        say = self.io.say
        g = self.g
        say("")
        size = deal.hand_size
        varying = any(not isinstance(st.rounds, int) for st in g.deal_steps)
        say(f"═══ Deal {deal.deal_number} — dealer {self.nm(deal.dealer)}"
            + (f" — {size} card{'s' if size != 1 else ''} each" if varying else "") + " ═══")
        self.say_scores(deal.scores_before, deal.counters)
        if g.partners and any(len(side) > 1 for side in deal.sides):
            mine = next((side for side in deal.sides if self.human in side), None)
            others = [side for side in deal.sides if side is not mine]
            if mine is not None:
                say(f"Partners: {self.side_text(mine)}, against "
                    + "; ".join(self.side_text(side) for side in others))
        if self.human not in deal.pos:
            say("You sit this deal out (you watch).")
        ob = deal.observation(self.human, self.seats)
        up = self.face_up_text(deal, ob, start=True)
        if up:
            say(up)
        if g.exchange and EXCHANGE in g.phases and self.human in deal.pos:
            from .engine.steps import Passing
            k = Passing.direction(deal)
            n = g.exchange[0]
            if k == 0:
                say("No cards are passed this deal.")
            else:
                giver = next((s for s in deal.active if Passing.target(deal, s) == self.human), None)
                say(f"Every seat passes {n} card{'s' if n != 1 else ''} face down {DIRECTION_WORDS.get(k, '')}: "
                    f"you pass to {self.nm(Passing.target(deal, self.human))}"
                    + (f", {self.nm(giver)} passes to you" if giver is not None else "") + ".")
        if self.human in deal.pos:
            if ob["hand"] is None:
                say(f"Your {ob['hand_size']} cards are face down (you may bid blind, or `look`).")
            elif not resumed:
                say("Your hand: " + self.hand_text(ob["hand"]))
        if resumed and deal.history:
            say("So far in this deal:")
            for s, a in deal.history:
                say("  " + self.public_text(deal, s, a))

    def play_deal(self, deal, agent):
        h = self.human
        while not deal.is_terminal():
            t = deal.turn
            if t == h:
                self.apply(deal, self.choose(deal), h)
                continue
            free = deal.free_actions(h)
            key = (deal.deal_number, tuple(free))
            if free and key not in self.offered:
                self.offered.add(key)
                a = self.offer_free(deal, free)
                if a is not None:
                    self.apply(deal, a, h)
                    continue
            self.apply(deal, (agent[t] if isinstance(agent, list) else agent).act(deal), t)
        self.queue.clear()

    # -------------------------------------------------------------- the result
    def headline(self, deal, d: dict) -> str:
        from .report import deal_headline
        g = self.g
        if d["result"] == "annulled" or "declarer" in d:
            head = deal_headline(d)
            extra = []
        else:
            head, extra = "", []
            if d.get("trumps") and d["trumps"] != "none":
                extra.append(f"trumps {d['trumps']}")
            sides = [side for side in deal.sides if side]
            if g.partners and any(len(side) > 1 for side in sides):
                extra.append(", ".join(f"{' and '.join(self.nm(s) for s in side)} "
                                       f"{sum(deal.tricks[s] for s in side)} tricks" for side in sides))
            if "bids" in d:
                made = [n for n, b in d["bids"].items() if d["tricks"].get(n) == b]
                extra.append(("bid exactly: " + ", ".join(made)) if made else "nobody made its bid")
        if deal.closed:
            extra.append(f"{self.nm(deal.closer)} closed the stock")
        if deal.ended_early:
            extra.append("ended at once")
        if not head and not extra:
            extra.append(f"{deal.tricks_done} trick{'s' if deal.tricks_done != 1 else ''} played")
        return "; ".join([head] * bool(head) + extra)

    def result_table(self, deal, d: dict) -> str:
        from .report import counts_points, table
        g = self.g
        by_points = counts_points(g)
        melds_col = by_points and bool(g.melds)
        exact = "bids" in d
        counters = [name for name, _ in g.counters]
        heads = (["seat"] + (["bid"] if exact else []) + ["tricks"]
                 + (["card points"] + ["melds"] * melds_col + ["deal points"] if by_points else [])
                 + ["change", "score"] + counters)
        rows = []
        for i, n in enumerate(self.seats):
            row = [n + (" (you)" if i == self.human else "")]
            if n not in d.get("tricks", {}):
                row += ["-"] * (1 + exact + (2 + melds_col) * by_points)
            else:
                row += ([d["bids"].get(n, "-")] if exact else []) + [d["tricks"][n]]
                if by_points:
                    melds = sum(m["worth"] for m in d["melds"] if m["seat"] == n and m["counts"])
                    row += [d["card_points"][n]] + [melds] * melds_col + [d["points"][n]]
            row += [f"{d['deltas'][n]:+d}", d["scores"][n]] + [deal.counters[c][i] for c in counters]
            rows.append(row)
        return table(heads, rows)

    def show_result(self, deal):
        d = deal_summary(deal, self.seats, {n: deal.scores_before[i] for i, n in enumerate(self.seats)})
        say = self.io.say
        say("")
        say(f"Deal {deal.deal_number} over: " + self.headline(deal, d)
            + ("; no score changes." if d["result"] == "annulled" else ""))
        if d["result"] != "annulled":
            for line in self.result_table(deal, d).splitlines():
                say("  " + line)
        self.say_scores(deal.scores, deal.counters)

    def run(self) -> int:
        """Play until the game ends, the deal limit is reached, or the person leaves."""
        m = self.match
        deal = self.deal
        resumed = deal is not None
        while True:
            if deal is None:
                if m.game_over:
                    break
                if self.deals_limit and self.deals_this_session >= self.deals_limit:
                    self.io.say("")
                    self.io.say(f"Stopping after {self.deals_this_session} deal"
                                f"{'s' if self.deals_this_session != 1 else ''} (--deals).")
                    self.say_scores(m.scores, m.counters)
                    if self.record_path:
                        self.io.say(f"The game is saved in {self.record_path}; continue it with "
                                    f"`talon play --resume {self.record_path}`.")
                    return EXIT_OK
                deal = self.deal = m.new_deal()
                deal.deal_random(_rng(self.seed, deal.deal_number))
                self.save()
                self.start_deal(deal)
            else:
                self.start_deal(deal, resumed=resumed)
                resumed = False
            rng = _rng(self.seed, deal.deal_number ^ (1 << 31))
            if self.agents is None:
                agent = RandomAgent(rng)
            else:
                from .arena import seat_agents
                agent = seat_agents(self.agents, rng, len(self.seats))
            self.play_deal(deal, agent)
            m.finish(deal)
            self._add_done(deal_record(deal, self.seats))
            self.deal = None
            self.save()
            self.deals_this_session += 1
            self.show_result(deal)
            deal = None
        self.io.say("")
        self.io.say(f"Game over after {m.deals_played} deal{'s' if m.deals_played != 1 else ''}.")
        self.say_scores(m.scores, m.counters, "Final scores: ")
        win = [self.nm(s) for s in m.winners]
        self.io.say(("Winners: " if len(win) > 1 else "Winner: ") + ", ".join(win)
                    + (" — you win!" if self.human in m.winners else ""))
        if self.record_path:
            self.io.say(f"The game is saved in {self.record_path}.")
        return EXIT_OK

    def leave(self, why: str) -> int:
        self.save()
        self.io.say("")
        text = {"end of input": "End of input", "quit": "Leaving", "interrupted": "Interrupted",
                "stuck": f"{MAX_REFUSED} lines in a row gave no legal action"}[why]
        if self.record_path:
            self.io.say(f"{text}: the game is saved in {self.record_path}; "
                        f"continue it with `talon play --resume {self.record_path}`.")
        else:
            self.io.say(f"{text}: leaving (the game was not recorded; use --record FILE to keep it).")
        return {"interrupted": EXIT_INTERRUPTED, "stuck": EXIT_USAGE}.get(why, EXIT_OK)


# ------------------------------------------------------------------ the command
def _err(msg: str) -> int:
    print(printable(f"talon play: {msg}"), file=sys.stderr)
    return EXIT_USAGE


def _rng(seed: int, k) -> random.Random:
    """The generator for draw `k` of a session with `seed` (`random.Random` seeds by the
    absolute value of an integer, so a negative seed gets generators of its own)."""
    if seed < 0:
        return random.Random(f"talon play {seed} {k}")
    return random.Random(seed) if k == "dealer" else random.Random((seed << 32) ^ k)


def _spec_ref(ref: str, game, record_path) -> str:
    """The spec as the record names it: a bundled name as is, a path relative to the
    record's folder (replay looks there)."""
    if not (ref.endswith(".talon") or "/" in ref or os.sep in ref):
        return ref
    if not record_path:
        return os.path.abspath(game.path)
    return record_spec_ref(ref, game, record_path)      # a bundled spec given by its path: its name


def play_terminal(args, inp=None, out=None) -> int:
    """Run `talon play` with parsed arguments; returns the exit status."""
    from .spec import load
    io = Console(inp, out)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    record_path = args.record or args.resume
    if getattr(args, "deals", 0) and args.deals < 0:
        return _err("--deals must be 0 (the whole game) or more")
    if args.resume:
        recs = read_record_file(args.resume)
        if len(recs) != 1:
            raise RecordError(f"{args.resume}: holds {len(recs)} records; resume one game at a time")
        rec = recs[0]
        rep = replay_record(rec, base_dir=str(Path(args.resume).parent), where=args.resume,
                            spec_override=args.spec)
        game, seats, match = rep.game, rep.seats, rep.match
        if args.seats is not None and args.seats != len(seats):
            return _err(f"{args.resume} is a game for {len(seats)} seats, not {args.seats}")
        spec_ref = _spec_ref(args.spec or str(rec.get("spec")), game, record_path)
        start = list(rep.deals[0].scores_before)
        finished = rep.deals if rep.complete else rep.deals[:-1]
        done = [deal_record(d, seats) for d in finished]
        current = None if rep.complete else rep.deals[-1]
    else:
        if not args.spec:
            return _err("name a spec to play (a name from specs/ or a path), or --resume FILE")
        game = load(args.spec)
        n = args.seats if args.seats is not None else (game.default_seats or game.seat_counts[0])
        if n not in game.seat_counts:
            return _err(f"{game.name} is played by {' or '.join(map(str, game.seat_counts))} seats, not {n}")
        seats = list(NAMES[:n])
        match = Match(game, n, _rng(seed, "dealer").randrange(n))
        spec_ref = _spec_ref(args.spec, game, record_path)
        start = list(match.scores)
        done, current = [], None
    want = args.seat if args.seat is not None else seats[0]
    human = next((i for i, n in enumerate(seats) if n.lower() == str(want).lower()), None)
    if human is None:
        return _err(f"there is no seat `{want}`: the seats are {', '.join(seats)}")
    if record_path:
        problem = output_problem(record_path, spec_files(game))
        if problem:
            return _err(problem)
    agents = None
    if getattr(args, "agents", None) is not None or any(
            getattr(args, k, None) is not None for k in ("samples", "nodes", "time")):
        from .cli import _agents_of
        agents, problem = _agents_of(args, len(seats), human, seats)
        if problem:
            return _err(problem)
    s = Session(game, seats, human, match, spec_ref, record_path, seed, io, start, done,
                deals_limit=args.deals or 0)
    s.deal = current
    s.agents = agents
    io.say(f"{game.title} — {len(seats)} seats ({', '.join(seats)}); you play {seats[human]}. "
           f"Seed {seed}.")
    if agents is not None:
        from .cli import _players_line
        io.say("The other seats: " + _players_line(agents, seats) + ".")
    if args.resume:
        io.say(f"Resuming {args.resume}: {match.deals_played} deal{'s' if match.deals_played != 1 else ''} "
               f"played" + (", one in progress." if current is not None else "."))
    if record_path:
        outside = spec_ref.startswith("..")
        io.say(f"Recording to {record_path} after every action."
               + (f" (The record names its spec `{spec_ref}`, outside the record's folder: resume it with "
                  f"`talon play {args.spec or spec_ref} --resume {record_path}`.)" if outside else ""))
    else:
        io.say("Not recording (use --record FILE to keep the game and resume it later).")
    io.say("Type a choice's number, or the action as in hand records (`pass`, `bid 70`, `play` and a card,"
           " or a card alone); `?` for help, `quit` to leave.")
    if match.game_over:
        io.say("The game in this record is already over.")
        io.say("Final scores: " + s.scores_line(match.scores))
        io.say("Winners: " + ", ".join(seats[w] for w in match.winners))
        return EXIT_OK
    try:
        s.save()
        return s.run()
    except _Leave as e:
        return s.leave(e.why)
    except KeyboardInterrupt:
        return s.leave("interrupted")
    except OutputError as e:
        return _err(str(e))
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            return EXIT_OK
        return _err(f"cannot write {record_path}: {e.strerror or e}")
