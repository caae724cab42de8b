"""The curated grid of the shipped conformance corpus: a few hundred queries chosen to cover
every S(t) kernel, exact and certified engines, ties, infinite answers, delta_i > 0 and huge k.

Each entry is a query object (:mod:`exactdp.batch.query`) with ``"tags"`` saying why it
is there. Numbers are exact rational strings (``"1/10"`` is one tenth, ``e^{1/10}``
transcendental: the certified engine; ``exp_eps`` rationals: the exact engine).
"""

from __future__ import annotations

__all__ = ["curated_grid"]


def _mech(eps=None, exp_eps=None, delta="0", k=1) -> dict:
    m: dict = {"eps": eps} if eps is not None else {"exp_eps": exp_eps}
    m["delta"] = delta
    m["k"] = k
    return m


def _q(mechs: dict, tags: list, *, method: str = "auto", **question) -> dict:
    d = {"mechanisms": mechs, **{k: v for k, v in question.items()}, "tags": tags}
    if method != "auto":
        d["method"] = method
    return d


def curated_grid() -> list[dict]:
    """The curated grid (see the module docstring), in a fixed order.

    Guarantee: exact (the queries). Raises: nothing.

    Examples:
        >>> g = curated_grid()
        >>> 200 <= len(g) <= 400, len({str(sorted(q.items())) for q in g}) == len(g)
        (True, True)
    """
    out: list[dict] = []
    # homogeneous: the KOV / homogeneous kernel, exact (rational e^eps) and certified (rational eps)
    homs = [
        (dict(eps=["1/10"]), ["pure", "certified-input"]),
        (dict(eps=["1"]), ["pure", "certified-input"]),
        (dict(exp_eps=["11/10"]), ["pure", "exact-input"]),
        (dict(exp_eps=["2"]), ["pure", "exact-input"]),
        (dict(eps=["1/2"], delta="1/1000000"), ["approximate", "certified-input"]),
        (dict(exp_eps=["3/2"], delta="1/1000"), ["approximate", "exact-input"]),
    ]
    for spec, tags in homs:
        for k in (1, 2, 10, 100, 1000):
            m = _mech(k=k, **spec)
            for dg in ("1/1000000", "1/1000", "1/10"):
                out.append(_q(m, ["homogeneous"] + tags, delta_g=dg))
            if "eps" in spec:
                for eg in ("0", "1"):
                    out.append(_q(m, ["homogeneous"] + tags, eps_g=eg))
            else:
                for tg in ("2", "10"):
                    out.append(_q(m, ["homogeneous"] + tags, exp_eps_g=tg))
    # lattice: commensurable eps (a common base), some with delta_i > 0
    lats = [
        (dict(eps=["1/10", "1/5", "3/10"]), ["pure", "certified-input"]),
        (dict(exp_eps=["2", "4", "8"], delta=["0", "1/1000000", "0"]), ["approximate", "exact-input"]),
        (dict(exp_eps=["3/2", "9/4"]), ["pure", "exact-input"]),
    ]
    for spec, tags in lats:
        for k in (1, 3, 10):
            m = _mech(k=k, **spec)
            for method in ("auto", "lattice"):
                out.append(_q(m, ["lattice"] + tags, method=method, delta_g="1/1000000"))
            out.append(_q(m, ["lattice"] + tags, delta_g="1/100"))
            if "eps" in spec:
                out.append(_q(m, ["lattice"] + tags, eps_g="1/2"))
            else:
                out.append(_q(m, ["lattice"] + tags, exp_eps_g="3"))
    # grouped: incommensurable e^eps (2, 3, 5 are no powers of one base)
    for spec, tags in [(dict(exp_eps=["2", "3", "5"]), ["pure", "exact-input"]),
                       (dict(exp_eps=["11/10", "6/5", "3/2"], delta=["1/1000", "0", "1/10000"]),
                        ["approximate", "exact-input"])]:
        for k in (1, 2, 4):
            m = _mech(k=k, **spec)
            for method in ("auto", "grouped"):
                out.append(_q(m, ["grouped"] + tags, method=method, delta_g="1/1000"))
                out.append(_q(m, ["grouped"] + tags, method=method, exp_eps_g="2"))
    # meet-in-the-middle and brute force, on the same compositions (the tests compare them)
    for spec in (dict(exp_eps=["2", "3", "5", "7"], k=2), dict(exp_eps=["11/10", "13/10", "17/10", "19/10", "23/10"],
                                                                 delta="1/100000")):
        m = _mech(**spec)
        for method in ("mitm", "brute", "grouped"):
            out.append(_q(m, [method, "cross-method"], method=method, delta_g="1/1000"))
            out.append(_q(m, [method, "cross-method"], method=method, delta_g="1/10"))
            out.append(_q(m, [method, "cross-method"], method=method, exp_eps_g="3/2"))
            out.append(_q(m, [method, "cross-method"], method=method, exp_eps_g="10"))
    # ties: answers exactly at a breakpoint of S(t)
    out.append(_q(_mech(exp_eps=["2"], k=2), ["tie", "exact-input"], delta_g="2/9"))        # eps_g = ln 2 exactly
    out.append(_q(_mech(exp_eps=["2"], k=2), ["tie", "exact-input"], exp_eps_g="2"))        # delta_g = 2/9
    out.append(_q(_mech(exp_eps=["2"], k=2), ["tie", "exact-input"], exp_eps_g="4"))        # at prod w_i: delta_g = 0
    out.append(_q(_mech(eps=["1/10"], k=10), ["tie", "certified-input"], eps_g="1"))       # at sum eps_i: 0
    out.append(_q(_mech(eps=["1/10"], k=10), ["tie", "certified-input"], eps_g="2"))       # beyond: 0
    out.append(_q(_mech(eps=["1/10"], k=10), ["tie", "certified-input"], delta_g="0"))     # delta_g 0: sum eps_i
    out.append(_q(_mech(eps=["1/2"], delta="1/1000", k=3), ["tie", "approximate"], delta_g="2997001/1000000000"))
    # delta_g = 1 - (1 - 1/1000)^3 exactly: the least eps is sum eps_i = 3/2
    for i in range(1, 5):  # KOV breakpoints eps_g = (k - 2i) eps, k = 10
        out.append(_q(_mech(eps=["1/10"], k=10), ["tie", "kov-breakpoint", "certified-input"], eps_g=f"{10 - 2 * i}/10"))
        out.append(_q(_mech(exp_eps=["2"], k=10), ["tie", "kov-breakpoint", "exact-input"], exp_eps_g=str(2 ** (10 - 2 * i))))
    # infinite answers: delta_g below 1 - prod(1 - delta_i)
    for spec, dg in [(dict(eps=["1"], delta="1/1000", k=10), "1/1000"), (dict(eps=["1"], delta="1/10", k=1), "1/20"),
                     (dict(exp_eps=["2", "3"], delta=["1/100", "0"], k=5), "1/100"),
                     (dict(eps=["1/10"], delta="1/1000000", k=1000), "1/10000"),
                     (dict(exp_eps=["2"], delta="1/1000", k=2), "0")]:
        out.append(_q(_mech(**spec), ["infinite", "approximate"], delta_g=dg))
    # heterogeneous with delta_i > 0, incommensurable eps (the grouped kernel, certified)
    for k in (1, 5):
        m = _mech(eps=["1/10", "1/2", "1"], delta=["0", "1/1000000", "1/10000"], k=k)
        for dg in ("1/1000", "1/100"):
            out.append(_q(m, ["heterogeneous", "approximate", "certified-input"], delta_g=dg))
        for eg in ("1/2", "2"):
            out.append(_q(m, ["heterogeneous", "approximate", "certified-input"], eps_g=eg))
    # huge k: the homogeneous kernel at 10^4 and 10^5, and a heterogeneous lattice at 10^4
    for k in (10_000, 100_000):
        m = _mech(eps=["1/10"], k=k)
        out.append(_q(m, ["huge-k", "homogeneous", "pure"], delta_g="1/1000000"))
        out.append(_q(m, ["huge-k", "homogeneous", "pure"], delta_g="1/1000000000"))
        out.append(_q(m, ["huge-k", "homogeneous", "pure"], eps_g="50"))
    out.append(_q(_mech(eps=["1/100"], delta="1/10000000000", k=100_000), ["huge-k", "homogeneous", "approximate"],
                  delta_g="1/100000"))
    m = _mech(eps=["1/10", "1/5"], k=5_000)
    out.append(_q(m, ["huge-k", "lattice", "pure"], delta_g="1/1000000"))
    out.append(_q(m, ["huge-k", "lattice", "pure"], eps_g="20"))
    m = _mech(exp_eps=["101/100"], k=10_000)
    out.append(_q(m, ["huge-k", "homogeneous", "exact-input"], delta_g="1/1000000"))
    out.append(_q(m, ["huge-k", "homogeneous", "exact-input"], exp_eps_g="2"))
    return out
