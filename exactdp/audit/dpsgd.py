"""The DP-SGD audit: peers' accountants run over the certified DP-SGD corpus, each answer judged
for what the peer documents it to be (``exactdp audit --suite dpsgd --peer NAME``).

Adapters (each runs the peer as its users do, on ``steps`` copies of a Poisson-subsampled
Gaussian of noise multiplier ``sigma`` and sample rate ``q``, or an unsampled Gaussian):

=============== ==================== =============================================================
peer            knob                 answers, and what the peer documents them to be
=============== ==================== =============================================================
dp_accounting   ``rdp``              ``RdpAccountant.get_epsilon`` / ``get_delta``: an upper bound
dp_accounting   ``pld-pess-1e-4``    ``from_gaussian_mechanism(pessimistic_estimate=True)``, interval
                                     1e-4 (the default): an upper bound ("pessimistic")
dp_accounting   ``pld-opt-1e-4``     the same, ``pessimistic_estimate=False``: a lower bound
                                     ("optimistic")
dp_accounting   ``pld-pess-1e-5``,   the same at interval 1e-5 (finer)
                ``pld-opt-1e-5``
prv_accountant  ``eps_error=0.1``,   ``PRVAccountant.compute_epsilon`` / ``compute_delta``: lower
                ``eps_error=0.01``   bound, estimate (error bar ``eps_error`` in epsilon, "maximum
                                     error allowed"), upper bound
opacus          ``rdp``              ``RDPAccountant.get_epsilon``: an upper bound
opacus          ``gdp``              ``GaussianAccountant.get_epsilon`` (central limit theorem): an
                                     estimate ("can underestimate", its own warning)
opacus          ``prv``              ``PRVAccountant.get_epsilon``: its upper bound
autodp          ``rdp``              ``NoisySGD_Mechanism(prob, sigma, niter)`` (RDP), ``get_approxDP`` /
                                     ``get_approx_delta``: an upper bound
autodp          ``gaussian``         ``ComposeGaussian`` of ``GaussianMechanism`` (unsampled steps; the
                                     analytical Gaussian): an upper bound
autodp          ``afa``              ``ComposeAFA`` (the analytical Fourier accountant: characteristic
                                     functions inverted by quadrature): an estimate
fourier_        ``nx=1e6,L=20``      ``get_epsilon_R`` / ``get_delta_R`` (remove/add), ``get_epsilon_S`` /
accountant                           ``get_delta_S`` (substitute), at their defaults: estimates ("relies
                                     on numerical approximations")
PLD_accounting  ``subsample-1e-4``,  ``subsample_pld`` of dp_accounting's pessimistic Gaussian PLD at that
                ``subsample-1e-3``   interval, self-composed: an upper bound (``DOMINATES``)
=============== ==================== =============================================================

dp_accounting runs add/remove and replace-one cases (its ``NeighboringRelation``),
prv_accountant, Opacus, autodp's RDP and PLD_accounting add/remove only, epsilon(delta) only for
Opacus. The Fourier accountant's ``_R`` functions compute one direction, the mixture against
``N(0, sigma^2)``: exactdp's ``"remove"``; they run on remove cases and, as its documentation names
them, on add/remove ones (where they estimate the remove direction only); its ``_S`` functions run
on replace-one cases; it has no add direction and takes ``q < 1``. autodp's ``afa`` answers
add/remove as the larger of its ``remove_only`` and ``add_only`` answers (its own advice). The
other cases are "not run", with the reason. A configuration whose arrays would pass :data:`MAX_PEER_POINTS`
points is not run either, with the estimate: memory stays bounded.
"""

from __future__ import annotations

import math
import time
import warnings
from fractions import Fraction
from typing import Callable, Optional

from ..errors import InvalidArgument
from ..testing.dpsgd import EventCase, dpsgd_params
from .run import fmt_rel, run_audit_tasks

__all__ = ["DPSGD_PEERS", "DpsgdPeer", "dpsgd_peer", "MAX_PEER_POINTS", "run_dpsgd_peer", "not_run", "audit_dpsgd_vector",
           "run_dpsgd_audit", "findings", "summarize_dpsgd", "dpsgd_markdown", "DPSGD_AUDIT_VERSION"]

#: Largest discretisation (points of a PLD or PRV array) a peer is run at (dp_accounting's PLD at
#: 1e9 points grew past 24 GB; the whole DP-SGD corpus at a limit of 2 x 10^7 peaked at 2.2 GiB).
MAX_PEER_POINTS = 10**7


class DpsgdPeer:
    """A peer of the DP-SGD audit: import name, distribution, extra, knobs and claims.
    Guarantee: none (a record). Raises: nothing."""

    def __init__(self, name: str, module: str, dist: str, extra: str, knobs: dict, run: Callable, script: Callable,
                 why_not: Callable):
        self.name, self.module, self.dist, self.extra = name, module, dist, extra
        self.knobs = knobs          # knob -> (description, {claim: kind})
        self.run = run              # (knob, sigma, q, k, relation, direction, query: float) -> {claim: value, ["error": bar]}
        self.script = script        # (knob, sigma, q, k, relation, direction, query: float) -> Python source
        self.why_not = why_not      # (knob, sigma, q, k, relation, direction, query) -> reason or None


def _f(x: Fraction) -> float:
    return float(x)


# --------------------------------------------------------------------------
# dp_accounting


def _dpa_interval(knob: str) -> float:
    return 1e-5 if knob.endswith("1e-5") else 1e-4


def _loss_sd(sigma: float, q: float, k: int) -> float:
    """Float standard deviation of the composed privacy loss (a cost estimate): mu for Gaussians,
    the CLT value ``q sqrt(k (e^{1/sigma^2} - 1))`` for subsampled ones."""
    if q >= 1:
        return math.sqrt(k) / sigma
    try:
        return q * math.sqrt(k * math.expm1(1 / sigma**2))
    except OverflowError:
        return math.inf


def _dpa_why_not(knob, sigma, q, k, relation, direction, query) -> Optional[str]:
    if relation not in ("add_remove", "replace_one"):
        return "not run: dp_accounting's accountants take ADD_OR_REMOVE_ONE or REPLACE_ONE, not one direction"
    if knob == "rdp" and relation == "replace_one" and q < 1:
        return "not run: dp_accounting's RDP accountant takes PoissonSampledDpEvent under ADD_OR_REMOVE_ONE only"
    if knob.startswith("pld"):
        pts = 24 * _loss_sd(sigma, q, k) / _dpa_interval(knob)
        if pts > MAX_PEER_POINTS:
            return (f"not run: the composed PLD would span about {pts:.2g} points at interval {_dpa_interval(knob):g} "
                    f"(limit {MAX_PEER_POINTS:.0e})")
    return None


def _rdp_noise(sigma: float, q: float, relation: str) -> float:
    """The noise multiplier dp_accounting's RDP accountant is given. Its unsampled ``GaussianDpEvent``
    under REPLACE_ONE takes the noise relative to the distance between the two neighbours' outputs
    (measured: ``GaussianDpEvent(1)`` x 100 at delta 1e-5 gives 96.1, a bound for mu = 10), while its
    PLD (``sensitivity=1``) and exactdp take one record's contribution, which a replacement moves by
    twice (284.39 for mu = 20): the same question is ``sigma / 2``."""
    return sigma / 2 if relation == "replace_one" and q >= 1 else sigma


def _dpa_relation(relation: str):
    from dp_accounting import NeighboringRelation as NR

    return NR.REPLACE_ONE if relation == "replace_one" else NR.ADD_OR_REMOVE_ONE


def _dpa_run(knob, sigma, q, k, relation, direction, query) -> dict:
    warnings.filterwarnings("ignore")
    if knob == "rdp":
        from dp_accounting import dp_event as E
        from dp_accounting.rdp import rdp_privacy_accountant as RDP

        inner = E.GaussianDpEvent(_rdp_noise(sigma, q, relation))
        ev = E.SelfComposedDpEvent(inner if q >= 1 else E.PoissonSampledDpEvent(q, inner), k)
        acc = RDP.RdpAccountant(neighboring_relation=_dpa_relation(relation)).compose(ev)
        return {"upper": acc.get_epsilon(query) if direction == "epsilon" else acc.get_delta(query)}
    from dp_accounting.pld import privacy_loss_distribution as PLD

    pess = knob.startswith("pld-pess")
    # optimistic: connect-the-dots is pessimistic only, dp_accounting falls back to privacy buckets (said explicitly)
    pld = PLD.from_gaussian_mechanism(sigma, pessimistic_estimate=pess, value_discretization_interval=_dpa_interval(knob),
                                      sampling_prob=q, use_connect_dots=pess,
                                      neighboring_relation=_dpa_relation(relation)).self_compose(k)
    v = pld.get_epsilon_for_delta(query) if direction == "epsilon" else pld.get_delta_for_epsilon(query)
    return {"upper" if pess else "lower": v}


def _dpa_script(knob, sigma, q, k, relation, direction, query) -> str:
    rel = "REPLACE_ONE" if relation == "replace_one" else "ADD_OR_REMOVE_ONE"
    if knob == "rdp":
        inner = f"E.GaussianDpEvent({_rdp_noise(sigma, q, relation)!r})"
        ev = inner if q >= 1 else f"E.PoissonSampledDpEvent({q!r}, {inner})"
        call = f"get_epsilon({query!r})" if direction == "epsilon" else f"get_delta({query!r})"
        return ("from dp_accounting import NeighboringRelation, dp_event as E\n"
                "from dp_accounting.rdp import rdp_privacy_accountant as RDP\n"
                f"acc = RDP.RdpAccountant(neighboring_relation=NeighboringRelation.{rel})\n"
                f"acc.compose(E.SelfComposedDpEvent({ev}, {k}))\n"
                f"print(acc.{call})")
    call = f"get_epsilon_for_delta({query!r})" if direction == "epsilon" else f"get_delta_for_epsilon({query!r})"
    return ("from dp_accounting import NeighboringRelation\n"
            "from dp_accounting.pld import privacy_loss_distribution as PLD\n"
            f"pld = PLD.from_gaussian_mechanism({sigma!r}, pessimistic_estimate={knob.startswith('pld-pess')}, "
            f"value_discretization_interval={_dpa_interval(knob)!r}, sampling_prob={q!r}, "
            f"use_connect_dots={knob.startswith('pld-pess')}, "
            f"neighboring_relation=NeighboringRelation.{rel})\n"
            f"print(pld.self_compose({k}).{call})")


# --------------------------------------------------------------------------
# prv_accountant


def _prv_eps_error(knob: str) -> float:
    return float(knob.split("=")[1])


def _prv_delta_error(direction: str, query: float) -> float:
    return query / 1000 if direction == "epsilon" else 1e-10


def _prv_points(eps_error: float, delta_error: float, k: int, L: float) -> float:
    # the mesh of Gopi et al. (their Theorem 5.5), as prv_accountant and Opacus choose it
    mesh = eps_error / math.sqrt(k * math.log(12 / delta_error) / 2)
    return 2 * L / mesh


def _prv_domain(sigma, q, k, eps_error, delta_error) -> float:
    from prv_accountant.accountant import compute_safe_domain_size
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism

    return compute_safe_domain_size([PoissonSubsampledGaussianMechanism(q, sigma)], [k], eps_error=eps_error,
                                    delta_error=delta_error)


def _prv_why_not(knob, sigma, q, k, relation, direction, query) -> Optional[str]:
    if relation != "add_remove":
        return "not run: prv_accountant accounts for add/remove of one example (DP-SGD) only"
    ee, de = _prv_eps_error(knob), _prv_delta_error(direction, query)
    try:
        L = _prv_domain(sigma, q, k, ee, de)
    except Exception as e:  # noqa: BLE001  (the peer's failure: reported when run)
        return None if isinstance(e, (ValueError, ArithmeticError)) else f"not run: {type(e).__name__}"
    pts = _prv_points(ee, de, k, L)
    if pts > MAX_PEER_POINTS:
        return f"not run: the PRV mesh would have about {pts:.2g} points (limit {MAX_PEER_POINTS:.0e})"
    return None


def _prv_run(knob, sigma, q, k, relation, direction, query) -> dict:
    warnings.filterwarnings("ignore")
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism

    ee = _prv_eps_error(knob)
    prv = PoissonSubsampledGaussianMechanism(sampling_probability=q, noise_multiplier=sigma)
    acc = PRVAccountant(prvs=[prv], max_self_compositions=[k], eps_error=ee,
                        delta_error=_prv_delta_error(direction, query))
    if direction == "epsilon":
        lo, est, up = acc.compute_epsilon(delta=query, num_self_compositions=[k])
        return {"lower": lo, "estimate": est, "upper": up, "error": ee}
    lo, est, up = acc.compute_delta(query, [k])
    return {"lower": lo, "estimate": est, "upper": up}


def _prv_script(knob, sigma, q, k, relation, direction, query) -> str:
    ee = _prv_eps_error(knob)
    call = (f"compute_epsilon(delta={query!r}, num_self_compositions=[{k}])" if direction == "epsilon"
            else f"compute_delta({query!r}, [{k}])")
    return ("from prv_accountant import PRVAccountant\n"
            "from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism\n"
            f"prv = PoissonSubsampledGaussianMechanism(sampling_probability={q!r}, noise_multiplier={sigma!r})\n"
            f"acc = PRVAccountant(prvs=[prv], max_self_compositions=[{k}], eps_error={ee!r}, "
            f"delta_error={_prv_delta_error(direction, query)!r})\n"
            f"print(acc.{call})  # (lower, estimate, upper)")


# --------------------------------------------------------------------------
# Opacus (its accountants import torch: the opacus extra)


def _opacus_why_not(knob, sigma, q, k, relation, direction, query) -> Optional[str]:
    if relation != "add_remove":
        return "not run: Opacus accounts for add/remove of one example (DP-SGD) only"
    if direction != "epsilon":
        return "not run: Opacus's accountants answer epsilon for a delta only"
    if knob == "prv":
        pts = _prv_points(0.01, query / 1000, k, max(10.0, 4 * _loss_sd(sigma, q, k) + 10))
        if pts > MAX_PEER_POINTS:
            return f"not run: the PRV mesh would have about {pts:.2g} points (limit {MAX_PEER_POINTS:.0e})"
    return None


def _opacus_run(knob, sigma, q, k, relation, direction, query) -> dict:
    warnings.filterwarnings("ignore")
    from opacus.accountants import GaussianAccountant, PRVAccountant, RDPAccountant

    acc = {"rdp": RDPAccountant, "gdp": GaussianAccountant, "prv": PRVAccountant}[knob]()
    acc.history = [(sigma, q, k)]  # what k calls of acc.step(noise_multiplier=sigma, sample_rate=q) leave
    return {"estimate" if knob == "gdp" else "upper": acc.get_epsilon(delta=query)}


def _opacus_script(knob, sigma, q, k, relation, direction, query) -> str:
    cls = {"rdp": "RDPAccountant", "gdp": "GaussianAccountant", "prv": "PRVAccountant"}[knob]
    return (f"from opacus.accountants import {cls}\n"
            f"acc = {cls}()\n"
            f"acc.history = [({sigma!r}, {q!r}, {k})]  # {k} x acc.step(noise_multiplier={sigma!r}, sample_rate={q!r})\n"
            f"print(acc.get_epsilon(delta={query!r}))")


# --------------------------------------------------------------------------
# autodp


def _quiet(f: Callable):
    """``f()`` with its standard output swallowed (autodp's characteristic-function inversion prints
    every step of its binary search, which would corrupt ``--json``)."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        return f()


def _autodp_sigma(sigma: float, relation: str) -> float:
    """autodp's ``sigma`` is the noise over the l2 sensitivity; a replacement moves an unsampled
    Gaussian's output by twice one record's contribution (as :func:`_rdp_noise`)."""
    return sigma / 2 if relation == "replace_one" else sigma


def _autodp_has_quadrature() -> bool:
    import scipy.integrate

    return hasattr(scipy.integrate, "quadrature")


def _autodp_why_not(knob, sigma, q, k, relation, direction, query) -> Optional[str]:
    if knob == "rdp" and relation != "add_remove":
        return "not run: autodp's NoisySGD_Mechanism accounts for add/remove of one example (DP-SGD) only"
    if knob == "gaussian" and q < 1:
        return "not run: ComposeGaussian composes unsampled Gaussians only (the rdp and afa knobs take Poisson sampling)"
    if knob == "gaussian" and relation not in ("add_remove", "replace_one"):
        return "not run: an unsampled Gaussian is symmetric; the single directions are the sampled knobs' cases"
    if knob == "afa" and q < 1:
        if relation == "replace_one":
            return "not run: autodp's phi functions of the Poisson-subsampled Gaussian are for add or remove only"
        if not _autodp_has_quadrature():
            import scipy

            return ("not run: autodp's phi functions of the Poisson-subsampled Gaussian call "
                    f"scipy.integrate.quadrature, which SciPy 1.15 removed (installed: SciPy {scipy.__version__})")
    if knob == "afa" and q >= 1 and relation not in ("add_remove", "replace_one"):
        return "not run: an unsampled Gaussian is symmetric; the single directions are the sampled knobs' cases"
    return None


def _autodp_mechanism(knob, sigma, q, k, relation, neighboring: Optional[str] = None):
    from autodp import mechanism_zoo as M
    from autodp import transformer_zoo as T

    if knob == "rdp":
        return M.NoisySGD_Mechanism(prob=q, sigma=sigma, niter=k)
    if knob == "gaussian":
        return T.ComposeGaussian()([M.GaussianMechanism(sigma=_autodp_sigma(sigma, relation))], [k])
    if q >= 1:
        g = M.GaussianMechanism(sigma=_autodp_sigma(sigma, relation), phi_off=False, RDP_off=True, approxDP_off=True)
        return T.ComposeAFA()([g], [k])
    g = M.GaussianMechanism(sigma=sigma, phi_off=False, RDP_off=True, approxDP_off=True)
    sub = T.AmplificationBySampling_pld(PoissonSampling=True, neighboring=neighboring)(g, q)
    return T.ComposeAFA()([sub], [k])


def _autodp_neighborings(q: float, relation: str) -> list:
    """autodp's ``neighboring`` arguments whose answers a relation takes the larger of (its own advice
    for add/remove: the pointwise maximum of ``add_only`` and ``remove_only``)."""
    if q >= 1:
        return [None]
    return {"remove": ["remove_only"], "add": ["add_only"]}.get(relation, ["remove_only", "add_only"])


def _autodp_run(knob, sigma, q, k, relation, direction, query) -> dict:
    warnings.filterwarnings("ignore")

    def one(nb):
        m = _autodp_mechanism(knob, sigma, q, k, relation, nb)
        return m.get_approxDP(query) if direction == "epsilon" else m.get_approx_delta(query)

    v = max(_quiet(lambda: one(nb)) for nb in (_autodp_neighborings(q, relation) if knob == "afa" else [None]))
    return {"estimate" if knob == "afa" else "upper": v}


def _autodp_script(knob, sigma, q, k, relation, direction, query) -> str:
    call = f"get_approxDP({query!r})" if direction == "epsilon" else f"get_approx_delta({query!r})"
    s = _autodp_sigma(sigma, relation)
    if knob == "rdp":
        return ("from autodp.mechanism_zoo import NoisySGD_Mechanism\n"
                f"print(NoisySGD_Mechanism(prob={q!r}, sigma={sigma!r}, niter={k}).{call})")
    if knob == "gaussian":
        return ("from autodp.mechanism_zoo import GaussianMechanism\n"
                "from autodp.transformer_zoo import ComposeGaussian\n"
                f"print(ComposeGaussian()([GaussianMechanism(sigma={s!r})], [{k}]).{call})")
    head = ("from autodp.mechanism_zoo import GaussianMechanism\n"
            "from autodp.transformer_zoo import AmplificationBySampling_pld, ComposeAFA\n")
    if q >= 1:
        return head + (f"g = GaussianMechanism(sigma={s!r}, phi_off=False, RDP_off=True, approxDP_off=True)\n"
                       f"print(ComposeAFA()([g], [{k}]).{call})  # (it prints its search first)")
    nbs = _autodp_neighborings(q, relation)
    return head + (f"g = GaussianMechanism(sigma={sigma!r}, phi_off=False, RDP_off=True, approxDP_off=True)\n"
                   f"answers = [ComposeAFA()([AmplificationBySampling_pld(PoissonSampling=True, neighboring=nb)(g, {q!r})], "
                   f"[{k}]).{call} for nb in {nbs!r}]\n"
                   "print(max(answers))  # (it prints its search first)")


# --------------------------------------------------------------------------
# the Fourier accountant (DPBayes' fourier-accountant)


def _fa_why_not(knob, sigma, q, k, relation, direction, query) -> Optional[str]:
    if q >= 1:
        return ("not run: the Fourier accountant is for the Poisson-subsampled Gaussian (its remove/add density "
                "takes log(1 - q), q < 1)")
    if relation == "add":
        return ("not run: the Fourier accountant's remove/add functions (get_*_R) compute one direction, "
                "(1 - q) N(0, s^2) + q N(1, s^2) against N(0, s^2): exactdp's remove")
    if direction == "delta" and query <= 0:
        return "not run: get_delta_R and get_delta_S take target_eps > 0"
    return None


def _fa_function(relation: str, direction: str) -> str:
    return ("get_epsilon_" if direction == "epsilon" else "get_delta_") + ("S" if relation == "replace_one" else "R")


def _fa_run(knob, sigma, q, k, relation, direction, query) -> dict:
    warnings.filterwarnings("ignore")
    import fourier_accountant as FA

    f = getattr(FA, _fa_function(relation, direction))
    if direction == "epsilon":
        return {"estimate": f(target_delta=query, sigma=sigma, q=q, ncomp=k)}
    return {"estimate": f(target_eps=query, sigma=sigma, q=q, ncomp=k)}


def _fa_script(knob, sigma, q, k, relation, direction, query) -> str:
    arg = "target_delta" if direction == "epsilon" else "target_eps"
    return ("import fourier_accountant as FA\n"
            f"print(FA.{_fa_function(relation, direction)}({arg}={query!r}, sigma={sigma!r}, q={q!r}, ncomp={k}))"
            "  # nx=1e6, L=20 (its defaults)")


# --------------------------------------------------------------------------
# PLD_accounting (Feldman and Shenfeld's PLD-dual subsampling)


def _pla_interval(knob: str) -> float:
    return float(knob.split("-", 1)[1])


def _pla_why_not(knob, sigma, q, k, relation, direction, query) -> Optional[str]:
    if q >= 1:
        return "not run: subsample_pld returns the PLD unchanged at q = 1 (dp_accounting's own PLD, audited as dp_accounting)"
    if relation != "add_remove":
        return ("not run: subsample_pld transforms both directions of a dp_accounting PLD, which answers "
                "add/remove (the larger of the two) only")
    pts = 24 * _loss_sd(sigma, q, k) / _pla_interval(knob)
    if pts > MAX_PEER_POINTS:
        return (f"not run: the composed PLD would span about {pts:.2g} points at interval {_pla_interval(knob):g} "
                f"(limit {MAX_PEER_POINTS:.0e})")
    return None


def _pla_run(knob, sigma, q, k, relation, direction, query) -> dict:
    warnings.filterwarnings("ignore")
    from dp_accounting.pld import privacy_loss_distribution as PLD
    from PLD_accounting import subsample_pld

    base = PLD.from_gaussian_mechanism(sigma, pessimistic_estimate=True, value_discretization_interval=_pla_interval(knob),
                                       use_connect_dots=True)
    pld = subsample_pld(pld=base, sampling_probability=q).self_compose(k)
    return {"upper": pld.get_epsilon_for_delta(query) if direction == "epsilon" else pld.get_delta_for_epsilon(query)}


def _pla_script(knob, sigma, q, k, relation, direction, query) -> str:
    call = f"get_epsilon_for_delta({query!r})" if direction == "epsilon" else f"get_delta_for_epsilon({query!r})"
    return ("from dp_accounting.pld import privacy_loss_distribution as PLD\n"
            "from PLD_accounting import subsample_pld\n"
            f"base = PLD.from_gaussian_mechanism({sigma!r}, pessimistic_estimate=True, "
            f"value_discretization_interval={_pla_interval(knob)!r}, use_connect_dots=True)\n"
            f"print(subsample_pld(pld=base, sampling_probability={q!r}).self_compose({k}).{call})")


DPSGD_PEERS: dict[str, DpsgdPeer] = {
    "dp_accounting": DpsgdPeer(
        "dp_accounting", "dp_accounting", "dp-accounting", "peers",
        {"rdp": "RdpAccountant, PoissonSampledDpEvent(q, GaussianDpEvent(sigma)) x k (default orders): upper bound",
         "pld-pess-1e-4": "PLD from_gaussian_mechanism, pessimistic, interval 1e-4 (default): upper bound",
         "pld-opt-1e-4": "the same, optimistic (pessimistic_estimate=False): lower bound",
         "pld-pess-1e-5": "PLD, pessimistic, interval 1e-5 (finer): upper bound",
         "pld-opt-1e-5": "PLD, optimistic, interval 1e-5: lower bound"},
        _dpa_run, _dpa_script, _dpa_why_not),
    "prv_accountant": DpsgdPeer(
        "prv_accountant", "prv_accountant", "prv-accountant", "peers",
        {"eps_error=0.1": "PRVAccountant, eps_error 0.1 (its 'typical' value), delta_error delta/1000: lower bound, "
                          "estimate (bar eps_error), upper bound",
         "eps_error=0.01": "the same at eps_error 0.01"},
        _prv_run, _prv_script, _prv_why_not),
    "opacus": DpsgdPeer(
        "opacus", "opacus.accountants", "opacus", "opacus",
        {"rdp": "RDPAccountant (default alphas): upper bound",
         "gdp": "GaussianAccountant, poisson=True (CLT): estimate ('can underestimate')",
         "prv": "PRVAccountant, eps_error 0.01, delta_error delta/1000: its upper bound"},
        _opacus_run, _opacus_script, _opacus_why_not),
    "autodp": DpsgdPeer(
        "autodp", "autodp", "autodp", "peers",
        {"rdp": "NoisySGD_Mechanism(prob=q, sigma, niter=k) (RDP, Poisson sampling): upper bound",
         "gaussian": "ComposeGaussian of GaussianMechanism(sigma) (unsampled; analytical Gaussian): upper bound",
         "afa": "ComposeAFA of phi functions (analytical Fourier accountant, numerical inversion; Poisson sampling "
                "by AmplificationBySampling_pld, add/remove the larger of add_only and remove_only): estimate"},
        _autodp_run, _autodp_script, _autodp_why_not),
    "fourier_accountant": DpsgdPeer(
        "fourier_accountant", "fourier_accountant", "fourier-accountant", "peers",
        {"nx=1e6,L=20": "get_epsilon_R / get_delta_R (remove/add), get_epsilon_S / get_delta_S (substitute), its "
                        "defaults nx 1e6 and L 20 ('relies on numerical approximations'): estimate"},
        _fa_run, _fa_script, _fa_why_not),
    "PLD_accounting": DpsgdPeer(
        "PLD_accounting", "PLD_accounting", "PLD_accounting", "peers",
        {"subsample-1e-4": "subsample_pld of dp_accounting's pessimistic Gaussian PLD (interval 1e-4), self-composed "
                           "(DOMINATES): upper bound",
         "subsample-1e-3": "the same at interval 1e-3 (coarser)"},
        _pla_run, _pla_script, _pla_why_not),
}


def dpsgd_peer(name: str, *, installed: bool = True) -> DpsgdPeer:
    """The DP-SGD peer ``name``, importable when ``installed``.

    Guarantee: exact. Raises: InvalidArgument (an unknown name, or the peer not installed: one line
    naming the extra that installs it).
    """
    if name not in DPSGD_PEERS:
        raise InvalidArgument("--peer", "with --suite dpsgd, one of " + ", ".join(DPSGD_PEERS), name)
    p = DPSGD_PEERS[name]
    if installed:
        import importlib

        try:
            importlib.import_module(p.module)
        except ImportError as e:
            raise InvalidArgument("--peer", f"an installed accountant: pip install 'exactdp[{p.extra}]'",
                                  f"{name} cannot be imported ({str(e)[:80]})") from None
    return p


def not_run(p: DpsgdPeer, knob: str, case: EventCase) -> Optional[str]:
    """Why ``knob`` of ``p`` is not run on ``case`` (None when it is). Guarantee: exact. Raises: nothing."""
    try:
        sigma, q, k = dpsgd_params(case.event)
    except InvalidArgument:
        return "not run: the adapter takes k steps of one (Poisson-subsampled) Gaussian of sensitivity 1"
    return p.why_not(knob, _f(sigma), _f(q), k, case.relation, case.direction, _f(case.query))


def run_dpsgd_peer(p: DpsgdPeer, knob: str, case: EventCase) -> tuple[dict, float, str]:
    """Run one knob of a peer on one case: ``(answers, seconds, reproduction script)``.

    Guarantee: none (the peer's answers, as returned). Raises: whatever the peer raises.
    """
    sigma, q, k = dpsgd_params(case.event)
    args = (knob, _f(sigma), _f(q), k, case.relation, case.direction, _f(case.query))
    t0 = time.perf_counter()
    out = p.run(*args)
    return out, time.perf_counter() - t0, p.script(*args)


# --------------------------------------------------------------------------
# the audit over the corpus

#: Findings' record version (the state file of a resumed audit must match it).
DPSGD_AUDIT_VERSION = 1


def _certified_json(case: EventCase) -> dict:
    enc = case.certified
    if enc is None or enc.infinite:
        return {"lower": "inf", "upper": "inf"}
    lo, hi = enc.decimal(17)
    return {"lower": lo, "upper": hi}


def _reproduction(script: str, v) -> str:
    from .. import __version__

    what = "eps" if v.case.direction == "epsilon" else "delta"
    c = _certified_json(v.case)
    kind = "an upper bound" if v.claim == "upper" else ("a lower bound" if v.claim == "lower" else "an estimate")
    return (f"{script}\n# certified by exactdp {__version__} ({v.case.digits} digits): {what} in [{c['lower']}, "
            f"{c['upper']}]\n# {v.case.describe()}; the answer claims to be {kind}: {v.status}")


def audit_dpsgd_vector(peer_name: str, knob: str, vector: dict) -> dict:
    """Run one knob of one peer on one corpus vector and judge each answer against the stored
    certified enclosure: ``{"records": [...]}``, one record per claimed answer (or one
    ``"not-run"`` / ``"error"`` record).

    Guarantee: each verdict an exact decision (:func:`exactdp.testing.dpsgd.decide_event`).
    Raises: nothing for the peer's failures.
    """
    from ..testing.dpsgd import case_of_vector, decide_event
    from .peers import peer_version

    p = DPSGD_PEERS[peer_name]
    case = case_of_vector(vector)
    base = {"peer": peer_name, "version": peer_version(p.dist), "knob": knob, "peer_config": f"{peer_name} {knob}",
            "case": vector.get("id", ""), "label": "" if case is None else case.describe(),
            "tags": vector.get("tags", [])}
    if case is None:
        return {"records": [{**base, "verdict": "not-run", "reason": "the vector has no certified value"}]}
    why = not_run(p, knob, case)
    if why:
        return {"records": [{**base, "verdict": "not-run", "reason": why}]}
    try:
        out, seconds, script = run_dpsgd_peer(p, knob, case)
    except Exception as e:  # noqa: BLE001  (the peer's failure is a finding)
        return {"records": [{**base, "verdict": "error", "reason": f"{type(e).__name__}: {str(e)[:300]}",
                             "certified": _certified_json(case)}]}
    recs = []
    for v in decide_event(case, {k: _plain(x) for k, x in out.items()}, seconds=seconds):
        d = v.to_dict()
        rec = {**base, "claim": v.claim, "answer": d["answer"], "certified": _certified_json(case), "verdict": v.status,
               "signed_error": d["error"], "relative": d["relative"], "severity": v.severity,
               "bar": d["bar"], "seconds": round(seconds, 6), "reason": v.reason}
        if v.status in ("unsound", "invalid", "bar-violated"):
            rec["reproduce"] = _reproduction(script, v)
        recs.append(rec)
    return {"records": recs}


def _plain(x):
    """A peer's NumPy scalar as a Python number (exactly)."""
    from ..numbers.parse import as_scalar

    v = as_scalar(x)
    return float(v) if hasattr(v, "dtype") else v


def run_dpsgd_audit(peers: list, corpus: Optional[str] = None, *, knobs: Optional[list] = None,
                    out: Optional[str] = None, scheduler: Optional[str] = None, workers: Optional[int] = None,
                    progress: bool = False, quick: bool = False) -> list[dict]:
    """Audit ``peers`` over a DP-SGD corpus (default: the shipped one; ``quick``: only its cases of
    at most 100 steps); return every record in corpus order. With ``out``, records go to ``out + ".partial"`` as they finish (resumable) and
    ``out`` is written atomically at the end (JSON lines). Each peer run is guarded by
    :data:`MAX_PEER_POINTS`; the audit keeps one small record per answer.

    Guarantee: as :func:`audit_dpsgd_vector`.

    Raises:
        InvalidArgument: an unknown or missing peer (naming its extra), an unknown knob, a bad corpus
            or ``out`` (before any work).
    """
    import os

    from .. import __version__
    from ..jobs import check_scheduler, output_file
    from ..testing.dpsgd import read_vectors, shipped_dpsgd_path
    from .peers import peer_version

    if out is not None:
        output_file(out, "--out")
        output_file(out + ".partial", "--out")
    if scheduler is not None:
        check_scheduler(scheduler)
    vectors = [v for v in read_vectors(corpus or shipped_dpsgd_path()) if "events" in v]
    if quick:  # the short cases: at most 100 steps
        vectors = [v for v in vectors if sum(p.get("count", 1) for p in v["events"].get("parts", [])) <= 100]
    if not vectors:
        raise InvalidArgument("--corpus", "a DP-SGD corpus (vectors with events)", corpus)
    tasks = []
    for name in peers:
        p = dpsgd_peer(name)
        ks = list(p.knobs) if not knobs else [k for k in knobs if k in p.knobs]
        if not ks:
            raise InvalidArgument("--knob", f"one of {', '.join(p.knobs)} for {name}", ", ".join(knobs or []))
        for knob in ks:
            for v in vectors:
                tasks.append((f"{name}|{knob}|{v.get('id')}", (name, knob, v)))
    header = {"exactdp_audit_dpsgd": DPSGD_AUDIT_VERSION, "peers": list(peers), "knobs": list(knobs or []), "quick": quick,
              "exactdp_version": __version__, "corpus": os.path.abspath(corpus or shipped_dpsgd_path()),
              "peer_versions": {n: peer_version(DPSGD_PEERS[n].dist) for n in peers}}
    return run_audit_tasks(audit_dpsgd_vector, tasks, out=out, header=header, scheduler=scheduler, workers=workers,
                           progress=progress)


_FINDING_KEYS = ("peer_config", "case", "label", "answer", "claim", "certified", "verdict", "signed_error", "relative",
                 "severity", "bar", "seconds", "reason", "reproduce")


def findings(records: list[dict]) -> list[dict]:
    """The ``--json`` form of the records: ``{"peer_config", "case", "answer", "claim", "certified":
    {"lower", "upper"}, "verdict", ...}`` per answer. Guarantee: exact (a projection). Raises: nothing."""
    return [{k: r[k] for k in _FINDING_KEYS if k in r} for r in records]


def summarize_dpsgd(records: list[dict]) -> list[dict]:
    """Per (peer, knob, claim): the counts of each verdict, float-level and material failures,
    the worst relative errors below and above, the median time. Guarantee: exact counts. Raises: nothing."""
    import statistics

    rows: dict = {}
    for r in records:
        key = (r["peer"], r["knob"], r.get("claim", "-"))
        row = rows.setdefault(key, {"peer": r["peer"], "version": r["version"], "knob": r["knob"],
                                    "claim": r.get("claim", "-"), "answers": 0, "sound": 0, "unsound": 0, "invalid": 0,
                                    "bar-violated": 0, "reported": 0, "undecided": 0, "error": 0, "not-run": 0,
                                    "float-level": 0, "material": 0, "worst_below": 0.0, "worst_above": 0.0,
                                    "seconds": []})
        st = r["verdict"]
        row[st] = row.get(st, 0) + 1
        if st in ("not-run", "error"):
            continue
        row["answers"] += 1
        if r.get("severity"):
            row[r["severity"]] += 1
        rel = r.get("relative")
        rel = float(rel) if isinstance(rel, (int, float, str)) and rel is not None else None
        if rel is not None and not math.isnan(rel):
            row["worst_below"] = min(row["worst_below"], rel)
            row["worst_above"] = max(row["worst_above"], rel)
        row["seconds"].append(r.get("seconds", 0.0))
    out = []
    for row in rows.values():
        s = row.pop("seconds")
        row["median_seconds"] = statistics.median(s) if s else None
        out.append(row)
    return out


def dpsgd_markdown(records: list[dict], *, max_rows: int = 40) -> str:
    """The summary table (per peer, knob and claim) and the failed claims with their reproductions,
    as Markdown. Guarantee: exact counts; relative errors approximate (3 digits). Raises: nothing."""
    lines = ["| peer (version) | knob | claim | answers | sound | unsound | invalid | outside bar | estimates "
             "| undecided | errors | not run | failures: float-level / material | worst below | worst above "
             "| median time (s) |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in summarize_dpsgd(records):
        t = f"{r['median_seconds']:.3g}" if r["median_seconds"] is not None else "-"
        lines.append(f"| {r['peer']} ({r['version']}) | {r['knob']} | {r['claim']} | {r['answers']} | {r['sound']} "
                     f"| {r['unsound']} | {r['invalid']} | {r['bar-violated']} | {r['reported']} | {r['undecided']} "
                     f"| {r['error']} | {r['not-run']} | {r['float-level']} / {r['material']} | {fmt_rel(r['worst_below'], 2)} "
                     f"| {fmt_rel(r['worst_above'], 2)} | {t} |")
    bad = [r for r in records if r["verdict"] in ("unsound", "invalid", "bar-violated")]
    bad.sort(key=lambda r: -abs(float(r["relative"])) if r.get("relative") is not None else 0.0)
    if bad:
        lines += ["", f"Failed claims ({len(bad)}; the {min(len(bad), max_rows)} largest by relative error):", "",
                  "| peer | knob | claim | case | answer | certified | relative error | severity |",
                  "|---|---|---|---|---:|---|---:|---|"]
        for r in bad[:max_rows]:
            c = r["certified"]
            lines.append(f"| {r['peer']} | {r['knob']} | {r['claim']} | {r['label']} | {r['answer']!r} "
                         f"| [{c['lower']}, {c['upper']}] | {fmt_rel(float(r['relative']), 2)} | {r['severity']} |")
    errs = [r for r in records if r["verdict"] == "error"]
    if errs:
        lines += ["", "Errors:", ""] + [f"* {r['peer_config']} on {r['label']}: {r['reason']}" for r in errs[:20]]
    return "\n".join(lines)
