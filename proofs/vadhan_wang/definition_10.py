"""Vadhan-Wang Definition 10 (RR_(eps, delta), [18]) and the remarks after it.

Printed: RR_(eps,delta): {0,1} -> {0, 1, 'Iam0', 'Iam1'} with Pr[RR(0) = 'Iam0'] = delta, Pr[RR(1) = 'Iam0'] = 0,
Pr[RR(0) = 0] = (1-delta) e^eps/(1+e^eps), Pr[RR(1) = 0] = (1-delta)/(1+e^eps), Pr[RR(0) = 1] = (1-delta)/(1+e^eps),
Pr[RR(1) = 1] = (1-delta) e^eps/(1+e^eps), Pr[RR(0) = 'Iam1'] = 0, Pr[RR(1) = 'Iam1'] = delta.
"Note that RR_(eps,delta) is a noninteractive (eps, delta)-DP mechanism."

Checked exactly (e^eps rational, delta in [0, 1)): both rows are distributions; RR is (eps, delta)-DP
and tight in both parameters: its least delta at e^eps is delta, and its least e^eps at delta is e^eps
(for delta < 1 and e^eps > 1). Remark "RR is a generalization of the classic randomized response to
delta > 0 and eps != ln 2 [25]": the randomized response usually called classic (Dwork-Roth [10],
Section 3.2: answer truthfully on heads, else report a second fair coin) answers truthfully w.p. 3/4,
i.e. it is RR_(ln 3, 0); RR_(ln 2, 0) answers truthfully w.p. 2/3. Warner's [25] design has a free
parameter, so "ln 2" is at best unexplained; a side remark no statement uses (recorded, not an erratum).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _dp as D


@statement(
    "Definition 10",
    "RR_(eps,delta): Pr[RR(b) = 'Iam b'] = delta, Pr[RR(b) = b] = (1-delta) e^eps/(1+e^eps), Pr[RR(b) = 1-b] = "
    "(1-delta)/(1+e^eps), Pr[RR(b) = 'Iam (1-b)'] = 0; RR_(eps,delta) is a noninteractive (eps, delta)-DP mechanism.",
    library=("exactdp.interactive.randomized_response",),
)
def definition(p: Proof) -> None:
    from exactdp.interactive import randomized_response

    n = n_lib = 0
    ws = D.W_CHOICES + [F(p.rng.randint(101, 1000), 100) for _ in range(10)] + [F(10 ** 6)]
    ds = [F(0), F(1, 100), F(1, 3), F(1, 2), F(99, 100), F(1, 10 ** 9)]
    for w in ws:
        for d in ds:
            P0, P1 = D.rr(w, d)
            n += 1
            ok = (sum(P0.values()) == 1 and sum(P1.values()) == 1 and all(v >= 0 for v in P0.values())
                  and D.dp_delta(P0, P1, w) == d and D.hockey_all_events(P0, P1, w) == d)
            if w > 1:
                ok = ok and D.hockey_least_t(P0, P1, d) == w and D.dp_delta(P0, P1, w * F(999, 1000)) > d
            if not p.require(ok, "RR_(eps,delta) is (eps, delta)-DP, tight in eps and delta", f"e^eps={w} delta={d}"):
                return
            r = p.library("exactdp randomized_response", randomized_response, w, d)
            want = {str(a): (P0[a], P1[a]) for a in P0 if P0[a] or P1[a]}   # the library omits the 'I am' answers at 0
            p.agree(FAILED if r is FAILED else {a: tuple(b.probs) for a, b in r.root.answers("*") if any(b.probs)},
                    want, "exactdp interactive.randomized_response", f"e^eps={w} delta={d}")
            n_lib += 1
    crosschecked(p, "exactdp.interactive.randomized_response(e^eps, delta) has the printed table's probabilities "
                 "(answers of probability 0 under both inputs aside)", n_lib)
    classic = {0: F(1, 2) + F(1, 2) * F(1, 2), 1: F(1, 2) * F(1, 2)}  # truthful on heads, else a fair coin
    n += 1
    if not p.require(D.max_ratio(classic, {0: classic[1], 1: classic[0]}) == 3, "classic randomized response is RR_ln3",
                     f"{classic}"):
        return
    p.instances("RR_(eps,delta) from the printed table: distributions, least delta at e^eps = delta, least e^eps at "
                "delta = e^eps (e^eps up to 10^6, delta from 0 to 0.99); two-coin randomized response has e^eps = 3", n)
    p.note("Remark 'generalization of the classic randomized response to delta > 0 and eps != ln 2': the two-coin "
           "randomized response of Dwork-Roth is RR_(ln 3, 0) (truthful w.p. 3/4); ln 2 means truthful w.p. 2/3. Side "
           "remark, likely a slip for ln 3; no statement depends on it.")
