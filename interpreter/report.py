"""Text for people: aligned tables and the summary of one deal, shared by replay, play
and simulate."""
from __future__ import annotations


def table(headers, rows) -> str:
    """Columns aligned; the first left-aligned, the others right-aligned."""
    cols = list(zip(*([headers] + rows))) if rows else [[h] for h in headers]
    widths = [max(len(str(x)) for x in c) for c in cols]

    def fmt(r):
        return "  ".join(str(x).rjust(w) if i else str(x).ljust(w) for i, (x, w) in enumerate(zip(r, widths)))
    return "\n".join([fmt(headers), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows])


def deal_headline(d: dict) -> str:
    """`A 100, trumps spades, won blind (doubled) — failed` for a deal summary
    (``records.deal_summary``); `trumps hearts — played` where no auction makes a
    declarer, `played` where there are no trumps either."""
    if d["result"] == "annulled":
        if d.get("unpartnered"):
            return f"annulled ({d['unpartnered']} found no partner)"
        return "annulled (every seat passed)"
    head = ""
    if "declarer" in d:
        head = f"{' and '.join(d['declarers'])} {d['contract']}"
        if d.get("trumps"):
            head += f", trumps {d['trumps']}"
        if d.get("blind"):
            head += ", won blind (doubled)"
    elif d.get("trumps") not in (None, "none"):    # no declarer: the turned card's suit
        head = f"trumps {d['trumps']}"
    return f"{head} — {d['result']}" if head else d["result"]


def deal_table(d: dict, seats: list, by_points: bool, label=None) -> str:
    """Tricks (and card points, melds, deal points where the game counts them), the
    change and the score of every seat, in seating order; a seat sitting out shows `-`."""
    label = label or (lambda n: n)
    rows = []
    for n in seats:
        if n not in d.get("tricks", {}):
            rows.append([label(n), "-"] + (["-", "-", "-"] if by_points else [])
                        + [f"{d['deltas'][n]:+d}", d["scores"][n]])
            continue
        row = [label(n), d["tricks"][n]]
        if by_points:
            melds = sum(m["worth"] for m in d["melds"] if m["seat"] == n and m["counts"])
            row += [d["card_points"][n], melds, d["points"][n]]
        rows.append(row + [f"{d['deltas'][n]:+d}", d["scores"][n]])
    heads = ["seat", "tricks"] + (["card points", "melds", "deal points"] if by_points else [])
    return table(heads + ["change", "score"], rows)


def counts_points(game) -> bool:
    return any(game.card_points) or bool(game.melds)
