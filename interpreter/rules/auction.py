"""Rules of the `auction` section: who speaks first, what a bid is, conditions on bids,
passing, reopening, blind bidding, and what ends the auction."""
from __future__ import annotations

from ..errors import did_you_mean
from ..language.expr import BOOL, NUM, Scope
from .base import RuleKind, register

AUCTION = Scope("auction", seat=True)


@register
class Opener(RuleKind):
    kind, section, single = "opener", "auction", True
    template = "left of the dealer speaks first  (or: the dealer …)"

    @classmethod
    def args(cls, p, alias):
        return {"seat": p.strs[0]}

    @classmethod
    def compile(cls, it, b):
        b.g["opener"] = it.body.args["seat"]
        if it.body.args["seat"] == "declarer":
            b.out.error(it.body.loc, "there is no declarer before the auction ends")


class _Bids(RuleKind):
    section, single, phase = "auction", True, "auction"

    @classmethod
    def check_one(cls, it, b):
        if b.bid_rule_name:
            return False          # reported once, by the compiler
        b.bid_rule_name = it.name
        return True


@register
class NumericBids(_Bids):
    kind = "numeric_bids"
    template = "a bid is a number from FORMULA, above the highest bid  (may add: , in steps of N)"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0], "step": p.ints[-1] if p.ints else 1}

    @classmethod
    def compile(cls, it, b):
        if not cls.check_one(it, b):
            return
        b.g["auction_kind"] = "numeric"
        _, f = b.cc.compile(it.body.args["expr"], AUCTION, NUM)
        b.g["min_bid"] = f
        b.g["bid_step"] = max(1, it.body.args["step"])
        if it.body.args["step"] < 1:
            b.out.error(it.body.loc, "bids go up in steps of at least 1")
        if f is not None:
            b.check_number(f, it.body.args["expr"], "the lowest bid", 0, 100000)


@register
class LadderBids(_Bids):
    kind = "ladder_bids"
    template = "a bid is a contract from the ladder, above the highest bid"

    @classmethod
    def compile(cls, it, b):
        if not cls.check_one(it, b):
            return
        b.g["auction_kind"] = "ladder"
        if not b.ladder:
            b.out.error(it.loc, "bids come from the ladder, but the tables have no `ladder`")


@register
class ExactBids(_Bids):
    kind = "exact_bids"
    template = "each seat bids once: a number from FORMULA, at most FORMULA"

    @classmethod
    def args(cls, p, alias):
        return {"low": p.exprs[0], "high": p.exprs[1]}

    @classmethod
    def compile(cls, it, b):
        if not cls.check_one(it, b):
            return
        b.g["auction_kind"] = "exact"
        _, b.g["min_bid"] = b.cc.compile(it.body.args["low"], AUCTION, NUM)
        _, b.g["max_bid"] = b.cc.compile(it.body.args["high"], AUCTION, NUM)


@register
class BidCondition(RuleKind):
    kind, section = "bid_condition", "auction"
    template = "CONTRACT may be bid only when CONDITION"

    @classmethod
    def args(cls, p, alias):
        return {"contract": p.names[0], "expr": p.exprs[0], "name_locs": p.name_locs}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        idx = b.contract_index(a["contract"], a["name_locs"][0] if a["name_locs"] else it.body.loc)
        if idx is None:
            return
        _, f = b.cc.compile(a["expr"], AUCTION, BOOL)
        if f is None:
            return
        conds = b.g.setdefault("bid_conditions", {})
        if idx in conds:
            prev = conds[idx]
            conds[idx] = (lambda p, q: lambda st, env: p(st, env) and q(st, env))(prev, f)
        else:
            conds[idx] = f
        b.check_never_biddable(it)


@register
class BidRule(RuleKind):
    kind, section = "bid_rule", "auction"
    template = "a bid may be made only when CONDITION  (`this bid` is the bid in question)"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0]}

    @classmethod
    def compile(cls, it, b):
        _, f = b.cc.compile(it.body.args["expr"], Scope("auction", seat=True, bid=True), BOOL)
        if f is not None:
            b.g["bid_rules"] = b.g.get("bid_rules", ()) + ((it.name, f),)


@register
class OpenerBids(RuleKind):
    kind, section, single = "opener_bids", "auction", True
    template = "the opener may not pass at its first turn"

    @classmethod
    def compile(cls, it, b):
        b.g["opener_must_bid"] = True


@register
class PassFinal(RuleKind):
    kind, section, single = "pass_final", "auction", True
    template = "a seat that has passed does not speak again"

    @classmethod
    def compile(cls, it, b):
        b.g["pass_final"] = True


@register
class Reopen(RuleKind):
    kind, section, single = "reopen", "auction", True
    template = "a seat that has passed may bid CONTRACT when CONDITION"

    @classmethod
    def args(cls, p, alias):
        return {"contracts": tuple(p.names), "expr": p.exprs[0], "name_locs": p.name_locs}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        idxs = [b.contract_index(n, loc) for n, loc in zip(a["contracts"], a["name_locs"])]
        _, f = b.cc.compile(a["expr"], AUCTION, BOOL)
        if f and None not in idxs:
            b.g["reopen"] = (frozenset(idxs), f)


@register
class Unpartnered(RuleKind):
    kind, section, single = "unpartnered", "auction", True
    template = "when a partnership contract has no partner, its bidder may raise it, else the deal is annulled"

    @classmethod
    def compile(cls, it, b):
        b.g["unpartnered"] = True


@register
class AllPass(RuleKind):
    kind, section, single = "all_pass", "auction", True
    template = "when every seat passes without a bid, the deal is annulled  (may end: and the same dealer deals again)"

    @classmethod
    def args(cls, p, alias):
        return {"same_dealer": bool(p.tok("SAME_DEALER"))}

    @classmethod
    def compile(cls, it, b):
        b.g["all_pass_same_dealer"] = it.body.args["same_dealer"]


@register
class BlindBidding(RuleKind):
    kind, section, single = "blind_bidding", "auction", True
    template = "a seat may bid blind until it looks at its cards"

    @classmethod
    def compile(cls, it, b):
        b.g["blind"] = True
