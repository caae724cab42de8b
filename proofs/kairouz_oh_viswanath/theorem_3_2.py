"""Kairouz-Oh-Viswanath Theorem 3.2 (advanced composition, [DRV10]).

Not in our copy: the statement was lost entirely in conversion (the text cites
"Theorems 3.1, 3.2 and 3.3", "the existing Theorem 3.2" and "[DRV10]"); transcribed as
the [DRV10] theorem the paper restates: for any eps > 0, delta in [0,1] and
delta' in (0,1], the class of (eps,delta)-DP mechanisms satisfies
(k eps (e^eps - 1) + eps sqrt(2k log(1/delta')), k delta + delta')-DP under k-fold
adaptive composition.

Checked (certified, Arb): against the exact worst case of Theorem 3.3, over
k in 1..300 (--full 3000), eps from 1/1000 to 5, delta' from 1 down to 1e-50: the
worst-case hockey-stick h(eps') <= delta' (then 1 - (1-delta)^k (1-h) <= k delta + delta').
Library cross-check: exactdp's advanced_bound encloses the same eps' (its enclosure meets
the independent one), for delta' < 1 (the library's hypothesis).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked, meets_ball
from .._framework import Proof, statement
from . import _bounds as B
from ._arb import A, at_prec


@statement(
    "Theorem 3.2",
    "[DRV10] (lost in conversion; transcribed): (eps,delta)-DP mechanisms are (k eps(e^eps-1) + eps sqrt(2k "
    "log(1/delta')), k delta + delta')-DP under k-fold adaptive composition, for every delta' in (0,1].",
    library=("exactdp.bounds.advanced_bound",),
)
def theorem(p: Proof) -> None:
    from exactdp import Mechanism
    from exactdp.bounds import advanced_bound

    n_lib = 0
    ks = [1, 2, 3, 5, 10, 30, 100, 300] + ([1000, 3000] if p.full else [])
    epss = [F(1, 1000), F(1, 100), F(1, 10), F(1, 2), F(1), F(5)]
    dps = [F(1), F(1, 2), F(1, 10), F(1, 10 ** 3), F(1, 10 ** 6), F(1, 10 ** 15), F(1, 10 ** 50)]
    t = B.Tally(p)
    for k in ks:
        for eps in epss:
            for dp in dps:
                if k * eps > 200 and dp < F(1, 10 ** 6) and not p.full:
                    continue
                ok, prec, text = B.check_rr(lambda: [(A(eps), k)], lambda: B.drv_eps(k, eps, dp), dp)
                if not t.take(ok, "worst-case hockey-stick at e^{eps'} <= delta'",
                              f"k={k} eps={eps} delta'={B.dec(dp)}: {text}"):
                    return
                if dp < 1 and (p.full or (k in (1, 10, 300) and eps in (F(1, 1000), F(1, 10), F(5)))):
                    for d in (F(0), F(1, 10 ** 4)):
                        if k * d + dp >= 1:
                            continue
                        inst = f"k={k} eps={eps} delta={d} delta'={B.dec(dp)}"
                        b = p.library("exactdp advanced_bound", advanced_bound, [Mechanism(eps=eps, delta=d)] * k,
                                      k * d + dp)
                        if b is FAILED:
                            continue
                        n_lib += 1
                        if not b.applies:
                            p.issue(f"exactdp advanced_bound does not apply on {inst}: {b.reason}")
                        else:
                            meets_ball(p, b.value, at_prec(256, B.drv_eps, k, eps, dp), "exactdp advanced_bound", inst)
    t.report("worst-case (Theorem 3.3) hockey-stick at e^{k eps(e^eps-1) + eps sqrt(2k log(1/delta'))} "
             f"<= delta', k in {ks}, eps in {{1/1000 .. 5}}, delta' in {{1 .. 1e-50}}")
    crosschecked(p, "exactdp advanced_bound at delta_g = k delta + delta' (delta' < 1; delta in {0, 1e-4}) encloses the "
                 "printed eps' (its enclosure meets an independent 256-bit one)", n_lib)
    p.note("The union bound 1 - (1-delta)^k (1-h) <= k delta + h turns this into the printed (eps', k delta + delta'). "
           "The statement is not in our copy; the entry checks the [DRV10] theorem as the paper cites it.")
