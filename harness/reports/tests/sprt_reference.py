"""An independent implementation of the pentanomial LLR (fishtest's definition), used to
produce the reference values in harness/reports/src/sprt.rs. Run: python3 sprt_reference.py"""
import math

X = [0.0, 0.25, 0.5, 0.75, 1.0]


def score(elo):
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def mle(p, s):
    # Safeguarded Newton on the Lagrange multiplier: Newton steps, falling back to bisection
    # whenever a step leaves the bracket where every 1 + lam (x - s) stays positive.
    lo, hi = -1.0 / (1.0 - s), 1.0 / s
    lam = 0.0
    for _ in range(500):
        f = sum(pi * (x - s) / (1 + lam * (x - s)) for pi, x in zip(p, X))
        if f > 0:
            lo = lam
        else:
            hi = lam
        df = -sum(pi * (x - s) ** 2 / (1 + lam * (x - s)) ** 2 for pi, x in zip(p, X))
        nxt = lam - f / df
        if not lo < nxt < hi:
            nxt = 0.5 * (lo + hi)
        if abs(nxt - lam) < 1e-16:
            break
        lam = nxt
    return [pi / (1 + lam * (x - s)) for pi, x in zip(p, X)]


def llr(counts, elo0, elo1):
    pairs = sum(counts)  # the number of pairs; the regularization only avoids zero probabilities
    counts = [c if c else 1e-3 for c in counts]
    p = [c / sum(counts) for c in counts]
    q0, q1 = mle(p, score(elo0)), mle(p, score(elo1))
    return pairs * sum(pi * math.log(b / a) for pi, a, b in zip(p, q0, q1))


for counts in ([10, 40, 100, 45, 15], [30, 50, 80, 30, 10], [0, 3, 20, 60, 17]):
    print(counts, repr(llr(counts, 0.0, 10.0)))
