"""Adapters for the audited accountants ("peers"): how each is called, as its users call it.

Each peer has knobs (its usual configuration, and a tighter one where it has an accuracy
setting). An adapter takes a composition as float groups ``[(eps, delta, count), ...]``
and returns, for the queries asked, the peer's answers, plus the *exact* composition it
was given: a mechanism the peer builds from a float parameter is the mechanism of that
float (dp_accounting's randomized response with noise parameter ``p`` has
``e^eps = (2 - p)/p`` exactly; OpenDP's and autodp's with probability ``p`` have
``e^eps = p/(1 - p)``), and that is the composition the answer is checked against.

The peers are optional (``pip install 'exactdp[peers]'``); ``exactdp-float`` (exactdp's own
floating-point engine, approximate) is always there and serves as a control and for tests.
"""

from __future__ import annotations

import math
import time
import warnings
from fractions import Fraction
from typing import Callable, Optional

from ..errors import InvalidArgument
from ..events import Composition, Mechanism

__all__ = ["PEERS", "Peer", "peer", "peer_version", "require_peer"]

Groups = list  # [(eps: float, delta: float, count: int)]


class Peer:
    """One peer: its import name, PyPI name, knobs, and the adapter. Guarantee: none (a record)."""

    def __init__(self, name: str, module: str, dist: str, knobs: dict, run: Callable, composition: Callable,
                 python: Callable):
        self.name, self.module, self.dist = name, module, dist
        self.knobs = knobs            # knob -> description
        self.run = run                # (knob, groups, eps_queries, delta_queries) -> {"epsilon": {q: {answer: v}}, ...}
        self.composition = composition  # (knob, groups) -> exact Composition the peer was given
        self.python = python          # (knob, groups, direction, query) -> a reproduction snippet


def peer_version(dist: str) -> Optional[str]:
    """The installed version of a distribution, or None. Guarantee: exact. Raises: nothing."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def require_peer(name: str) -> Peer:
    """The peer ``name``, importable.

    Raises:
        InvalidArgument: an unknown name, or the peer is not installed (with the pip command).
    """
    if name not in PEERS:
        raise InvalidArgument("--peer", "one of " + ", ".join(PEERS), name)
    p = PEERS[name]
    if p.module:
        import importlib

        try:
            importlib.import_module(p.module)
        except ImportError as e:
            raise InvalidArgument("--peer", f"an installed accountant: pip install 'exactdp[peers]' (or pip install {p.dist})",
                                  f"{name} is not installed ({e})") from None
    return p


def _pure(groups: Groups) -> Optional[str]:
    return None if all(d == 0 for _, d, _ in groups) else "approximate DP (delta_i > 0) is not supported by this knob"


def unsupported(p: Peer, knob: str, groups: Groups) -> Optional[str]:
    """Why ``knob`` of ``p`` is not run on ``groups`` (None when it is). Guarantee: exact. Raises: nothing."""
    k = sum(n for _, _, n in groups)
    rr = (p.name == "dp_accounting" and knob.endswith("-rr")) or p.name == "opendp" or (p.name == "autodp"
                                                                                         and knob.startswith("randresponse"))
    if rr and len(groups) > 1 and k > 30:
        return ("not run: the randomized responses' e^eps are incommensurable rationals, and exactdp's exact sum "
                "over their classes is too costly beyond k = 30 (the eps-given knobs cover these cases)")
    if rr and k > 10_000:
        return ("not run: the randomized response's e^eps is a rational, and exactdp's optimum for a rational "
                "e^eps at k = 10^5 takes about 60 s per query (measured); the eps-given knobs cover k = 10^5")
    if p.name == "dp_accounting":
        if knob in ("pld-accountant-rr", "rdp-accountant-rr"):
            return _pure(groups)
        if knob == "pld-1e-5" and k > 10_000:
            return "not run: about 500 s at k = 10^5 (measured 49 s at k = 10^4)"
        if knob in ("pld-1e-4", "pld-1e-5"):
            # the PLD's arrays have about sum eps_i / interval entries each: eps = 1, k = 10^4 at
            # 1e-5 (1e9 entries) grew past 24 GB and was killed by the system
            points = sum(e * n for e, _, n in groups) / (1e-4 if knob == "pld-1e-4" else 1e-5)
            if points > 1e8:
                return (f"not run: the PLD would discretize sum eps_i over about {points:.2g} points "
                        "(1e9 points took over 24 GB)")
    if p.name == "prv_accountant" and knob == "eps_error=0.01" and k > 10_000:
        return "not run: over 5 min at k = 10^5 (measured 33 s at eps_error=0.1)"
    if p.name in ("autodp", "opendp"):
        return _pure(groups)
    return None


# --------------------------------------------------------------------------
# dp_accounting


def _rr_p(eps: float) -> float:
    """dp_accounting's noise parameter of the randomized response standing for eps: 2(1 - p), with p
    the dyadic probability of :func:`_rr_true` (so ``e^eps' = (2 - noise)/noise`` is a small rational)."""
    return 2.0 * (1.0 - _rr_true(eps))


def _dpa_run(knob: str, groups: Groups, eqs: list, dqs: list) -> dict:
    warnings.filterwarnings("ignore")
    from dp_accounting import dp_event
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.pld import privacy_loss_distribution as pldm
    from dp_accounting.privacy_accountant import NeighboringRelation as NR
    from dp_accounting.rdp import rdp_privacy_accountant

    if knob in ("pld-accountant-rr", "rdp-accountant-rr"):
        ev = dp_event.ComposedDpEvent([dp_event.SelfComposedDpEvent(dp_event.RandomizedResponseDpEvent(_rr_p(e), 2), n)
                                       for e, _, n in groups])
        acc = (pld_privacy_accountant.PLDAccountant(NR.REPLACE_ONE) if knob.startswith("pld")
               else rdp_privacy_accountant.RdpAccountant(neighboring_relation=NR.REPLACE_ONE))
        acc.compose(ev)
        return {"epsilon": {q: {"eps": acc.get_epsilon(q)} for q in eqs}, "delta": {q: {"delta": acc.get_delta(q)} for q in dqs}}
    vdi = 1e-4 if knob == "pld-1e-4" else 1e-5
    pld = None
    for e, d, n in groups:
        p = pldm.from_privacy_parameters(pldm.common.DifferentialPrivacyParameters(e, d),
                                         value_discretization_interval=vdi).self_compose(n)
        pld = p if pld is None else pld.compose(p)
    return {"epsilon": {q: {"eps": pld.get_epsilon_for_delta(q)} for q in eqs},
            "delta": {q: {"delta": pld.get_delta_for_epsilon(q)} for q in dqs}}


def _dpa_comp(knob: str, groups: Groups) -> Composition:
    if knob in ("pld-accountant-rr", "rdp-accountant-rr"):
        parts = []
        for e, _, n in groups:
            p = Fraction(_rr_p(e))
            parts.append((Mechanism(exp_eps=(2 - p) / p), n))
        return Composition(parts)
    return Composition([(Mechanism(eps=e, delta=d), n) for e, d, n in groups])


def _dpa_python(knob: str, groups: Groups, direction: str, q: float) -> str:
    call = f"get_epsilon({q!r})" if direction == "epsilon" else f"get_delta({q!r})"
    if knob in ("pld-accountant-rr", "rdp-accountant-rr"):
        acc = ("pld_privacy_accountant.PLDAccountant(NR.REPLACE_ONE)" if knob.startswith("pld") else
               "rdp_privacy_accountant.RdpAccountant(neighboring_relation=NR.REPLACE_ONE)")
        evs = ", ".join(f"dp_event.SelfComposedDpEvent(dp_event.RandomizedResponseDpEvent({_rr_p(e)!r}, 2), {n})"
                        for e, _, n in groups)
        return (f"acc = {acc}; acc.compose(dp_event.ComposedDpEvent([{evs}])); acc.{call}")
    vdi = "1e-4" if knob == "pld-1e-4" else "1e-5"
    parts = [f"pldm.from_privacy_parameters(pldm.common.DifferentialPrivacyParameters({e!r}, {d!r}), "
             f"value_discretization_interval={vdi}).self_compose({n})" for e, d, n in groups]
    pcall = f"get_epsilon_for_delta({q!r})" if direction == "epsilon" else f"get_delta_for_epsilon({q!r})"
    return "pld = " + ".compose(".join(parts) + ")" * (len(parts) - 1) + f"; pld.{pcall}"


# --------------------------------------------------------------------------
# prv_accountant


def _prv_run(knob: str, groups: Groups, eqs: list, dqs: list) -> dict:
    warnings.filterwarnings("ignore")
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import ApproximateDPMechanism, PureDPMechanism

    ee = 0.1 if knob == "eps_error=0.1" else 0.01
    prvs = [PureDPMechanism(e) if d == 0 else ApproximateDPMechanism(e, d) for e, d, _ in groups]
    ns = [n for _, _, n in groups]
    out: dict = {"epsilon": {}, "delta": {}}
    for q in eqs:
        acc = PRVAccountant(prvs=prvs, max_self_compositions=ns, eps_error=ee, delta_error=q * 1e-3)
        lo, est, up = acc.compute_epsilon(q, ns)
        out["epsilon"][q] = {"estimate": est, "upper": up}
    for q in dqs:
        acc = PRVAccountant(prvs=prvs, max_self_compositions=ns, eps_error=ee, delta_error=1e-10)
        lo, est, up = acc.compute_delta(q, ns)
        out["delta"][q] = {"estimate": est, "upper": up}
    return out


def _prv_python(knob: str, groups: Groups, direction: str, q: float) -> str:
    ee = 0.1 if knob == "eps_error=0.1" else 0.01
    prvs = ", ".join(f"PureDPMechanism({e!r})" if d == 0 else f"ApproximateDPMechanism({e!r}, {d!r})" for e, d, _ in groups)
    ns = [n for _, _, n in groups]
    de = f"{q!r} * 1e-3" if direction == "epsilon" else "1e-10"
    call = f"compute_epsilon({q!r}, {ns})" if direction == "epsilon" else f"compute_delta({q!r}, {ns})"
    return f"PRVAccountant(prvs=[{prvs}], max_self_compositions={ns}, eps_error={ee}, delta_error={de}).{call}"


# --------------------------------------------------------------------------
# autodp


#: Largest relative change of eps that the dyadic rounding of :func:`_rr_true` may make.
RR_ROUNDING = 0.05


def _rr_true(eps: float) -> float:
    """The probability of the truth of the randomized response standing for eps, rounded to a multiple
    of 2^-m: a float whose ``p/(1 - p)`` is a small rational (e.g. 269/243 for eps = 0.1; the
    exact engines are slow on the 53-bit rationals of an unrounded float). ``m`` is the least
    exponent from 10 on at which the mechanism's ``ln(p/(1 - p))`` is within :data:`RR_ROUNDING`
    (relative) of eps: 2^-10 for eps from 0.1 to 1, 2^-19 for eps = 1e-4 (which 2^-10 rounded to
    p = 1/2, eps = 0: a mechanism other than the one the grid asks about)."""
    x = math.exp(eps) / (1.0 + math.exp(eps))
    for m in range(10, 53):
        p = round(x * 2**m) / 2**m
        if 0 < p < 1 and abs(math.log(p / (1 - p)) - eps) <= RR_ROUNDING * eps:
            return p
    return x


def _autodp_mech(knob: str, groups: Groups):
    warnings.filterwarnings("ignore")
    from autodp.mechanism_zoo import PureDP_Mechanism, RandresponseMechanism
    from autodp.transformer_zoo import ComposeAFA
    from autodp.transformer_zoo import Composition as AComposition

    ns = [n for _, _, n in groups]
    if knob == "randresponse-afa":  # the analytical Fourier accountant: phi-functions, composed by ComposeAFA
        ms = [RandresponseMechanism(p=_rr_true(e), RDP_off=True, phi_off=False) for e, _, _ in groups]
        return ComposeAFA()(ms, ns)
    ms = [PureDP_Mechanism(e) if knob == "puredp" else RandresponseMechanism(p=_rr_true(e)) for e, _, _ in groups]
    if len(ms) == 1 and ns[0] == 1:
        return ms[0]
    return AComposition()(ms, ns)


def _autodp_run(knob: str, groups: Groups, eqs: list, dqs: list) -> dict:
    m = _autodp_mech(knob, groups)
    return {"epsilon": {q: {"eps": m.get_approxDP(q)} for q in eqs}, "delta": {q: {"delta": m.get_approx_delta(q)} for q in dqs}}


def _autodp_comp(knob: str, groups: Groups) -> Composition:
    if knob == "puredp":
        return Composition([(Mechanism(eps=e), n) for e, _, n in groups])
    parts = []
    for e, _, n in groups:
        p = Fraction(_rr_true(e))
        parts.append((Mechanism(exp_eps=p / (1 - p)), n))
    return Composition(parts)


def _autodp_python(knob: str, groups: Groups, direction: str, q: float) -> str:
    mk = (lambda e: f"PureDP_Mechanism({e!r})") if knob == "puredp" else (
        lambda e: f"RandresponseMechanism(p={_rr_true(e)!r})")
    ns = [n for _, _, n in groups]
    call = f"get_approxDP({q!r})" if direction == "epsilon" else f"get_approx_delta({q!r})"
    if knob == "randresponse-afa":
        ms = ", ".join(f"RandresponseMechanism(p={_rr_true(e)!r}, RDP_off=True, phi_off=False)" for e, _, _ in groups)
        return f"ComposeAFA()([{ms}], {ns}).{call}"
    if len(groups) == 1 and ns[0] == 1:
        return f"{mk(groups[0][0])}.{call}"
    return f"Composition()([{', '.join(mk(e) for e, _, _ in groups)}], {ns}).{call}"


# --------------------------------------------------------------------------
# OpenDP


def _odp_measurement(knob: str, groups: Groups):
    warnings.filterwarnings("ignore")
    import opendp.prelude as dp

    dp.enable_features("contrib")
    ms = []
    for e, _, n in groups:
        m = dp.m.make_randomized_response_bool(_rr_true(e))
        if knob == "zcdp":
            m = dp.c.make_pureDP_to_zCDP(m)
        ms += [m] * n
    c = dp.c.make_composition(ms)
    return dp.c.make_zCDP_to_approxDP(c) if knob == "zcdp" else c


def _odp_run(knob: str, groups: Groups, eqs: list, dqs: list) -> dict:
    m = _odp_measurement(knob, groups)
    out = m.map(1)
    if knob == "basic":
        # (eps, 0)-DP: the answer at every delta_g; at an eps_g >= eps the delta is 0, below it none is stated
        return {"epsilon": {q: {"eps": out} for q in eqs}, "delta": {q: ({"delta": 0.0} if q >= out else {}) for q in dqs}}
    return {"epsilon": {q: {"eps": out.epsilon(q)} for q in eqs}, "delta": {q: {"delta": out.delta(q)} for q in dqs}}


def _odp_python(knob: str, groups: Groups, direction: str, q: float) -> str:
    ms = " + ".join(f"[{'dp.c.make_pureDP_to_zCDP(' if knob == 'zcdp' else ''}dp.m.make_randomized_response_bool("
                    f"{_rr_true(e)!r}{')' if knob == 'zcdp' else ''})] * {n}" for e, _, n in groups)
    c = f"dp.c.make_composition({ms})"
    if knob == "basic":
        return f"{c}.map(1)"
    call = f"epsilon({q!r})" if direction == "epsilon" else f"delta({q!r})"
    return f"dp.c.make_zCDP_to_approxDP({c}).map(1).{call}"


# --------------------------------------------------------------------------
# exactdp's own float engine (approximate): a control, always installed


def _float_run(knob: str, groups: Groups, eqs: list, dqs: list) -> dict:
    from ..engines import composed_delta, optcomp

    comp = Composition([(Mechanism(eps=e, delta=d), n) for e, d, n in groups])
    ep = {q: {"eps": float(optcomp(comp, q, engine="float", digits=15).value.lower)} for q in eqs}
    de = {q: {"delta": float(composed_delta(comp, eps_g=q, engine="float", digits=15).value.lower)} for q in dqs}
    return {"epsilon": ep, "delta": de}


def _float_python(knob: str, groups: Groups, direction: str, q: float) -> str:
    comp = f"Composition([{', '.join(f'(Mechanism(eps={e!r}, delta={d!r}), {n})' for e, d, n in groups)}])"
    if direction == "epsilon":
        return f"float(optcomp({comp}, {q!r}, engine='float', digits=15).value.lower)"
    return f"float(composed_delta({comp}, eps_g={q!r}, engine='float', digits=15).value.lower)"


def _plain_comp(knob: str, groups: Groups) -> Composition:
    return Composition([(Mechanism(eps=e, delta=d), n) for e, d, n in groups])


PEERS: dict[str, Peer] = {
    "dp_accounting": Peer(
        "dp_accounting", "dp_accounting", "dp-accounting",
        {"pld-accountant-rr": "PLDAccountant(REPLACE_ONE), SelfComposedDpEvent(RandomizedResponseDpEvent(noise, 2), k), "
                              "value_discretization_interval 1e-4 (default)",
         "pld-1e-4": "from_privacy_parameters(eps, delta).self_compose(k), value_discretization_interval 1e-4 (default)",
         "pld-1e-5": "the same, value_discretization_interval 1e-5 (tighter)",
         "rdp-accountant-rr": "RdpAccountant(REPLACE_ONE), the same RandomizedResponseDpEvent (default orders)"},
        _dpa_run, _dpa_comp, _dpa_python),
    "prv_accountant": Peer(
        "prv_accountant", "prv_accountant", "prv-accountant",
        {"eps_error=0.1": "PRVAccountant, eps_error 0.1, delta_error 1e-3 delta_g (as its docstring advises)",
         "eps_error=0.01": "PRVAccountant, eps_error 0.01 (tighter), delta_error 1e-3 delta_g"},
        _prv_run, _plain_comp, _prv_python),
    "autodp": Peer(
        "autodp", "autodp", "autodp",
        {"puredp": "PureDP_Mechanism(eps), transformer_zoo.Composition (RDP, BBGHS conversion: the default)",
         "randresponse": "RandresponseMechanism(p = e^eps/(1 + e^eps)), the same Composition",
         "randresponse-afa": "RandresponseMechanism(p, phi_off=False), ComposeAFA (the analytical Fourier accountant)"},
        _autodp_run, _autodp_comp, _autodp_python),
    "opendp": Peer(
        "opendp", "opendp", "opendp",
        {"basic": "make_randomized_response_bool(p), make_composition (basic composition, pure DP)",
         "zcdp": "make_pureDP_to_zCDP, make_composition, make_zCDP_to_approxDP (privacy profile)"},
        _odp_run, _autodp_comp, _odp_python),
    "exactdp-float": Peer(
        "exactdp-float", "", "exactdp",
        {"float": "exactdp's own float engine (mpmath, approximate; a control)"},
        _float_run, _plain_comp, _float_python),
}


def peer(name: str) -> Peer:
    """The peer named ``name`` (not checked for installation). Raises: InvalidArgument (unknown name)."""
    if name not in PEERS:
        raise InvalidArgument("--peer", "one of " + ", ".join(PEERS), name)
    return PEERS[name]


def timed_run(p: Peer, knob: str, groups: Groups, eqs: list, dqs: list) -> tuple[dict, float]:
    """``p.run(...)`` and its wall time in seconds. Raises: whatever the peer raises."""
    t0 = time.perf_counter()
    out = p.run(knob, groups, eqs, dqs)
    return out, time.perf_counter() - t0
