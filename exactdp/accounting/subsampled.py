"""One Poisson-subsampled Gaussian step in closed form, in Arb balls (Accounting Lemma 11).

With ``t = sigma / Delta`` (the pairs depend on it alone; take ``Delta = 1``), ``w = e^eps`` and
``Phibar(z) = erfc(z / sqrt 2) / 2``, the dominating pairs of :mod:`.laws` have a privacy loss
monotone in the output ``x``, so ``{L > eps}`` is a half-line with an explicit end ``x*``:

* remove, ``((1-q) N(0, t^2) + q N(1, t^2), N(0, t^2))``: ``x* = t^2 ln((w - 1 + q) / q) + 1/2``,
  ``delta = q Phibar((x* - 1)/t) - (w - 1 + q) Phibar(x*/t)``;
* add, the reverse: with ``B = 1 - w (1 - q)``, ``delta = 0`` when ``B <= 0`` (``eps >= -ln(1 - q)``:
  the loss stays below ``-ln(1 - q)``), else ``x* = t^2 ln(B / (w q)) + 1/2`` and
  ``delta = B Phi(x*/t) - w q Phi((x* - 1)/t)``;
* replace_one, ``((1-q) N(0) + q N(1), (1-q) N(0) + q N(-1))`` (Accounting Lemma 6): ``x* = t^2 ln u``
  with ``u`` the positive root of ``a u^2 - b u - w a = 0``, ``a = q e^{-1/(2 t^2)}``,
  ``b = (1 - q)(w - 1)``, and ``delta = q Phibar((x* - 1)/t) - b Phibar(x*/t) - w q Phibar((x* + 1)/t)``;
* add_remove: the larger of remove and add (Accounting Lemma 10).

Every ``eps >= 0`` lies in the remove and replace-one losses' ranges (``(ln(1 - q), inf)`` and
``R``), so no total-variation branch is needed there; the add loss's range ends at
``-ln(1 - q)``, beyond which delta is 0. No pair has an atom or an infinite loss for ``q`` in
``(0, 1]`` (at ``q = 1`` each is a Gaussian pair of Lemma 2). The accountant answers one such
step here, to 12 digits in milliseconds, instead of on a lattice.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from .._backend import arb, workprec
from ..links import implements
from ..numbers import Enclosure, arb_of_fraction, parse_choice
from ..numbers.precision import decide_sign
from .gaussian import bisect_root, delta_enclosure

__all__ = ["one_subsampled_gaussian", "subsampled_delta", "closed_form"]

#: Highest working precision of the closed form (bits).
_MAX_PREC = 1 << 14

#: The pairs' directions for each relation (add_remove: the larger of two, Accounting Lemma 10).
_DIRECTIONS = {"add_remove": ("remove", "add"), "remove": ("remove",), "add": ("add",),
               "replace_one": ("replace_one",)}


def one_subsampled_gaussian(parts) -> Optional[tuple[Fraction, Fraction]]:
    """``(t, q)`` with ``t = sigma / Delta`` when the composition is exactly one Poisson-subsampled
    Gaussian step (one part, count 1), else None. Guarantee: exact. Raises: nothing."""
    from ..noise_events import Gaussian, PoissonSampled

    if len(parts) != 1:
        return None
    e, n = parts[0]
    if n != 1 or type(e) is not PoissonSampled or type(e.event) is not Gaussian:
        return None
    return e.event.sigma / e.event.sensitivity, e.sample_rate


def _phibar(z: arb) -> arb:
    return (z / arb(2).sqrt()).erfc() / 2


def _direction_delta(direction: str, t: arb, q: arb, eps: arb) -> arb:
    """delta(eps) of one direction's pair, a ball at the working precision (Accounting Lemma 11)."""
    w = eps.exp()
    t2 = t * t
    if direction == "remove":
        A = w - 1 + q
        xs = t2 * (A / q).log() + arb(1) / 2
        return q * _phibar((xs - 1) / t) - A * _phibar(xs / t)
    if direction == "add":
        B = 1 - w * (1 - q)
        if not B > 0:  # B <= 0: delta = 0; undecided: 0 <= delta <= max(B, 0) (Phi <= 1, the other term >= 0)
            return arb(0) if B <= 0 else arb(0).union(B.upper())
        xs = t2 * (B / (w * q)).log() + arb(1) / 2
        # Phi(z) = Phibar(-z)
        return B * _phibar(-xs / t) - w * q * _phibar(-(xs - 1) / t)
    a = q * (-1 / (2 * t2)).exp()
    b = (1 - q) * (w - 1)
    u = (b + (b * b + 4 * w * a * a).sqrt()) / (2 * a)
    xs = t2 * u.log()
    return q * _phibar((xs - 1) / t) - b * _phibar(xs / t) - w * q * _phibar((xs + 1) / t)


@implements("Accounting Lemma 11")
def subsampled_delta(t: Fraction, q: Fraction, relation: str, eps: Fraction) -> arb:
    """delta(eps) of one Poisson-subsampled Gaussian step with ``t = sigma / Delta`` and rate ``q``
    under ``relation`` (``add_remove``, ``remove``, ``add`` or ``replace_one``), as an Arb ball at
    the working precision.

    Guarantee: enclosure (at the context precision; refine it with
    :func:`~exactdp.numbers.precision.refine`). Raises: InvalidArgument (an unknown relation).
    """
    relation = parse_choice(relation, "relation", tuple(_DIRECTIONS))
    tb, qb, eb = arb_of_fraction(Fraction(t)), arb_of_fraction(Fraction(q)), arb_of_fraction(Fraction(eps))
    balls = [_direction_delta(d, tb, qb, eb) for d in _DIRECTIONS[relation]]
    out = balls[0]
    for b in balls[1:]:
        out = out.max(b)  # a ball holding max(x, y) for x in out, y in b
    return out


def _propose(t: Fraction, q: Fraction, relation: str, delta: Fraction) -> float:
    """A float root of ``delta(eps) = delta`` by bisection on the midpoints of 64-bit balls (a
    proposal only: the closed form decides it)."""
    d = float(delta)

    def f(e: float) -> float:
        with workprec(64):
            return float(subsampled_delta(t, q, relation, Fraction(e)).mid())

    hi = 1.0
    while f(hi) > d and hi < 2.0**40:
        hi *= 2
    lo = 0.0
    for _ in range(80):
        m = (lo + hi) / 2
        if f(m) > d:
            lo = m
        else:
            hi = m
    return (lo + hi) / 2


@implements("Accounting Lemma 11")
def closed_form(kind: str, x: Fraction, t: Fraction, q: Fraction, relation: str,
                digits: int) -> tuple[Enclosure, int]:
    """``epsilon(delta)`` (``kind="epsilon"``, ``x = delta``) or ``delta(eps)`` of one
    Poisson-subsampled Gaussian step (``t = sigma / Delta``, rate ``q``) under ``relation``,
    accurate to ``digits`` digits, and the precision its refinements start at.

    Guarantee: enclosure (each end decided in balls, at rising precision by
    :func:`~exactdp.numbers.precision.refine` and :func:`~exactdp.numbers.precision.decide_sign`).
    Raises: InvalidArgument (an unknown kind or relation); PrecisionError (not decided by 2^14 bits,
    e.g. a delta below the balls' reach).
    """
    kind = parse_choice(kind, "kind", ("epsilon", "delta"))
    relation = parse_choice(relation, "relation", tuple(_DIRECTIONS))
    prec = 64 + 4 * digits

    if kind == "delta":  # (the add direction beyond its loss's range: exactly 0)
        return delta_enclosure(lambda: subsampled_delta(t, q, relation, x), digits, prec,
                               "subsampled Gaussian closed form: delta"), prec

    def below(e: Fraction) -> bool:  # delta(e) < delta, decided
        return decide_sign(lambda _p: subsampled_delta(t, q, relation, e) - arb_of_fraction(x), start=prec,
                           maxprec=_MAX_PREC, what="subsampled Gaussian closed form: delta(eps) - delta") < 0

    if below(Fraction(0)):
        return Enclosure.point(0), prec
    guess = Fraction(_propose(t, q, relation, x))
    rel = Fraction(1, 10 ** (digits + 1))
    tiny = Fraction(1, 10 ** (digits + 12))
    lo, hi = guess * (1 - rel), guess * (1 + rel) + tiny
    while not below(hi):  # the proposal was off: widen geometrically
        hi = guess + 16 * (hi - guess)
    while lo > 0 and below(lo):
        lo = guess - 16 * (guess - lo)
        if lo < tiny:
            lo = Fraction(0)
    return bisect_root(below, lo, hi, digits), prec

