"""The phases a spec may choose, by the name of the section that describes each."""
from .auction import Auction
from .play import Play
from .steps import Passing, Steps

PHASES = {"auction": Auction, "contract": Steps, "exchange": Passing, "play": Play}
