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
from .engine import AUCTION, CONTRACT, DONE, PLAY, Match
from .errors import RecordError
from .records import (OutputError, deal_record, deal_summary, dump_yaml, explain, number_problem, output_problem,
                      printable, read_record_file, record_spec_ref, replay_record, spec_files, write_atomic)

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130
NAMES = "ABCDEFGH"
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
VERBS = ("pass", "bid", "look", "abandon", "trumps", "contract", "give", "play", "concede")
RANGE_MIN = 6          # this many consecutive numbers or more are shown as one range
WIDTH = 78


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
    (`bid 66 (or more)`): its number picks the lowest, a typed number any other."""

    def __init__(self, label: str, action=None, verb=None, suffix="", lo=0, hi=0, open_ended=False):
        self.label, self.action = label, action
        self.verb, self.suffix, self.lo, self.hi, self.open_ended = verb, suffix, lo, hi, open_ended

    @property
    def is_range(self) -> bool:
        return self.action is None


_NUMERIC = re.compile(r"^(\S+) (\d+)((?: \S+)*)$")


def build_menu(deal, seat: int, actions: list, seats: list) -> list:
    """The legal actions as menu choices, long runs of numbers folded into one."""
    texts = [(a, deal.action_to_string(a, seat, seats).split(" ", 1)[1]) for a in actions]
    runs: dict = {}
    for a, t in texts:
        m = _NUMERIC.match(t)
        if m:
            runs.setdefault((m.group(1), m.group(3)), []).append(int(m.group(2)))
    folded = {k for k, v in runs.items()
              if len(v) >= RANGE_MIN and sorted(v) == list(range(min(v), max(v) + 1))}
    menu, seen = [], set()
    for a, t in texts:
        m = _NUMERIC.match(t)
        key = (m.group(1), m.group(3)) if m else None
        if key in folded:
            if key in seen:
                continue
            seen.add(key)
            verb, suffix = key
            lo, hi = min(runs[key]), max(runs[key])
            probe = _parse(deal, [verb, str(hi + 1)] + suffix.split(), seats)
            open_ended = probe is not None and deal.is_legal(probe, seat)
            label = f"{verb} {lo}{suffix} (or more)" if open_ended else f"{verb} {lo}{suffix} (up to {hi})"
            menu.append(Choice(label, None, verb, suffix, lo, hi, open_ended))
        else:
            menu.append(Choice(t, a))
    return menu


def _parse(deal, words, seats):
    try:
        return deal.parse_action(words, {n: i for i, n in enumerate(seats)})
    except ValueError:
        return None


def render_menu(menu: list) -> list:
    """Numbered choices, several to a line."""
    items = [f"{i}) {c.label}" for i, c in enumerate(menu, 1)]
    lines, cur = [], ""
    for it in items:
        if cur and len(cur) + 3 + len(it) > WIDTH - 2:
            lines.append("  " + cur)
            cur = it
        else:
            cur = f"{cur}   {it}" if cur else it
    if cur:
        lines.append("  " + cur)
    if any(c.is_range for c in menu):
        ex = next(c for c in menu if c.is_range)
        v = ex.lo + 4 if ex.open_ended or ex.lo + 4 <= ex.hi else ex.lo
        lines.append(f"  (for a higher {ex.verb}, type the number: `{v}`"
                     + "".join(f", `{v}{c.suffix}`" for c in menu if c.is_range and c.suffix) + ")")
    return lines


# ------------------------------------------------------------------ the session
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

    # -------------------------------------------------------------- the record
    def _add_done(self, rec: dict):
        self.done_records.append(rec)
        self.done_texts.append(dump_yaml({"deals": [rec]})[len("deals:\n"):])

    def header(self) -> dict:
        return {"spec": self.spec_ref, "seats": list(self.seats),
                "scores": {n: s for n, s in zip(self.seats, self.start_scores)}}

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

    # -------------------------------------------------------------- showing things
    def nm(self, s: int) -> str:
        return self.seats[s]

    def who(self, s: int) -> str:
        return "you" if s == self.human else self.seats[s]

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

    def public_text(self, deal, s: int, a: int) -> str:
        """An action as the person's seat sees it: cards given face down are shown
        only to the giver and the receiver."""
        g = self.g
        text = deal.action_to_string(a, s, self.seats)
        kind = g.codec.kind(a)
        if kind == "give":
            f = g.codec.fields(a)
            d, c = f["seat"], f["card"]
            if self.human == d:
                return f"{self.nm(s)} gives you {g.card_names[c]} face down"
            if self.human != s:
                return f"{self.nm(s)} gives {self.nm(d)} a card face down"
        if kind == "look":
            return f"{self.nm(s)} looks at their cards"
        return text

    def status(self, deal):
        """What the person's seat may see now, before they choose."""
        ob = deal.observation(self.human, self.seats)
        say = self.io.say
        say("")
        phase = {AUCTION: "auction", CONTRACT: "contract", PLAY: "play"}.get(deal.phase, deal.phase)
        title = f"Deal {deal.deal_number}, {phase}"
        if deal.phase == PLAY:
            title += f", trick {deal.tricks_done + 1}"
        say(f"── {title} — your turn ({self.nm(self.human)}) ──")
        if deal.phase == AUCTION:
            say("Auction: " + (", ".join(ob["auction"]) if ob["auction"] else "(you speak first)"))
        else:
            say(self.contract_text(ob))
        if ob["exposed"]:
            say(f"Face up: {ob['exposed']} (dealt to {ob['dealer']})")
        if ob["talon"] is not None and deal.phase == CONTRACT:
            say("Talon: " + " ".join(ob["talon"]))
        if deal.phase == PLAY:
            say("Tricks won: " + "  ".join(f"{n} {k}" for n, k in ob["tricks"].items()))
            if ob["melds"]:
                say("Announced: " + ", ".join(f"{m['seat']} {m['meld']} {'+'.join(m['cards'])}"
                                             for m in ob["melds"]))
            if ob["last_trick"] and not ob["trick"]:
                say("Last trick: " + self.trick_text(ob["last_trick"]))
            say("Trick: " + (self.trick_text(ob["trick"]) if ob["trick"] else "(you lead)"))
        if "declarer_hand" in ob:
            say(f"Open hand of {ob['declarer']}: " + self.hand_text(ob["declarer_hand"]))
        if ob["hand"] is None:
            say(f"Your hand: {ob['hand_size']} cards, face down (type `look` to see them)")
        else:
            say("Your hand: " + self.hand_text(ob["hand"]))
            if ob["received"]:
                say("  (given to you face down: " + " ".join(ob["received"]) + ")")

    def contract_text(self, ob) -> str:
        if ob["declarer"] is None:
            return ""
        who = " and ".join(ob["partners"]) if len(ob["partners"]) > 1 else ob["declarer"]
        text = f"Contract: {who} {ob['contract']}"
        if self.deal.declarer_blind:
            text += " (blind: doubled)"
        if ob["trumps"] is not None:
            text += f", trumps {ob['trumps']}"
        return text

    # -------------------------------------------------------------- choosing
    def choose(self, deal):
        """Ask the person for an action until a legal one is given."""
        self.status(deal)
        while True:
            menu = build_menu(deal, self.human, deal.legal_actions(self.human), self.seats)
            for line in render_menu(menu):
                self.io.say(line)
            while True:
                a = self.read_action(deal, menu, f"{self.nm(self.human)}> ")
                if a == "menu":
                    break
                if a is not None:
                    return a

    def read_action(self, deal, menu, prompt):
        """One line -> a legal action, None (ask again) or "menu" (show the menu again)."""
        try:
            line = self.io.ask(prompt).strip()
        except EOFError:
            raise _Leave("end of input")
        if not line:
            return None
        low = line.lower()
        if low in ("?", "h", "help"):
            self.io.say("Type a number from the list, or an action as in hand records "
                        "(e.g. `bid 70`, `pass`, `play KS`); `show` repeats the table, `quit` saves and leaves.")
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
        bad = next((p for p in map(number_problem, words) if p), None)
        if bad:
            self.io.say(bad)
            return "menu"
        if line.isdigit():
            n = int(line)
            if 1 <= n <= len(menu):
                c = menu[n - 1]
                if not c.is_range:
                    return c.action
                return self.check(deal, [c.verb, str(c.lo)] + c.suffix.split())
            plain = [c for c in ranges if not c.suffix] or ranges
            if not plain or n < plain[0].lo:
                self.io.say(f"there is no choice {n}: pick 1 to {len(menu)}"
                            + (f", or a {plain[0].verb} of {plain[0].lo} or more" if plain else ""))
                return "menu"
            words = [plain[0].verb, line]
        elif words[0].isdigit() and ranges:
            words = [ranges[0].verb] + words
        elif words[0].lower() not in VERBS:
            # Without the verb: `hearts` for `trumps hearts`, a contract's name for `bid NAME`.
            tails = [c for c in menu if not c.is_range and " " in c.label
                     and c.label.split(" ", 1)[1].lower() == " ".join(words).lower()]
            if len(tails) == 1:
                return tails[0].action
            for verb in dict.fromkeys(c.label.split(" ", 1)[0] for c in menu):
                if _parse(deal, [verb] + words, self.seats) is not None:
                    return self.check(deal, [verb] + words)
            try:
                self.g.parse_card(words[0])
                words = ["play"] + words
            except ValueError:
                pass
        if words[0].lower() == "give" and len(words) == 3:
            for n in self.seats:
                if words[2].lower() == n.lower():
                    words[2] = n
        return self.check(deal, words)

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
        tricks_before = len(deal.history_tricks)
        phase_before = deal.phase
        talon_before = deal.talon_shown
        open_before = deal.hand_shown
        deal.apply_action(a, s)
        self.save()
        self.narrate(deal, s, a, tricks_before, phase_before, talon_before, open_before)

    def narrate(self, deal, s, a, tricks_before, phase_before, talon_before, open_before):
        say = self.io.say
        say("  " + self.public_text(deal, s, a))
        if len(deal.history_tricks) > tricks_before:
            leader, trick, w = deal.history_tricks[-1]
            pairs = [(self.nm(t), self.g.card_names[c]) for t, c in trick]
            say(f"  Trick {len(deal.history_tricks)}: {self.trick_text(pairs)} — "
                f"{'you win' if w == self.human else self.nm(w) + ' wins'} it")
        ob = deal.observation(self.human, self.seats)
        if phase_before == AUCTION and deal.phase in (CONTRACT, PLAY):
            say(f"The auction is over. {self.contract_text(ob)}"
                + (" — you declare" if deal.declarer == self.human else ""))
        if deal.talon_shown and not talon_before and ob["talon"] is not None:
            say("The talon is turned face up: " + " ".join(ob["talon"]))
        if phase_before != PLAY and deal.phase == PLAY:
            say(f"The play begins. {self.contract_text(ob)}. {self.nm(deal.turn)} leads.")
        if deal.hand_shown and not open_before and "declarer_hand" in ob:
            say(f"{ob['declarer']} lays the hand open: " + self.hand_text(ob["declarer_hand"]))

    def start_deal(self, deal, resumed=False):
        say = self.io.say
        say("")
        say(f"═══ Deal {deal.deal_number} — dealer {self.nm(deal.dealer)} ═══")
        say("Scores: " + self.scores_line(deal.scores_before))
        if self.human not in deal.pos:
            say("You sit this deal out (you watch).")
        ob = deal.observation(self.human, self.seats)
        if ob["exposed"]:
            say(f"{ob['dealer']}'s last card is dealt face up: {ob['exposed']}")
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
            self.apply(deal, agent.act(deal), t)

    def show_result(self, deal):
        d = deal_summary(deal, self.seats, {n: deal.scores_before[i] for i, n in enumerate(self.seats)})
        say = self.io.say
        say("")
        from .report import counts_points, deal_headline, deal_table
        say(f"Deal {deal.deal_number} over: " + deal_headline(d)
            + ("; no score changes." if d["result"] == "annulled" else ""))
        if d["result"] != "annulled":
            you = self.seats[self.human] if self.human is not None else None
            table_text = deal_table(d, self.seats, counts_points(self.g),
                                    label=lambda n: n + (" (you)" if n == you else ""))
            for line in table_text.splitlines():
                say("  " + line)
        say("Scores: " + self.scores_line(deal.scores))

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
                    self.io.say("Scores: " + self.scores_line(m.scores))
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
            agent = RandomAgent(_rng(self.seed, deal.deal_number ^ (1 << 31)))
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
        self.io.say("Final scores: " + self.scores_line(m.scores))
        win = [self.nm(s) for s in m.winners]
        self.io.say(("Winners: " if len(win) > 1 else "Winner: ") + ", ".join(win)
                    + (" — you win!" if self.human in m.winners else ""))
        if self.record_path:
            self.io.say(f"The game is saved in {self.record_path}.")
        return EXIT_OK

    def leave(self, why: str) -> int:
        self.save()
        self.io.say("")
        text = {"end of input": "End of input", "quit": "Leaving", "interrupted": "Interrupted"}[why]
        if self.record_path:
            self.io.say(f"{text}: the game is saved in {self.record_path}; "
                        f"continue it with `talon play --resume {self.record_path}`.")
        else:
            self.io.say(f"{text}: leaving (the game was not recorded; use --record FILE to keep it).")
        return EXIT_INTERRUPTED if why == "interrupted" else EXIT_OK


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
        n = args.seats if args.seats is not None else game.seat_counts[0]
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
    s = Session(game, seats, human, match, spec_ref, record_path, seed, io, start, done,
                deals_limit=args.deals or 0)
    s.deal = current
    io.say(f"{game.title} — {len(seats)} seats ({', '.join(seats)}); you play {seats[human]}. "
           f"Seed {seed}.")
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
    io.say("Type a choice's number, or the action as in hand records (`pass`, `bid 70`, `play` and a card);"
           " `?` for help, `quit` to leave.")
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
