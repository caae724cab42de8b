"""Tests of the library cross-checks of the Vadhan-Wang and Vadhan-Zhang entries (issue 12).

* The cross-checks can fail: a library function replaced by a wrong one makes the entry that
  compares against it unsettled (a library issue), while the entry's own status (the paper's
  judgement by the independent transcription) is unchanged.
* Regressions of the bridge and of the independent transcription found while adding them:
  a simulator of RR_(eps,0) has the inputs 0, 1 only (no Iam0/Iam1), and the two-sided least
  e^eps of a pair is the larger of the two one-sided ones (not an interpolation of their maximum).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from exactdp_proofs._framework import entries, run_entry


def _entry(paper: str, id: str):
    es = {e[0]: e for e in entries(paper)}
    return es[id]


def _run(paper: str, id: str):
    return run_entry(paper, *_entry(paper, id))


# --------------------------------------------------------------------------
# a wrong library function makes the entry unsettled


def _wrong_tradeoff_sup(functions, **kw):
    from exactdp.fdp import TradeOff

    return TradeOff.identity()


def _wrong_mechanism_tradeoff(mech, **kw):
    from exactdp.fdp import f_eps_delta

    return f_eps_delta(exp_eps=2)


def _wrong_renyi_concurrent(mechanisms, alpha, **kw):
    from exactdp.renyi import renyi_divergence

    r = renyi_divergence(["1/2", "1/2"], ["1/3", "2/3"], alpha)
    return r, [r for _ in mechanisms]


def _wrong_find_simulator(mech, exp_eps, delta=0):
    from exactdp.interactive.simulator import SimulationResult

    return SimulationResult(status="infeasible", T=None, lp=None, variables=0, constraints=0)


def _wrong_hockey_delta(self, eps=None, *, exp_eps=None, digits=None):
    from exactdp.numbers.enclosure import Enclosure

    return Enclosure(F(0), F(0))


@pytest.mark.parametrize(
    "paper, id, module, attr, wrong",
    [
        ("vadhan_zhang", "Lemma 2.4", "exactdp.fdp", "tradeoff_sup", _wrong_tradeoff_sup),
        ("vadhan_zhang", "Theorem 4.1", "exactdp.interactive", "mechanism_tradeoff", _wrong_mechanism_tradeoff),
        ("vadhan_zhang", "Theorem 5.1", "exactdp.renyi", "renyi_concurrent", _wrong_renyi_concurrent),
        ("vadhan_wang", "Theorem 5.1", "exactdp.interactive", "find_simulator", _wrong_find_simulator),
        ("vadhan_zhang", "Definition 1.8", "exactdp.fdp.TradeOff", "delta", _wrong_hockey_delta),
    ],
)
def test_a_wrong_library_function_unsettles_the_entry(monkeypatch, paper, id, module, attr, wrong):
    import importlib

    good = _run(paper, id)
    assert good.settled and not good.issues, (id, good.status, good.issues)
    if module.endswith(".TradeOff"):
        target = importlib.import_module(module.rsplit(".", 1)[0]).TradeOff
    else:
        target = importlib.import_module(module)
    monkeypatch.setattr(target, attr, wrong)
    bad = _run(paper, id)
    assert bad.issues, (id, bad.status, bad.evidence[-500:])
    assert not bad.settled
    assert bad.status == good.status  # the paper's judgement does not depend on the library


# --------------------------------------------------------------------------
# regressions


def test_bridge_reads_a_pure_dp_simulator():
    """find_simulator at delta = 0 returns T on the inputs (0, 1) only: the bridge must not ask for Iam0/Iam1."""
    from exactdp.interactive import find_simulator
    from exactdp_proofs.vadhan_wang import _dp as D
    from exactdp_proofs.vadhan_wang import _interactive as I
    from exactdp_proofs.vadhan_wang._library import from_lib, to_lib

    m = I.noninteractive({0: F(3, 4), 1: F(1, 4)}, {0: F(1, 4), 1: F(3, 4)})
    for delta, inputs in ((F(0), (0, 1)), (F(1, 10), (0, 1, D.IAM0, D.IAM1))):
        r = find_simulator(to_lib(m), 3, delta)
        assert r.status == "verified"
        assert tuple(from_lib(r.T, m).cond) == inputs


def test_two_sided_least_t_is_the_larger_one_sided():
    """The worst adversary of a Section 6 mechanism at delta = 1/2: (ln 2, 1/2)-DP in both orders (least), not 82/39."""
    from exactdp_proofs.vadhan_wang import _dp as D

    P = {(0, 0): F(3, 8), (0, 1): F(1, 8), (1, 0): F(7, 24), (1, 1): F(5, 24)}
    Q = {(0, 1): F(3, 4), (1, 0): F(3, 16), (1, 1): F(1, 16)}
    t = D.hockey_least_t(P, Q, F(1, 2))
    assert t == 2
    assert D.dp_delta(P, Q, t) <= F(1, 2) < D.dp_delta(P, Q, t - F(1, 1000))


@pytest.mark.parametrize("paper, id", [("vadhan_wang", "Theorem 5.1"),
                                       ("vadhan_wang", "Theorem 5.2 (proof: Section 6 experiment, RR_(eps,delta) "
                                                       "simulates 2-round 1-bit mechanisms)")])
def test_formerly_broken_vw_crosschecks_are_settled(paper, id):
    c = _run(paper, id)
    assert c.status == "checked" and c.settled, (c.status, c.issues, c.evidence[-800:])
    assert "Library cross-check" in c.evidence
