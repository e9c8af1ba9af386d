"""Are the dice of the commit-answer-reveal exchange (docs/dice.md) uniform? A chi-square test per die size.

    .venv/bin/python benchmarks/dice_uniformity.py [--dice 200000] [--sides 2,6,10,20,100] [--runs 5] [--seed N]

Each run draws ``--dice`` dice of every size from fresh random secrets and answers (``--seed`` makes them
repeatable), counts the faces and runs scipy's chi-square goodness-of-fit test against equal counts. Fair dice
give p-values spread evenly over 0..1: about 1 run in 100 below 0.01 by chance, never all of them tiny. A die
drawn with modulo bias (``w % n`` without rejecting the top of the range) is run beside as a check that the test
can see a bias: for 32-bit words its bias is too small to show in any affordable sample, so the biased control
draws from one *byte* per die (``b % n``), whose bias a d10 or a d100 shows within a few hundred thousand dice.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import random
import time

from scipy.stats import chisquare

from pbem.model import fairdice


def fair_counts(sides: int, dice: int, rng: random.Random) -> list[int]:
    """Face counts of ``dice`` dice of ``sides`` sides drawn by pbem, 100 dice a request."""
    counts = [0] * sides
    per_request = min(fairdice.MAX_DICE, 100)
    seq = 0
    while dice > 0:
        n = min(per_request, dice)
        request = fairdice.Request("bench", seq, 1, "combat", "a", ({"for": "bench", "dice": f"{n}d{sides}"},))
        secret, answer = rng.randbytes(32), rng.randbytes(32)
        for face in fairdice.draw(request, secret, answer):
            counts[face - 1] += 1
        dice -= n
        seq += 1
    return counts


def biased_counts(sides: int, dice: int, rng: random.Random) -> list[int]:
    """The control: one HMAC byte per die taken modulo ``sides`` (no rejection), which favours the low faces."""
    counts = [0] * sides
    key = rng.randbytes(64)
    i = 0
    while dice > 0:
        block = hmac.new(key, i.to_bytes(8, "big"), hashlib.sha256).digest()
        for byte in block[: min(32, dice)]:
            counts[byte % sides] += 1
        dice -= min(32, dice)
        i += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dice", type=int, default=200_000, help="dice per size and run")
    parser.add_argument("--sides", default="2,6,10,20,100")
    parser.add_argument("--runs", type=int, default=5, help="runs per size (the spread of p-values)")
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'die':>5} {'runs':>4} {'dice/run':>9} {'fair p-values':<40} {'byte-modulo control p':>22} {'dice/s':>9}")
    for sides in (int(s) for s in args.sides.split(",")):
        ps = []
        started = time.perf_counter()
        for _ in range(args.runs):
            ps.append(chisquare(fair_counts(sides, args.dice, rng)).pvalue)
        rate = args.runs * args.dice / (time.perf_counter() - started)
        control = chisquare(biased_counts(sides, args.dice, rng)).pvalue
        shown = " ".join(f"{p:.3f}" for p in ps)
        print(f"d{sides:<4} {args.runs:>4} {args.dice:>9,} {shown:<40} {control:>22.3g} {rate:>9,.0f}")


if __name__ == "__main__":
    main()
