"""Kairouz-Oh-Viswanath Equation (24): the randomized response of Section 5.

Printed (display lost; the text calls it "the simple randomized response presented in
(24)" and says that "the randomized response still dominates any other
(eps,delta)-differentially private mechanisms"): transcribed as party i broadcasting
Y_i with P(Y_i = . | x_i = 0) = (delta_i, (1-delta_i) e^{eps_i}/(1+e^{eps_i}),
(1-delta_i)/(1+e^{eps_i}), 0) and the mirror image for x_i = 1 (the mechanism of
Section 6.1 with the bit as the hypothesis), independently across parties.

Checked exactly: it is a protocol that is (eps_i, delta_i)-DP for party i and for no
smaller delta_i (every x_{-i}), k <= 2.
"""

from __future__ import annotations

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _common as C
from . import _mpc as M


@statement(
    "Equation (24)",
    "Randomized response: party i broadcasts Y_i ~ (delta_i, (1-delta_i)e^eps_i/(1+e^eps_i), (1-delta_i)/(1+e^eps_i), 0) "
    "given x_i = 0, the mirror image given x_i = 1 (display lost; transcribed).",
    library=("exactdp.regions.randomized_response",),
)
def equation(p: Proof) -> None:
    from exactdp.regions import randomized_response

    n = n_lib = 0
    for k in (1, 2):
        for _ in range(10 if p.full else 4):
            ws = [C.rand_w(p.rng) for _ in range(k)]
            ds = [C.rand_delta(p.rng) for _ in range(k)]
            tr = M.rr_trans(ws, ds)
            ok = all(sum(P.values()) == 1 and all(v >= 0 for v in P.values()) for P in tr.values())
            for i in range(k):
                ok = ok and M.is_private(tr, i, ws[i], ds[i]) and M.least_delta(tr, i, ws[i]) == ds[i]
                r = p.library("exactdp randomized_response", randomized_response, exp_eps=ws[i], delta=ds[i])
                p.agree(FAILED if r is FAILED else (list(r[0]), list(r[1])), C.kov(ws[i], ds[i]),
                        "exactdp regions.randomized_response", f"e^eps={ws[i]} delta={ds[i]}")
                n_lib += 1
            n += 1
            if not p.require(ok, "(eps_i, delta_i)-DP for party i, tight", f"e^eps={ws} delta={ds}"):
                return
    p.instances("the randomized response is a protocol, (eps_i, delta_i)-DP for each party (every set of transcripts "
                "for k = 1, the equivalent hockey-stick form for k = 2) and for no smaller delta_i", n, "exhaustive")
    crosschecked(p, "exactdp.regions.randomized_response(e^eps_i, delta_i) is the display's pair of rows", n_lib)
