"""The environment a compiled formula is evaluated in, beside the deal state."""


class Env:
    """What a formula is asked about: a seat (each defender, any seat …), a suit
    (a meld's), a value (a bid being judged)."""
    __slots__ = ("seat", "suit", "value")

    def __init__(self, seat=-1, suit=-1, value=None):
        self.seat = seat
        self.suit = suit
        self.value = value


EMPTY = Env()
