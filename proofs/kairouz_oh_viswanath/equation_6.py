"""Kairouz-Oh-Viswanath Equation (6): delta_i of Theorem 3.3.

Printed (display lost; transcribed from ../shared/papers/README.md):
delta_i = sum_{l=0}^{i-1} C(k,l) (e^{(k-l)eps} - e^{(k-2i+l)eps}) / (1+e^eps)^k.

Checked: delta_i equals the hockey-stick sum_y max(P0(y) - e^{(k-2i)eps} P1(y), 0) of the
k-fold binary randomized response computed by brute force over all 2^k outputs
(exactly, rational e^eps, k <= 10), symbolically in w = e^eps > 1 for k <= 6 (the sign
of each term decided by its exponent), and 1 - (1-delta)^k (1-delta_i) equals the
hockey-stick of the k-fold Section 6.1 mechanism (all 4^k outputs, k <= 5).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import sympy as sp

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _common as C


def brute_rr(k, w, t):
    P0, P1 = C.product([C.binary_rr(w)] * k)
    return C.hockey(P0, P1, t)


@statement(
    "Equation (6)",
    "delta_i = sum_{l=0}^{i-1} C(k,l)(e^{(k-l)eps} - e^{(k-2i+l)eps})/(1+e^eps)^k (display lost; transcribed).",
    library=("exactdp.regions.theorem33_guarantees",),
)
def equation(p: Proof) -> None:
    from exactdp.regions import theorem33_guarantees

    n = 0
    for k in range(1, 11 if p.full else 8):
        for w in (F(1), F(11, 10), F(3, 2), F(2), F(7, 2)):
            for i in range(k // 2 + 1):
                n += 1
                if not p.require(C.delta_i_printed(k, w, i) == brute_rr(k, w, w ** (k - 2 * i)),
                                 "delta_i = hockey-stick of k-fold randomized response at e^{(k-2i)eps}",
                                 f"k={k} e^eps={w} i={i}"):
                    return
    p.instances("delta_i = brute-force hockey-stick over all 2^k outputs of the k-fold randomized response", n,
                "exhaustive")
    wsym = sp.symbols("w", positive=True)
    n_sym = 0
    for k in range(1, 7):
        for i in range(k // 2 + 1):
            total = 0
            for y in itertools.product((0, 1), repeat=k):
                l = sum(y)  # flips: P0 ~ w^(k-l), P1 ~ w^l (common denominator (1+w)^k)
                if (k - l) > (k - 2 * i) + l:  # for w > 1 the sign of w^a - w^b is the sign of a - b
                    total += wsym ** (k - l) - wsym ** (k - 2 * i + l)
            printed = sum(sp.binomial(k, l) * (wsym ** (k - l) - wsym ** (k - 2 * i + l)) for l in range(i))
            n_sym += 1
            if sp.expand(total - printed) != 0:
                p.symbolic("delta_i as a polynomial identity in w", False, f"k={k} i={i}")
                return
    p.symbolic(f"delta_i = brute-force hockey-stick as an identity of polynomials in w = e^eps > 1 (numerators over "
               f"(1+w)^k; each term's sign decided by its exponent), every k <= 6 and i ({n_sym} identities)", True)
    m = 0
    for k in range(1, 6 if p.full else 5):
        for w in (F(3, 2), F(3)):
            for d in (F(0), F(1, 7), F(1, 2)):
                V0, V1 = C.product([C.kov(w, d)] * k)
                for i in range(k // 2 + 1):
                    m += 1
                    lhs = 1 - (1 - d) ** k * (1 - C.delta_i_printed(k, w, i))
                    if not p.require(lhs == C.hockey(V0, V1, w ** (k - 2 * i)),
                                     "1-(1-delta)^k(1-delta_i) = hockey-stick of the k-fold Section 6.1 mechanism",
                                     f"k={k} e^eps={w} delta={d} i={i}"):
                        return
    p.instances("1 - (1-delta)^k (1-delta_i) = hockey-stick of the k-fold Section 6.1 mechanism (4^k outputs)", m)
    n_lib = 0
    for k in range(1, 11 if p.full else 8):
        for w in (F(1), F(11, 10), F(3, 2), F(2), F(7, 2)):
            g = p.library("exactdp theorem33_guarantees", theorem33_guarantees, exp_eps=w, delta=F(0), k=k)
            p.agree(g, [(i, w ** (k - 2 * i), C.delta_i_printed(k, w, i)) for i in range(k // 2 + 1)],
                    "exactdp theorem33_guarantees (delta = 0: delta'_i = delta_i)", f"k={k} e^eps={w}")
            n_lib += 1
    crosschecked(p, "exactdp theorem33_guarantees at delta = 0 lists (i, e^{(k-2i) eps}, delta_i) with delta_i as printed",
                 n_lib)
