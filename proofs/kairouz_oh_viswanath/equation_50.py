"""Kairouz-Oh-Viswanath Equation (50) (Appendix C.1: the improved error bound via Theorem 3.4).

Printed (display lost): using Theorem 3.4 in place of Theorem 3.2 the Johnson-Lindenstrauss
mechanism's error bound improves to (50) (an O(.) bound), "smaller than (49) by (a square
root of) a logarithmic factor when eps = Theta(delta)"; the proof chooses eps_0, delta_0
(display lost) and bounds the noise by w <= 4 sqrt(4r log(e + 2eps/delta)) log(4r/delta)/eps.

Not checkable: an asymptotic bound whose display and whose parameter choice (eps_0, delta_0)
were both lost in conversion; the surviving noise bound depends on [BBDS12]'s construction
(its w as a function of eps_0, delta_0), which the paper does not restate.
"""

from __future__ import annotations

from .._framework import Proof, statement


@statement(
    "Equation (50)",
    "With Theorem 3.4, the JL mechanism's additive error for k cut queries improves to tau = O(...) (display lost).",
)
def equation(p: Proof) -> None:
    p.not_checkable("an O(.) bound; its display and the choice of (eps_0, delta_0) it rests on were lost in conversion, "
                    "and the noise bound w <= 4 sqrt(4r log(e+2eps/delta)) log(4r/delta)/eps depends on [BBDS12]'s "
                    "construction, not restated in the paper.")
