"""Tests of ``proofs/accounting`` (the accounting lemmas behind certified PLD accounting).

* The default run of the paper settles every entry, each ``checked``.
* Its statement text (``proofs/accounting/STATEMENTS.md``, kept in the repository) is found
  by the report, and its numbered statements are exactly ``NUMBERED``.
* ``@implements("Accounting Lemma N")`` links resolve to this paper.
* The checks can fail: for every lemma, at least one deliberately false variant of the
  statement (a mutant of the transcription the check uses) is refuted by the same check code.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
from fractions import Fraction as F

import mpmath
import pytest

from exactdp.cli import main
from exactdp.links import parse_link
from exactdp_proofs._framework import entries, run_entry
from exactdp_proofs._report import paper_numbered, paper_text_path
from exactdp_proofs.accounting import NUMBERED, parse_numbered

PAPER = "accounting"


@pytest.fixture(scope="module")
def run():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(["proofs", "--paper", PAPER, "--json", "--report", "-"])
    return rc, json.loads(out.getvalue())["results"]


def test_default_run_checks_every_lemma(run):
    rc, results = run
    assert rc == 0
    assert [r["id"] for r in results] == NUMBERED
    for r in results:
        assert r["status"] == "checked", (r["id"], r["evidence"])
        assert r["evidence"].startswith("N = ")


def test_statements_are_in_the_repository():
    path = paper_text_path(PAPER)
    assert path is not None and path.name == "STATEMENTS.md" and path.parent.name == "accounting"
    text = path.read_text(encoding="utf-8")
    assert parse_numbered(text) == NUMBERED == paper_numbered(PAPER)
    for cite in ("Balle, Wang", "Theorem 11", "Proposition 13", "Doroshenko", "replace_one"):
        assert cite in text


def test_parse_numbered():
    assert parse_numbered("## Lemma 2.\n\ntext Lemma 3.\n## Lemma 10.\n## Lemma 2.\n") == ["Lemma 2", "Lemma 10"]


def test_links_resolve():
    assert parse_link("Accounting Lemma 6") == ("accounting", "Lemma 6")


# --------------------------------------------------------------------------
# the checks can fail: false variants are refuted by the same check code


def _mutants():
    from exactdp_proofs.accounting import _discrete as D
    from exactdp_proofs.accounting import _gauss as G
    from exactdp_proofs.accounting import (
        lemma_1,
        lemma_2,
        lemma_3,
        lemma_4,
        lemma_5,
        lemma_6,
        lemma_7,
        lemma_8,
        lemma_10,
        lemma_11,
        lemma_12,
        lemma_13,
    )

    orig_law3, orig_lower, orig_cut_low = lemma_3.laplace_law, D.lattice_lower, D.cut_low
    orig_threshold = lemma_11.threshold

    def no_inf_mass(pair, alpha):  # Lemma 1 without the P(L = +inf) term
        return D.delta_formula((D.loss_law(pair)[0], F(0)), alpha)

    def bw_wrong(sigma, Delta, eps):  # Delta/sigma instead of Delta/(2 sigma)
        sigma, Delta, eps = (mpmath.mpf(x) for x in (sigma, Delta, eps))
        return G.Phi(-eps * sigma / Delta + Delta / sigma) - mpmath.exp(eps) * G.Phi(-eps * sigma / Delta - Delta / sigma)

    def laplace_atom_half(t):  # both atoms with P-mass 1/2
        atoms, dens = orig_law3(t)
        return {t: atoms[t], -t: mpmath.mpf(1) / 2}, dens

    def laplace_linear(t, eps):  # 1 - e^{eps - t} in the middle branch
        if eps <= -t:
            return 1 - mpmath.exp(eps)
        return max(mpmath.mpf(0), 1 - mpmath.exp(eps - t)) if eps < t else mpmath.mpf(0)

    def rr_swapped(p, m):  # the masses of the +- atoms swapped
        r = (m * (1 - p) + p) / p
        atoms = {}
        for e, w in ((r, p / m), (1 / r, 1 - p + p / m), (F(1), (m - 2) * p / m)):
            if w:
                atoms[e] = atoms.get(e, F(0)) + w
        return atoms, F(0)

    def add_pair_flipped(P, Q, q):  # (P, (1 - q) P + q Q): the add pair built on the wrong orientation
        return dict(P), lemma_5.mix(Q, P, q)

    def loss_map_swapped(e_l, q):
        return q + (1 - q) * e_l

    def lower_endpoint_only(pair, r, breaks):  # every bin's mass at its lower endpoint (losses rounded down)
        out = [(P, P / r ** a) for a, b, P, Q in D.bins_of(pair, r, breaks) if P]
        return out + D._specials(pair)

    def tau_flipped(steps, r, alpha):  # e^{eps - sum tau - sum l}
        return orig_lower([[(p_, i, -t) for p_, i, t in s] for s in steps], r, alpha)

    orig_shifted = lemma_8.shifted_formula

    def shift_ignored(steps, r, alpha):  # bins placed on the shifted lattice, the shift left out of eps
        return orig_shifted([(a, F(1)) for a, _ in steps], r, alpha)

    def cut_low_drops(law, c, upper):  # the low tail dropped on the upper side too
        return orig_cut_low(law, c, False)

    def per_step_max(rem, add, alpha):  # each step's direction chosen on its own (not a neighbouring relation)
        return max(D.hs(lemma_10.product_all([(r if s else a_) for r, a_, s in zip(rem, add, choice)]), alpha)
                   for choice in itertools.product((0, 1), repeat=len(rem)))

    def ar_same(q, Delta, s, eps):
        return lemma_6.add_remove_curve(q, Delta, s, eps)

    def ar_double(q, Delta, s, eps):
        return lemma_6.add_remove_curve(q, 2 * Delta, s, eps)

    orig_rule = lemma_12.rule_bound

    def outside_no_half(groups, R, theta):  # exp(-G) instead of exp(-G/2)
        return lemma_12.C(groups, lemma_12.mp(R)) * mpmath.exp(-lemma_12.G(groups, R, theta))

    def rule_twice(groups, R, r, M, d, N):  # e^(2dN) in the rule's denominator
        e = mpmath.exp(lemma_12.mp(d) * N)
        return orig_rule(groups, R, r, M, d, N) * (e - 1) / (e * e - 1)

    def integrand_squared_pole(groups, R, r, M, theta):  # 1 / (1 - z^-2): not the tail's generating function
        z = mpmath.expj(theta)
        return lemma_12.C(groups, R * z) * (r * z) ** (-M) / (1 - 1 / (r * z) ** 2)

    def mixed_min(rem, add, alpha):
        return min(D.hs(lemma_10.product_all(rem), alpha), D.hs(lemma_10.product_all(add), alpha))

    def threshold_minus_half(direction, t, q, eps):  # x* = t^2 ln(...) - 1/2: the wrong end of the half-line
        xs = orig_threshold(direction, t, q, eps)
        return xs - 1 if direction == "remove" else xs

    def threshold_wrong_root(direction, t, q, eps):  # the replace-one quadratic's root without its factor 2a
        xs = orig_threshold(direction, t, q, eps)
        if direction != "replace_one":
            return xs
        return xs + mpmath.mpf(t) ** 2 * mpmath.log(2 * q * mpmath.exp(-1 / (2 * mpmath.mpf(t) ** 2)))

    def split_linear(p_, i, m, r):  # P-mass kept by interpolating linearly in l (the Q-mass is not kept)
        j = i // m
        if i == m * j:
            return [(i, p_)]
        p_b = p_ * F(i - m * j, m)
        return [(m * j, p_ - p_b), (m * (j + 1), p_b)]

    def merged_mean_nearest(parts, m, r):  # the P-weighted mean of the indices, at its nearest coarse point
        P = sum(q for _, q in parts)
        mean = sum(i * q for i, q in parts) / P
        return m * round(mean / m)

    return [
        ("Lemma 1", lemma_1, "formula", no_inf_mass),
        ("Lemma 2", G, "gauss_delta", bw_wrong),
        ("Lemma 2", lemma_2, "composed_sensitivity", lambda Delta, k: mpmath.mpf(Delta) * k),
        ("Lemma 3", lemma_3, "laplace_law", laplace_atom_half),
        ("Lemma 3", lemma_3, "laplace_delta", laplace_linear),
        ("Lemma 4", lemma_4, "law_replace", rr_swapped),
        ("Lemma 5", lemma_5, "add_pair", add_pair_flipped),
        ("Lemma 5", lemma_5, "loss_map", loss_map_swapped),
        ("Lemma 6", lemma_6, "claim_curve", ar_same),
        ("Lemma 6", lemma_6, "claim_curve", ar_double),
        ("Lemma 7", lemma_7, "split", lower_endpoint_only),
        ("Lemma 8", lemma_8, "lower_formula", tau_flipped),
        ("Lemma 8", lemma_8, "shifted_formula", shift_ignored),
        ("Lemma 9", D, "cut_low", cut_low_drops),
        ("Lemma 9", D, "m_inf_bound", lambda a, b: max(a[1], b[1])),
        ("Lemma 10", lemma_10, "composed_delta", per_step_max),
        ("Lemma 10", lemma_10, "composed_delta", mixed_min),
        ("Lemma 11", lemma_11, "threshold", threshold_minus_half),
        ("Lemma 11", lemma_11, "threshold", threshold_wrong_root),
        ("Lemma 12", lemma_12, "outside_bound", outside_no_half),
        ("Lemma 12", lemma_12, "sin_ratio", lambda: mpmath.mpf(24) / 25),
        ("Lemma 12", lemma_12, "rule_bound", rule_twice),
        ("Lemma 12", lemma_12, "integrand", integrand_squared_pole),
        ("Lemma 13", lemma_13, "split_atom", split_linear),
        ("Lemma 13", lemma_13, "merged_point", merged_mean_nearest),
    ]


@pytest.mark.parametrize("i", range(len(_mutants())))
def test_false_variants_are_refuted(monkeypatch, i):
    id, module, attr, mutant = _mutants()[i]
    es = {e[0]: e for e in entries(PAPER)}
    monkeypatch.setattr(module, attr, mutant)
    bad = run_entry(PAPER, *es[id])
    assert bad.status == "refuted", (id, attr, bad.status, bad.evidence)
    assert bad.evidence.startswith("Counterexample:")
    assert not bad.settled


def test_every_lemma_has_a_mutant():
    assert {m[0] for m in _mutants()} == set(NUMBERED)
