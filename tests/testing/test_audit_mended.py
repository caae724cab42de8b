"""The (eps, delta) audit's set-up and report: the randomized response standing for a small eps is
that eps (not 0), the Markdown keeps an optimum's exponent and rounds it outward, the grid asks
delta_g = 1e-10 at k = 10^3, and autodp's analytical Fourier accountant is one of its knobs."""

from __future__ import annotations

import math
from fractions import Fraction as F

from exactdp.audit import audit_grid, markdown
from exactdp.audit.peers import PEERS, RR_ROUNDING, _autodp_comp, _autodp_python, _rr_p, _rr_true


def test_randomized_response_keeps_small_eps():
    for eps in (1e-4, 1e-3, 0.1, 1.0):
        p = F(_rr_true(eps))
        e = math.log(p / (1 - p))                          # the mechanism the peer is given
        assert p.denominator & (p.denominator - 1) == 0 and abs(e - eps) <= RR_ROUNDING * eps
        assert F(_rr_p(eps)) == 2 * (1 - p)
    # at 2^-10 the probability for 1e-4 rounded to 1/2: eps = 0, another mechanism
    assert round((math.exp(1e-4) / (1 + math.exp(1e-4))) * 1024) / 1024 == 0.5
    (m, n), = _autodp_comp("randresponse", [(1e-4, 0.0, 10)]).groups()
    assert m.exp_eps != 1 and n == 10


def test_markdown_keeps_the_exponent_and_rounds_outward():
    rec = {"peer": "p", "version": "1", "knob": "k", "case": "c", "label": "l", "answer_name": "estimate",
           "direction": "delta", "query": 1.0, "answer": -3.9e-16, "status": "unsound", "excess": -4.5e3, "seconds": 0.1,
           "optimum": {"exact": None, "lower": "8.8267555208197405709e-20", "upper": "8.8267555208197405710e-20"}}
    md = markdown([rec])
    assert "[8.82675e-20, 8.82676e-20]" in md and "[8.82675552081974057," not in md


def test_grid_asks_delta_1e_10_at_k_1000():
    g = {c["id"]: c for c in audit_grid("full")}
    for cid in ("pure-0.1-k1000", "pure-1.0-k1000", "approx-0.1-1e-8-k1000", "lattice-n1000"):
        assert 1e-10 in g[cid]["delta_g"]
    assert 1e-10 not in g["pure-0.1-k100"]["delta_g"]


def test_autodp_compose_afa_is_a_knob():
    assert "randresponse-afa" in PEERS["autodp"].knobs
    src = _autodp_python("randresponse-afa", [(0.1, 0.0, 10)], "epsilon", 1e-6)
    assert src.startswith("ComposeAFA()([RandresponseMechanism(p=0.525390625, RDP_off=True, phi_off=False)], [10])")
