"""The DP-SGD corpus: certified test vectors of Gaussian, Laplace and Poisson-subsampled compositions.

A grid entry is ``{"events": <event JSON>, "relation": "add_remove", "delta": "1e-5", "digits": 4,
"tags": [...]}`` (``"eps"`` instead of ``"delta"`` asks for delta(eps)); its vector::

    {"exactdp_corpus": 1, "id": "...", "tags": [...], "events": {...}, "relation": "add_remove",
     "query": {"kind": "epsilon", "delta": "1/100000"},
     "value": {"lower": "0.66125...", "upper": "0.66126...", "infinite": false},
     "digits": 4, "method": "accountant", "guarantee": "enclosure", "seconds": 2.0,
     "exactdp_version": "0.1.0"}

``value`` encloses the true optimal epsilon(delta) (or delta(eps)) of the composition under the
relation: decimals rounded outward, :data:`STORED_DIGITS` significant digits, accurate to
``digits`` digits (the accountant's lattice was refined until then). ``method`` says which
certified computation gave it: ``"gdp-closed-form"`` (compositions of unsampled Gaussians:
mu-GDP, 12 digits), ``"subsampled-closed-form"`` (one Poisson-subsampled Gaussian step,
Accounting Lemma 11, 12 digits) or ``"accountant"`` (:class:`exactdp.Accountant`'s certified
lattice, 3-4 digits in the shipped grid). ``seconds`` is the time
the vector took on the machine that built it. Every number of the shipped grids (sigma, q,
delta, eps) is a binary float, written as its exact rational (``0.01`` is
``5764607523034235/576460752303423488``), so that a float accountant given ``float(x)`` is
asked exactly the question the enclosure answers. A query refused by the cost model gives an
``"error"`` record, as in the (eps, delta) corpus.

The curated grid (:func:`dpsgd_grid` ``"curated"``, shipped in ``exactdp/corpus/dpsgd``) builds
in a few minutes on two cores; ``"full"`` (about 1000 queries, 1 to 10^6 steps, delta 1e-3 to
1e-20) is built with ``exactdp corpus build --suite dpsgd --full --out DIR [--workers N]``
(resumable).
"""

from __future__ import annotations

import hashlib
import json
import time
from fractions import Fraction
from typing import Optional

from ..errors import ExactDPError, InvalidArgument
from ..noise_events import Composed, Gaussian, Laplace, PoissonSampled, event_from_json
from ..numbers import fraction_str, parse_choice, parse_delta, parse_eps, parse_int, parse_rational
from ..testing.dpsgd import MAX_EVENT_DIGITS, RELATIONS, EventCase, case_of_vector, reference, reference_method

__all__ = ["dpsgd_grid", "prepare_event", "compute_event_vector", "check_event_vector", "is_event_entry",
           "STORED_DIGITS", "EVENT_GRIDS"]

#: Significant digits of the stored decimal ends (rounded outward; more than any vector's accuracy).
STORED_DIGITS = 20

EVENT_GRIDS = ("curated", "full")


def is_event_entry(entry: object) -> bool:
    """Is this grid entry or vector about events (the DP-SGD corpus)? Guarantee: exact. Raises: nothing."""
    return isinstance(entry, dict) and "events" in entry


def prepare_event(entry: dict) -> tuple[str, dict, list]:
    """``(id, canonical query, tags)`` of an event grid entry, validated.

    Guarantee: exact. Raises: InvalidArgument (a malformed event, relation, query or digits; naming it).
    """
    q = dict(entry)
    tags = q.pop("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise InvalidArgument("tags", "a list of strings", tags)
    unknown = sorted(set(q) - {"events", "relation", "delta", "eps", "digits"})
    if unknown:
        raise InvalidArgument("query", "keys among events, relation, delta, eps, digits, tags", unknown)
    ev = event_from_json(q["events"], "events")
    ev = ev if isinstance(ev, Composed) else Composed([(ev, 1)])
    rel = parse_choice(q.get("relation", "add_remove"), "relation", RELATIONS)
    if ("delta" in q) == ("eps" in q):
        raise InvalidArgument("query", "exactly one of delta, eps", sorted(k for k in ("delta", "eps") if k in q))
    digits = parse_int(q.get("digits", 4), "digits", lo=1, hi=MAX_EVENT_DIGITS)
    canon: dict = {"events": ev.to_json(), "relation": rel, "digits": digits}
    if "delta" in q:
        d = parse_delta(q["delta"], "delta")
        if d <= 0:
            raise InvalidArgument("delta", "in (0, 1)", d)
        canon["delta"] = fraction_str(d)
    else:
        canon["eps"] = fraction_str(parse_eps(q["eps"], "eps"))
    vid = hashlib.sha256(json.dumps(canon, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:20]
    return vid, canon, list(tags)


def _case(canon: dict) -> EventCase:
    direction = "epsilon" if "delta" in canon else "delta"
    return EventCase.of(event_from_json(canon["events"], "events"), canon["delta" if direction == "epsilon" else "eps"],
                        direction, canon["relation"])


def compute_event_vector(vid: str, canon: dict, tags: list) -> dict:
    """The vector of one canonical event query: its certified enclosure, or an error record.

    Guarantee: enclosure (decimals rounded outward). Raises: nothing for a refused query.
    """
    from .. import __version__
    from ..batch.query import error_record
    from .version import CORPUS_VERSION

    case = _case(canon)
    qd = {"kind": case.direction, ("delta" if case.direction == "epsilon" else "eps"): fraction_str(case.query)}
    base = {"exactdp_corpus": CORPUS_VERSION, "id": vid, "tags": list(tags), "events": canon["events"],
            "relation": canon["relation"], "query": qd}
    t0 = time.perf_counter()
    try:
        enc = reference(case, canon["digits"])
    except (ExactDPError, ArithmeticError) as e:
        return {**base, "digits": canon["digits"], "error": error_record(e), "exactdp_version": __version__}
    dt = time.perf_counter() - t0
    if enc.infinite:
        value = {"lower": "inf", "upper": "inf", "infinite": True}
    else:
        lo, hi = enc.decimal(STORED_DIGITS)
        value = {"lower": lo, "upper": hi, "infinite": False}
    return {**base, "value": value, "digits": canon["digits"], "method": reference_method(case),
            "guarantee": "enclosure", "seconds": round(dt, 3), "exactdp_version": __version__}


def check_event_vector(v: dict) -> dict:
    """Recompute an event vector at its digits and compare: ``{"id", "status", "detail"}``, status
    ``"ok"`` (both enclosures can contain the true value: they intersect), ``"mismatch"`` (disjoint:
    one of them is wrong; or finite against infinite) or ``"error"`` (malformed, or now refused).

    Guarantee: exact decision. Raises: nothing.
    """
    vid = v.get("id", "?")
    try:
        q = v["query"]
        entry = {"events": v["events"], "relation": v.get("relation", "add_remove"), "digits": v.get("digits", 4)}
        entry["delta" if q["kind"] == "epsilon" else "eps"] = q["delta" if q["kind"] == "epsilon" else "eps"]
        _, canon, _ = prepare_event(entry)
        stored = case_of_vector(v) if "value" in v else None
        new = compute_event_vector(vid, canon, v.get("tags", []))
    except (InvalidArgument, KeyError, TypeError, ValueError) as e:
        return {"id": vid, "status": "error", "detail": f"malformed vector: {e}"}
    if "error" in v or "error" in new:
        same = ("error" in v) == ("error" in new) and v.get("error", {}).get("type") == new.get("error", {}).get("type")
        return {"id": vid, "status": "ok" if same else ("mismatch" if "error" in v else "error"),
                "detail": "" if same else f"stored {v.get('error', 'a value')}, now {new.get('error', 'a value')}"}
    now = case_of_vector(new)
    a, b = stored.certified, now.certified  # type: ignore[union-attr]
    if a.infinite or b.infinite:
        ok = a.infinite == b.infinite
        return {"id": vid, "status": "ok" if ok else "mismatch", "detail": "" if ok else "infinite against finite"}
    if a.upper < b.lower or b.upper < a.lower:
        return {"id": vid, "status": "mismatch", "detail": f"disjoint enclosures: stored [{v['value']['lower']}, "
                f"{v['value']['upper']}], now [{new['value']['lower']}, {new['value']['upper']}]"}
    return {"id": vid, "status": "ok", "detail": ""}


# --------------------------------------------------------------------------
# the grids


def _fl(x: str) -> str:
    """The binary float nearest ``x``, as its exact rational (what a float accountant is given)."""
    return fraction_str(Fraction(float(parse_rational(x, "x"))))


def _ev(sigma, q: Optional[str], k: int) -> dict:
    g = Gaussian(_fl(sigma))
    leaf = g if q is None else PoissonSampled(g, _fl(q))
    return Composed([(leaf, k)]).to_json()


def _e(events: dict, tags: list, digits: int, relation: str = "add_remove", **query) -> dict:
    return {"events": events, "relation": relation, **{k: _fl(v) for k, v in query.items()}, "digits": digits,
            "tags": tags}


def _digits_for(k: int) -> int:
    """Digits of a sampled query of k steps that the accountant reaches in seconds: 12 for one step
    (its closed form, milliseconds); on the lattice (measured on the 2-core machine) 4 digits at
    k = 10^3 take 2 s, 3 digits at 10^5 take 9 s; 2 digits at 10^6 and q = 1/256 are refused after
    a minute, beyond 4 x 10^6 lattice points: 1 digit asked."""
    if k == 1:
        return 12
    return 4 if k <= 1000 else (3 if k <= 100_000 else 1)


#: The shipped grids' noise multipliers, sampling rates and deltas.
_SIGMAS = ("1/2", "4/5", "1", "2", "4")
_RATES = ("1/1000", "1/256", "1/100", "1/25", "1/10")
_DELTAS = ("1e-3", "1e-5", "1e-10", "1e-15", "1e-20")


def dpsgd_grid(which: str = "curated") -> list[dict]:
    """The DP-SGD grid: ``"curated"`` (shipped; builds in a few minutes) or ``"full"``.

    ``curated``, in three tiers by the digits each computation reaches:

    * unsampled Gaussians, 12 digits (Gaussian DP's closed form): sigma 0.5 to 8, 1 to 10^6
      steps, delta 1e-3 to 1e-20, add/remove and replace-one, and delta(eps) for eps 0.5 to 10;
    * one Poisson-subsampled Gaussian step, 12 digits (its closed form, Accounting Lemma 11):
      sigma in {0.5, 0.8, 1, 2, 4}, q in {1/1000, 1/256, 0.01, 0.04, 0.1}, delta 1e-3 to 1e-20 and
      delta(eps) for eps 0.001 to 4 under add/remove, and fewer under replace-one, remove and add;
    * many Poisson-subsampled Gaussian steps, 3-4 digits (the certified lattice, whose width
      shrinks as the square of its step: 12 digits would need about 10^4 times the points of 4):
      sigma 1 and 2, q 1/256 and 0.01, 100 to 10^5 steps, delta 1e-5 and 1e-10 (1e-15 and 1e-20
      at 3000 steps), each relation, delta(eps); a Laplace pair and a 3-phase schedule.

    ``full``: sigma in {0.5, 0.8, 1, 2, 4}, q in {1/1000, 1/256, 0.01, 0.04, 0.1},
    k in {1, 10, ..., 10^6}, delta in {1e-3, 1e-5, 1e-10, 1e-15, 1e-20}, add/remove, at the
    digits of :func:`_digits_for` (queries beyond the cost model become error records), plus the
    curated grid.

    Guarantee: exact (the queries). Raises: InvalidArgument (unknown grid).

    Examples:
        >>> g = dpsgd_grid()
        >>> 500 <= len(g) <= 700, all("events" in e for e in g)
        (True, True)
    """
    parse_choice(which, "grid", EVENT_GRIDS)
    out = _gaussian_grid() + _one_step_grid() + _sampled_grid()
    if which == "full":
        out += _full_grid()
    unique: dict = {}
    for e in out:  # the grids overlap: each query once, with the union of its tags (as the build merges them)
        key = json.dumps({k: v for k, v in e.items() if k != "tags"}, sort_keys=True)
        if key in unique:
            unique[key]["tags"] += [t for t in e["tags"] if t not in unique[key]["tags"]]
        else:
            unique[key] = dict(e, tags=list(e["tags"]))
    return list(unique.values())


def _gaussian_grid() -> list[dict]:
    """Unsampled Gaussians: the mu-GDP closed form, 12 digits."""
    out = []
    for sigma in ("1/2", "1", "2", "4"):
        for k in (1, 100, 10_000, 1_000_000):
            for d in ("1e-3", "1e-5", "1e-10", "1e-20"):
                out.append(_e(_ev(sigma, None, k), ["gaussian", "closed-form"], 12, delta=d))
    for k in (1, 100, 10_000, 1_000_000):
        for d in ("1e-5", "1e-20"):
            out.append(_e(_ev("1", None, k), ["gaussian", "closed-form", "replace-one"], 12, "replace_one", delta=d))
    for k in (1, 100, 10_000):
        for eps in ("1", "10"):
            out.append(_e(_ev("1", None, k), ["gaussian", "closed-form", "delta-of-eps"], 12, eps=eps))
    return out + _gaussian_wide_grid()


def _gaussian_wide_grid() -> list[dict]:
    """More unsampled Gaussians, 12 digits (a query also in :func:`_gaussian_grid` is one vector)."""
    out = []
    for sigma in _SIGMAS + ("8",):
        for k in (1, 10, 100, 1000, 10_000, 100_000, 1_000_000):
            for d in _DELTAS:
                out.append(_e(_ev(sigma, None, k), ["gaussian", "closed-form"], 12, delta=d))
    top = {"1/2": 10, "1": 10, "2": 5, "4": 2}  # one step's largest eps: delta above 1e-30 (not below floats)
    for sigma in ("1/2", "1", "2", "4"):
        for k in (1, 100, 10_000, 1_000_000):
            for eps in ("1/2", "1", "2", "5", "10"):
                if k == 1 and Fraction(eps) > top[sigma]:
                    continue
                out.append(_e(_ev(sigma, None, k), ["gaussian", "closed-form", "delta-of-eps"], 12, eps=eps))
    for sigma in ("1/2", "2"):
        for k in (1, 100, 10_000, 1_000_000):
            for d in ("1e-5", "1e-20"):
                out.append(_e(_ev(sigma, None, k), ["gaussian", "closed-form", "replace-one"], 12, "replace_one", delta=d))
    return out


def _one_step_grid() -> list[dict]:
    """One Poisson-subsampled Gaussian step: its closed form (Accounting Lemma 11), 12 digits."""
    tags = ["dpsgd", "one-step", "subsampled-closed-form"]
    out = [_e(_ev(sigma, q, 1), tags, 12, delta=d) for sigma in _SIGMAS for q in _RATES for d in _DELTAS]
    # eps by sigma: delta between about 1e-2 and 1e-25 over the rates (more noise, smaller eps)
    epss = {"1/2": ("1/10", "1", "4"), "4/5": ("1/10", "1", "2"), "1": ("1/10", "1", "2"), "2": ("1/100", "1/10", "1/4"),
            "4": ("1/1000", "1/300", "1/100")}
    out += [_e(_ev(sigma, q, 1), tags + ["delta-of-eps"], 12, eps=eps)
            for sigma in _SIGMAS for q in _RATES for eps in epss[sigma]]
    out += [_e(_ev(sigma, q, 1), tags + ["replace-one"], 12, "replace_one", delta=d)
            for sigma in ("1/2", "1", "2") for q in ("1/256", "1/100", "1/10") for d in _DELTAS]
    out += [_e(_ev(sigma, q, 1), tags + [rel], 12, rel, delta=d)
            for rel in ("remove", "add") for sigma in ("1", "2") for q in ("1/256", "1/10")
            for d in ("1e-5", "1e-10", "1e-20")]
    return out


def _sampled_grid() -> list[dict]:
    """Poisson-subsampled Gaussians (DP-SGD) of many steps, Laplace and a schedule: the certified
    accountant's lattice (one step is :func:`_one_step_grid`'s)."""
    out = []
    for sigma in ("1", "2"):
        for q in ("1/256", "1/100"):
            for k in (100, 10_000):
                for d in ("1e-5", "1e-10"):
                    out.append(_e(_ev(sigma, q, k), ["dpsgd", "accountant"], _digits_for(k), delta=d))
    out.append(_e(_ev("1", "1/256", 100_000), ["dpsgd", "accountant", "huge-k"], 3, delta="1e-5"))
    out.append(_e(_ev("2", "1/100", 100_000), ["dpsgd", "accountant", "huge-k"], 3, delta="1e-10"))
    out.append(_e(_ev("1", "1/100", 100), ["dpsgd", "accountant"], 4, delta="1e-3"))
    for d in ("1e-15", "1e-20"):
        out.append(_e(_ev("2", "1/100", 3000), ["dpsgd", "accountant", "tiny-delta"], 4, delta=d))
    for rel in ("remove", "add", "replace_one"):
        out.append(_e(_ev("1", "1/256", 1000), ["dpsgd", "accountant", rel.replace("_", "-")], 4, rel, delta="1e-5"))
    for eps in ("1/2", "1"):
        out.append(_e(_ev("1", "1/256", 1000), ["dpsgd", "accountant", "delta-of-eps"], 3, eps=eps))  # 4 digits: minutes
    # Laplace, and a 3-phase schedule (noise raised, batch doubled)
    for k in (1, 10):
        out.append(_e(Composed([(Laplace(1), k)]).to_json(), ["laplace", "accountant"], 4, delta="1e-5"))
    sched = Composed([(PoissonSampled(Gaussian(1), "1/256"), 4000), (PoissonSampled(Gaussian("3/2"), "1/128"), 4000),
                      (PoissonSampled(Gaussian(2), "1/64"), 2000)])  # dyadic: floats
    out.append(_e(sched.to_json(), ["schedule", "accountant"], 3, delta="1e-5"))
    return out


def _full_grid() -> list[dict]:
    return [_e(_ev(sigma, q, k), ["dpsgd", "accountant" if k > 1 else "subsampled-closed-form", "full"],
               _digits_for(k), delta=d)
            for sigma in _SIGMAS for q in _RATES
            for k in (1, 10, 100, 1000, 10_000, 100_000, 1_000_000) for d in _DELTAS]

