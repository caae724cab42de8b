"""Mechanisms with eps near the top of the float range (found by the fuzzer, issue 17).

Floats only guide the kernels; with eps = 1e308 their keys and sums overflow, and the
answer must still come from the exact rules. The value is known independently: one
mechanism with eps = E alone has delta_g(eps_g) = (e^E - e^eps_g) / (1 + e^E) (Murtagh-Vadhan
Theorem 1.5 with k = 1), and composing more mechanisms can only raise it (post-processing),
so for E = 1e308 and eps_g = 1 the composition's delta_g lies in [1 - 10^-300, 1].
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import pytest

from exactdp import composed_delta, mechanisms


@pytest.mark.parametrize("method", ["mitm", "grouped", "brute", "auto"])
def test_a_mechanism_with_eps_1e308_dominates_every_method(method):
    ms = mechanisms(eps=["0.1", "0.2", "1e308"], k=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # numpy overflow warnings are failures here
        r = composed_delta(ms, eps_g="1", method=method, digits=20)
    lo, hi = r.value.lower, r.value.upper
    assert hi <= 1 and lo >= 1 - Fraction(1, 10**19)


def test_precision_the_answer_needs_beyond_the_estimate_is_refused_per_round(monkeypatch):
    """Regression (fuzz): e^eps = 1e308 beside 11/10 .. 2, 20 copies each, in balls. The float search
    starts at t = 1, where sigma is a sum over terms from e^0 to e^14000 (meet in the middle's
    vector form holds them in fixed point) and its ball straddles 0 up to thousands of bits. The
    ball Newton took a straddling sigma for "t >= W" (jumping to W - goal < 1, i.e. back to t = 1)
    and ran its 40 steps at t = 1 in every round; at k = 100 the fuzzer killed it after 60 s. Now
    an undecided sigma asks for more bits, and each round at a raised precision is estimated
    before it runs: refused here at a limit of 5 s after a handful of evaluations."""
    import exactdp.engines.inverse as inv
    from exactdp import optcomp
    from exactdp.engines.costs import cost_limits
    from exactdp.errors import CostTooHigh

    calls = {"n": 0}
    orig = inv._Counted.__call__

    def counted(self, f, t):
        calls["n"] += 1
        if calls["n"] > 20:
            raise AssertionError("the ball inverse crawls: more than 20 evaluations")
        return orig(self, f, t)

    monkeypatch.setattr(inv._Counted, "__call__", counted)
    c = mechanisms(exp_eps=["2", "11/10", "1e308", "3/2", "5/4"], k=20)
    with cost_limits(seconds=5), pytest.raises(CostTooHigh) as ei:
        optcomp(c, "1e-3", engine="certified")
    assert ei.value.parameter == "digits" and ei.value.estimate["seconds"] > 5
