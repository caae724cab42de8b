"""Vadhan-Zhang Footnote 1: "we stated and used a chain rule for Renyi divergence that only holds for
order alpha = 1 (i.e. KL divergence)".

The earlier version's rule is not printed; we read it as the KL-form chain rule
D_alpha((X, Y) || (X', Y')) = D_alpha(X || X') + E_{x~X} D_alpha(Y|X=x || Y'|X'=x) (Equation (3) with
D_alpha for KL). Checked: it holds at alpha = 1 (Equation (3), symbolic) and fails at every alpha > 1:
with X = X' uniform on {0, 1}, Y|0 = Y'|0 and S = exp((alpha-1) D_alpha(Y|1 || Y'|1)) != 1,
(alpha - 1)(left - right) = log((1 + S)/2) - log(sqrt S) = log((1 + S)/(2 sqrt S)) > 0, since
(1 + S)/2 - sqrt S = (sqrt S - 1)^2 / 2 (sympy); S != 1 is decided exactly for a fixed pair at
alpha in {101/100, 3/2, 2, 3, 10, 100}.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._framework import Proof, statement
from . import _renyi as R
from .equation_3 import kl_chain_identity


@statement(
    "Footnote 1",
    "The chain rule for Renyi divergence used in the earlier version (read: D_alpha((X,Y)||(X',Y')) = D_alpha(X||X') + "
    "E_{x~X} D_alpha(Y|x || Y'|x)) only holds for order alpha = 1 (KL divergence).",
)
def footnote(p: Proof) -> None:
    s = sp.symbols("S", positive=True)
    amgm = sp.simplify((1 + s) / 2 - sp.sqrt(s) - (sp.sqrt(s) - 1) ** 2 / 2) == 0
    p.verified("alpha = 1: the KL chain rule is an identity (Equation (3)); alpha > 1: (1 + S)/2 - sqrt(S) = "
               "(sqrt(S) - 1)^2/2 > 0 for S != 1, so the additive rule underestimates D_alpha on X = X' uniform, "
               "Y|0 = Y'|0", kl_chain_identity(2) and amgm)
    pair = [(F(1, 2), F(1, 4)), (F(1, 2), F(3, 4))]
    n = 0
    for a in (F(101, 100), F(3, 2), F(2), F(3), F(10), F(100)):
        n += 1
        if not p.require(R.cmp(R.S(pair, a), F(1)) != 0, "S_alpha(Y|1 || Y'|1) != 1", f"alpha={a}"):
            return
    p.instances("Y|1 = (1/2, 1/2), Y'|1 = (1/4, 3/4): S_alpha != 1 (exact, radical sums for non-integer alpha), so the "
                "additive chain rule fails at these alpha", n)
    p.note("Reading of the footnote: the earlier version's rule is not reproduced in the paper; the KL-form rule is the "
           "natural reading. Renyi divergence does satisfy Definition 3.4's chain-rule property with a different "
           "function (the display in Lemma 5.3's proof); see Definition 3.4.")
