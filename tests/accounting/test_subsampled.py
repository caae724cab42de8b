"""One Poisson-subsampled Gaussian step in closed form (exactdp.accounting.subsampled, Accounting Lemma 11).

References, none of them the code's own output:
* mpmath quadrature at 30 digits of (p - e^eps q)_+ over the pair's densities, split at the
  crossing found by a root finder on ln p - ln q (not the closed form's threshold);
* the certified lattice accountant (a fixed lattice step forces it), whose enclosure must hold
  the closed form's;
* q = 1: the unsampled Gaussian's closed form (Gaussian DP), a separate implementation;
* monotonicity: more noise or a lower rate never raises delta or epsilon.
"""

from __future__ import annotations

import sys
from fractions import Fraction as F
from pathlib import Path

import mpmath as mp
import pytest

from exactdp import Accountant, Gaussian, PoissonSampled

sys.path.insert(0, str(Path(__file__).parent))
import dp_reference as R  # noqa: E402


def _pair(relation: str, sigma, q):
    """Densities (p, q) of the dominating pair of one step (sensitivity 1)."""
    s, q = R.mpf(sigma), R.mpf(q)
    phi = lambda m: (lambda x: mp.npdf(x, m, s))  # noqa: E731
    mix = lambda x: (1 - q) * phi(0)(x) + q * phi(1)(x)  # noqa: E731
    if relation == "remove":
        return mix, phi(0)
    if relation == "add":
        return phi(0), mix
    return mix, (lambda x: (1 - q) * phi(0)(x) + q * phi(-1)(x))


def quad_delta(relation: str, sigma, q, eps):
    """delta(eps) = integral of (p - e^eps q)_+ at 30 digits, split at the densities' crossing."""
    if relation == "add_remove":
        return max(quad_delta("remove", sigma, q, eps), quad_delta("add", sigma, q, eps))
    with mp.workdps(30):
        p, qq = _pair(relation, sigma, q)
        a = mp.e ** R.mpf(eps)
        s = R.mpf(sigma)
        g = lambda x: mp.log(p(x)) - mp.log(qq(x)) - R.mpf(eps)  # noqa: E731
        lo, hi = -40 * s - 40, 40 * s + 40
        pts = [-mp.inf, -10 * s, 0, 1, 10 * s + 1, mp.inf]
        if g(lo) * g(hi) < 0:  # one crossing (the loss is monotone): split there
            pts.append(mp.findroot(g, (lo, hi), solver="bisect", tol=mp.mpf(10) ** -28))
        elif max(g(lo), g(hi)) < 0:
            return mp.mpf(0)
        pts = sorted(pts)
        f = lambda x: max(p(x) - a * qq(x), 0)  # noqa: E731
        return mp.quad(f, pts, maxdegree=10)


def contains(enc, x, rel=mp.mpf(10) ** -16) -> bool:
    """The enclosure holds x up to the quadrature's own error (relative 1e-16: the 30-digit
    quadrature is good to 1e-20 or better here, even where p - e^eps q cancels to 1e-18; the
    enclosures claim 12 digits)."""
    with mp.workdps(40):  # the ends exactly enough (not rounded to 15 digits)
        return R.mpf(enc.lower) - rel * abs(x) <= x <= R.mpf(enc.upper) + rel * abs(x)


CASES = [("remove", 1, F(1, 256), F(1, 10)), ("add", 1, F(1, 256), F(1, 1000)), ("replace_one", F(1, 2), F(1, 100), 2),
         ("add_remove", 2, F(1, 10), F(1, 2)), ("add_remove", F(4, 5), F(1, 100), 3)]


@pytest.mark.parametrize("relation,sigma,q,eps", CASES)
def test_delta_contains_quadrature(relation, sigma, q, eps):
    acc = Accountant(relation).compose(PoissonSampled(Gaussian(sigma), q))
    e = acc.delta(eps, digits=12)
    assert acc.last.method == "subsampled-closed-form" and acc.last.points == 0
    assert e.accurate(12)
    true = quad_delta(relation, sigma, q, eps)
    assert true > 0 and contains(e, true), (e, true)


@pytest.mark.parametrize("relation,sigma,q,delta", [("add_remove", 1, F(1, 256), "1e-5"), ("remove", F(1, 2), F(1, 100), "1e-12"),
                                                    ("add", 2, F(1, 10), "1e-3"), ("replace_one", 1, F(1, 10), "1e-8")])
def test_epsilon_brackets_the_quadrature(relation, sigma, q, delta):
    """delta(eps) is decreasing: at the enclosure's lower end the quadrature is above delta, at
    its upper end below (the ends are 1e-12 apart: 30-digit quadrature separates them)."""
    e = Accountant(relation).compose(PoissonSampled(Gaussian(sigma), q)).epsilon(delta, digits=12)
    assert e.accurate(12) and e.lower > 0
    with mp.workdps(40):
        d = R.mpf(F(delta))
    assert quad_delta(relation, sigma, q, e.lower) > d > quad_delta(relation, sigma, q, e.upper)


@pytest.mark.parametrize("relation", ["remove", "add", "replace_one"])
def test_lattice_encloses_the_closed_form(relation):
    """The certified lattice, forced by a fixed step, holds the closed form's 12-digit enclosure."""
    acc = Accountant(relation).compose(PoissonSampled(Gaussian(1), F(1, 20)))
    closed = acc.delta(F(1, 40), digits=12)  # (inside the add loss's range, below -ln(0.95) = 0.0513)
    lat = acc.query("delta", F(1, 40), h=F(1, 512)).value
    assert acc.last.method == "lattice" and acc.last.points > 0
    assert lat.lower <= closed.lower and closed.upper <= lat.upper
    assert lat.upper - lat.lower < closed.upper / 100  # the lattice's own digits (2 or more)


@pytest.mark.parametrize("relation", ["add_remove", "replace_one"])
@pytest.mark.parametrize("kind,x", [("epsilon", "1e-20"), ("epsilon", "1e-3"), ("delta", "1/2")])
def test_rate_one_is_the_unsampled_gaussian(relation, kind, x):
    """At q = 1 the subsampled closed form equals Gaussian DP's (a separate closed form)."""
    sub = Accountant(relation).compose(PoissonSampled(Gaussian(F(3, 2)), 1))
    gdp = Accountant(relation).compose(Gaussian(F(3, 2)))
    a, b = sub.query(kind, x, 12), gdp.query(kind, x, 12)
    assert a.method == "subsampled-closed-form" and b.method == "gdp-closed-form"
    assert a.value.accurate(12) and b.value.accurate(12)
    assert a.value.lower <= b.value.upper and b.value.lower <= a.value.upper


def test_monotone_in_sigma_and_rate():
    """More noise lowers epsilon; a higher rate raises it (strictly, on disjoint enclosures)."""
    eps = lambda s, q: Accountant().compose(PoissonSampled(Gaussian(s), q)).epsilon("1e-10", digits=12)  # noqa: E731
    by_sigma = [eps(s, F(1, 100)) for s in (F(1, 2), F(4, 5), 1, 2, 4)]
    by_rate = [eps(1, q) for q in (F(1, 1000), F(1, 256), F(1, 100), F(1, 10), 1)]
    assert all(b.upper < a.lower for a, b in zip(by_sigma, by_sigma[1:]))
    assert all(a.upper < b.lower for a, b in zip(by_rate, by_rate[1:]))


def test_add_is_zero_beyond_its_loss_range():
    """The add loss stays below -ln(1 - q): delta is exactly 0 from there on, positive just below."""
    q = F(1, 10)  # -ln(0.9) = 0.10536...
    acc = Accountant("add").compose(PoissonSampled(Gaussian(1), q))
    assert acc.delta(F(1054, 10000), digits=12).upper == 0
    below = acc.delta(F(1053, 10000), digits=12)
    assert below.lower > 0 and contains(below, quad_delta("add", 1, q, F(1053, 10000)))
    # epsilon at any delta > 0 stays below -ln(1 - q)
    e = acc.epsilon("1e-20", digits=12)
    assert R.mpf(e.upper) < -mp.log(1 - R.mpf(q))


def test_total_variation_at_eps_zero():
    """delta(0) is the total variation distance: q (Phi(1/(2s)) - Phi(-1/(2s))) for remove (closed form of TV)."""
    s, q = 2, F(1, 7)
    e = Accountant("remove").compose(PoissonSampled(Gaussian(s), q)).delta(0, digits=12)
    with mp.workdps(30):
        tv = R.mpf(q) * (mp.ncdf(mp.mpf(1) / (2 * s)) - mp.ncdf(-mp.mpf(1) / (2 * s)))
    assert contains(e, tv)


def test_more_than_one_step_uses_the_lattice():
    acc = Accountant().compose(PoissonSampled(Gaussian(2), F(1, 100)), 2)
    acc.epsilon("1e-5", digits=2)
    assert acc.last.method == "lattice"


def test_bad_relation_or_kind_is_refused():
    from exactdp.accounting.subsampled import closed_form, subsampled_delta
    from exactdp.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="relation"):
        subsampled_delta(F(1), F(1, 10), "swap", F(1))
    with pytest.raises(InvalidArgument, match="kind"):
        closed_form("sigma", F(1, 10**5), F(1), F(1, 10), "add_remove", 12)
