"""Vadhan-Wang Definition 5 (randomized response RR_eps) and the remark after it.

Printed: for eps > 0, RR_eps: {0,1} -> {0,1}, RR_eps(b) = b w.p. e^eps/(1+e^eps), not b w.p. 1/(1+e^eps);
"Note that RR_eps is a noninteractive (eps, 0)-DP mechanism."

Checked exactly (e^eps rational): each RR_eps(b) is a distribution; RR_eps is (eps, 0)-DP and for
no smaller eps (the likelihood ratio is exactly e^eps), and it coincides with Definition 10's
RR_(eps, 0) (whose 'Iam' outputs then have probability 0).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _dp as D


@statement(
    "Definition 5",
    "For eps > 0, RR_eps(b) = b w.p. e^eps/(1+e^eps) and not b w.p. 1/(1+e^eps); RR_eps is a noninteractive "
    "(eps, 0)-DP mechanism.",
    library=("exactdp.interactive.randomized_response",),
)
def definition(p: Proof) -> None:
    from exactdp.interactive import randomized_response

    n = 0
    ws = D.W_CHOICES[1:] + [F(p.rng.randint(101, 2000), 100) for _ in range(20)] + [F(10 ** 6), F(1000001, 10 ** 6)]
    for w in ws:
        P0, P1 = D.rr_eps(w)
        R0, R1 = D.rr(w, 0)
        n += 1
        ok = (sum(P0.values()) == sum(P1.values()) == 1 and D.max_ratio(P0, P1) == w
              and D.dp_delta(P0, P1, w) == 0 and D.dp_delta(P0, P1, w - F(1, 10 ** 9)) > 0
              and D.hockey_least_t(P0, P1, F(0)) == w
              and {k: v for k, v in R0.items() if v} == P0 and {k: v for k, v in R1.items() if v} == P1)
        if not p.require(ok, "RR_eps is (eps, 0)-DP, for no smaller eps, = RR_(eps, 0)", f"e^eps={w}"):
            return
        r = p.library("exactdp randomized_response", randomized_response, w)
        p.agree(FAILED if r is FAILED else {a: tuple(b.probs) for a, b in r.root.answers("*")},
                {str(a): (P0[a], P1[a]) for a in P0}, "exactdp interactive.randomized_response", f"e^eps={w}")
    p.instances("RR_eps: distributions, (eps, 0)-DP exactly (least e^eps' = e^eps), equal to Definition 10 at delta = 0; "
                "e^eps from 1.25 to 10^6 and 1 + 10^-6", n)
    crosschecked(p, "exactdp.interactive.randomized_response(e^eps) answers 0 / 1 with exactly RR_eps's probabilities", n)
