"""The DP-SGD corpus and audit: the shipped vectors against independent references (mpmath closed
forms of tests/accounting/dp_reference.py), verification catching tampering, the audit's verdicts on
a deliberately wrong toy peer and on the real peers where installed, and the command line."""

from __future__ import annotations

import json
import sys
from fractions import Fraction as F
from pathlib import Path

import mpmath as mp
import pytest

from exactdp.cli import main
from exactdp.corpus import build_corpus, dpsgd_grid, load_corpus, verify_corpus
from exactdp.corpus.events import prepare_event
from exactdp.errors import InvalidArgument
from exactdp.noise_events import Composed, Gaussian, PoissonSampled, event_from_json
from exactdp.testing import check_events, corpus_cases

sys.path.insert(0, str(Path(__file__).parents[1] / "accounting"))
import dp_reference as R  # noqa: E402

VECTORS = load_corpus(suite="dpsgd")


def _ends(v):
    return F(v["value"]["lower"]), F(v["value"]["upper"])


def _mu_sq(v):
    ev = event_from_json(v["events"])
    c = 2 if v["relation"] == "replace_one" else 1
    return sum(n * (c * leaf.sensitivity / leaf.sigma) ** 2 for leaf, n in ev.leaves())


def test_shipped_corpus_is_the_curated_grid_with_a_manifest():
    assert len(VECTORS) == len(dpsgd_grid())
    assert {prepare_event(e)[0] for e in dpsgd_grid()} == {v["id"] for v in VECTORS}
    assert all("value" in v for v in VECTORS)  # nothing refused in the curated grid
    steps = [sum(p["count"] for p in v["events"]["parts"]) for v in VECTORS]
    assert min(steps) == 1 and max(steps) == 10**6
    deltas = [F(v["query"]["delta"]) for v in VECTORS if "delta" in v["query"]]
    assert min(deltas) < F(1, 10**19) and max(deltas) > F(1, 10**3) - F(1, 10**6)
    for v in VECTORS:
        lo, hi = _ends(v)
        assert lo <= hi and v["seconds"] >= 0 and v["exactdp_version"]
        if "closed-form" in v["tags"]:
            assert v["digits"] == 12 and v["method"] == "gdp-closed-form"
            assert hi - lo <= hi * F(1, 10**11)
        if "one-step" in v["tags"]:
            assert v["digits"] == 12 and v["method"] == "subsampled-closed-form"
            assert hi - lo <= hi * F(1, 10**11)
    # the target: at least 500 vectors at 12 digits, from 1 to 10^6 steps, delta 1e-3 to 1e-20
    twelve = [v for v in VECTORS if v["digits"] >= 12]
    assert len(twelve) >= 500
    assert {1, 10**6} <= {sum(p["count"] for p in v["events"]["parts"]) for v in twelve}


@mp.workdps(60)  # the ends as 60-digit numbers (the references compute at 50)
def test_closed_form_vectors_contain_the_mpmath_closed_form():
    for v in VECTORS:
        if "closed-form" not in v["tags"]:
            continue
        mu = R.mpf(_mu_sq(v)) ** 0.5
        lo, hi = _ends(v)
        if v["query"]["kind"] == "epsilon":
            d = R.mpf(F(v["query"]["delta"]))
            # delta_mu is decreasing in eps: eps* in [lo, hi] iff delta_mu(lo) >= delta >= delta_mu(hi)
            assert R.gdp_delta(mu, R.mpf(lo)) >= d >= R.gdp_delta(mu, R.mpf(hi)), v["id"]
        else:
            t = R.gdp_delta(mu, R.mpf(F(v["query"]["eps"])))
            assert R.mpf(lo) <= t <= R.mpf(hi), v["id"]


@mp.workdps(60)
def test_one_step_subsampled_vectors_contain_the_mpmath_references():
    """Every one-step subsampled vector (its closed form, 12 digits) against the mpmath references of
    tests/accounting/dp_reference.py: add/remove, remove and add from the mixture pair's hockey-stick
    divergence (sub_delta), replace-one from a root of its log-density ratio (replace_delta)."""
    checked = {}
    for v in VECTORS:
        leaves = event_from_json(v["events"]).leaves()
        if len(leaves) != 1:
            continue
        [(leaf, n)] = leaves
        if n != 1 or not isinstance(leaf, PoissonSampled):
            continue
        sigma, q, rel = leaf.event.sigma, leaf.sample_rate, v["relation"]
        lo, hi = _ends(v)

        def delta_at(e):
            if rel == "replace_one":
                return R.replace_delta(e, sigma, q)
            dirs = ("remove", "add") if rel == "add_remove" else (rel,)
            return max(R.sub_delta(R.mpf(e), sigma, q, 1, d) for d in dirs)

        if v["query"]["kind"] == "epsilon":
            d = R.mpf(F(v["query"]["delta"]))
            if hi == 0:  # epsilon 0: delta(0) (the total variation) is already at most delta
                assert delta_at(0) <= d, v["id"]
            else:  # delta(eps) is decreasing: eps* in [lo, hi] iff delta(lo) >= delta >= delta(hi)
                assert delta_at(lo) >= d >= delta_at(hi), v["id"]
        else:
            t = delta_at(F(v["query"]["eps"]))
            assert R.mpf(lo) <= t <= R.mpf(hi), v["id"]
        checked[rel] = checked.get(rel, 0) + 1
    assert checked.get("add_remove", 0) >= 150 and checked.get("replace_one", 0) >= 40
    assert checked.get("remove", 0) >= 6 and checked.get("add", 0) >= 6


def test_verify_the_closed_form_part_and_catch_tampering(tmp_path):
    r = verify_corpus(suite="dpsgd", tags=["closed-form"])
    assert r["checked"] >= 70 and r["mismatch"] == 0 and r["error"] == 0 and r["manifest_ok"]
    # a vector moved off its enclosure is a mismatch; the manifest no longer matches
    vs = [v for v in VECTORS if "closed-form" in v["tags"]][:3]
    lo, hi = _ends(vs[0])
    vs[0] = dict(vs[0], value={"lower": str(float(hi) * 1.01), "upper": str(float(hi) * 1.02), "infinite": False})
    p = tmp_path / "vectors.jsonl"
    p.write_text("".join(json.dumps(v) + "\n" for v in vs))
    r = verify_corpus(str(p))
    assert r["mismatch"] == 1 and r["ok"] == 2


@pytest.mark.slow
def test_verify_the_quick_accountant_vectors(tmp_path):
    # the lattice accountant's vectors that took under 5 s each (the whole corpus: `exactdp corpus verify --suite
    # dpsgd`, about as long as its build, minutes; its closed-form tiers take seconds)
    quick = [v for v in VECTORS if v["method"] == "accountant" and v["seconds"] < 5][:6]
    p = tmp_path / "vectors.jsonl"
    p.write_text("".join(json.dumps(v) + "\n" for v in quick))
    r = verify_corpus(str(p))
    assert r["checked"] == len(quick) >= 5 and r["mismatch"] == 0 and r["error"] == 0


def test_build_a_small_event_corpus_and_refuse_bad_entries(tmp_path):
    grid = [e for e in dpsgd_grid() if "closed-form" in e["tags"]][:4]
    man = build_corpus(str(tmp_path / "c"), grid)
    assert man["vectors"] == 4 and man["errors"] == 0 and man["methods"] == {"gdp-closed-form": 4}
    assert build_corpus(str(tmp_path / "c"), grid).get("up_to_date")
    bad = dict(grid[0], relation="swap")
    with pytest.raises(InvalidArgument, match=r"grid\[0\]\.relation"):
        build_corpus(str(tmp_path / "d"), [bad])
    with pytest.raises(InvalidArgument, match="exactly one of delta, eps"):
        build_corpus(str(tmp_path / "d"), [dict(grid[0], eps="1")])


def test_check_events_on_the_shipped_corpus():
    cases = corpus_cases("dpsgd")
    assert len(cases) == len(VECTORS) and all(c.certified is not None for c in cases)

    def upper_end(scale):
        # (epsilon cases only: check_events asks those; a delta(eps) case may share its event and query)
        ends = {(c.event, c.relation, c.query): c.certified.upper for c in cases if c.direction == "epsilon"}
        return lambda ev, q, rel: float(ends[(ev, rel, q)]) * scale

    # the certified upper end (rounded up to a float) is sound; 10 % below it is unsound (where it is not 0:
    # a step whose total variation is already below delta has epsilon 0 exactly)
    assert check_events(upper_end(1 + 2**-40)).ok
    low = check_events(upper_end(0.9))
    assert len(low.unsound) == len([c for c in cases if c.direction == "epsilon" and c.certified.upper > 0])


# -- the audit ------------------------------------------------------------------------------------


@pytest.fixture
def toy_peer(monkeypatch):
    """A deliberately wrong peer: its upper bound is the mpmath closed form minus 10 %, its lower
    bound the closed form plus 10 %, its estimate the closed form with a bar of 1 %."""
    from exactdp.audit import dpsgd as A

    def truth(sigma, q, k, delta):
        mu = R.mpf(k) ** 0.5 / R.mpf(sigma)
        return float(R.invert(lambda e: R.gdp_delta(mu, e), R.mpf(delta), hi=10**7))

    def run(knob, sigma, q, k, relation, direction, query):
        t = truth(sigma, q, k, query)
        return {"upper": 0.9 * t, "lower": 1.1 * t, "estimate": t, "error": 0.01 * t}

    def why_not(knob, sigma, q, k, relation, direction, query):
        if q < 1 or direction != "epsilon" or relation != "add_remove":
            return "not run: the toy knows unsampled Gaussians only"
        return None

    toy = A.DpsgdPeer("toy", "math", "no-such-dist", "peers", {"wrong": "10 % off"}, run,
                      lambda *a: "toy()", why_not)
    monkeypatch.setitem(A.DPSGD_PEERS, "toy", toy)
    return toy


def test_audit_judges_each_claim_of_a_wrong_peer(toy_peer, tmp_path):
    from exactdp.audit.dpsgd import dpsgd_markdown, findings, run_dpsgd_audit, summarize_dpsgd

    corpus = tmp_path / "c"
    build_corpus(str(corpus), [e for e in dpsgd_grid() if "closed-form" in e["tags"]][:6])
    recs = run_dpsgd_audit(["toy"], str(corpus), out=str(tmp_path / "a.jsonl"))
    by = {}
    for r in recs:
        by.setdefault(r["claim"], set()).add(r["verdict"])
    assert by == {"upper": {"unsound"}, "lower": {"invalid"}, "estimate": {"sound"}}
    assert all(r["severity"] == "material" for r in recs if r["verdict"] != "sound")
    f = findings(recs)
    assert set(f[0]) >= {"peer_config", "case", "answer", "claim", "certified", "verdict"}
    assert all("toy()" in x["reproduce"] for x in f if x["verdict"] in ("unsound", "invalid"))
    [row] = [s for s in summarize_dpsgd(recs) if s["claim"] == "upper"]
    assert row["unsound"] == 6 and row["material"] == 6 and -0.11 < row["worst_below"] < -0.09
    assert "| toy (None) | wrong | lower | 6 | 0 | 0 | 6 |" in dpsgd_markdown(recs)
    assert len((tmp_path / "a.jsonl").read_text().splitlines()) == 18


@pytest.mark.parametrize("name", ["dp_accounting", "prv_accountant"])
def test_audit_real_peer_on_tiny_delta(name):
    """Runs only where the peer is installed (pip install 'exactdp[peers]'): dp_accounting's
    optimistic PLD at delta 1e-15 lies above the certified upper end (invalid as a lower bound);
    prv_accountant refuses that delta."""
    from exactdp.audit.dpsgd import DPSGD_PEERS, audit_dpsgd_vector

    pytest.importorskip(DPSGD_PEERS[name].module, reason=f"{name} is not installed (pip install 'exactdp[peers]')")
    [v] = [v for v in VECTORS if "tiny-delta" in v["tags"] and F(v["query"]["delta"]) > F(1, 10**16)]
    knob = "pld-opt-1e-4" if name == "dp_accounting" else "eps_error=0.1"
    [r] = audit_dpsgd_vector(name, knob, v)["records"]
    if name == "dp_accounting":
        assert r["claim"] == "lower" and r["verdict"] == "invalid" and r["severity"] == "material"
        assert "get_epsilon_for_delta(1e-15)" in r["reproduce"]
    else:
        assert r["verdict"] == "error" and "delta" in r["reason"]


def test_dp_accounting_pessimistic_pld_below_the_closed_form():
    """Runs only where dp_accounting is installed: 100 Gaussian steps of sigma 1 (mu = 10) at delta
    1e-10, its pessimistic PLD (interval 1e-4) below the mu-GDP closed form (checked here in mpmath)."""
    from exactdp.audit.dpsgd import audit_dpsgd_vector

    pytest.importorskip("dp_accounting", reason="dp_accounting is not installed (pip install 'exactdp[peers]')")
    [v] = [v for v in VECTORS if v["id"] == "e7525f0efb86e9024429"]
    [r] = audit_dpsgd_vector("dp_accounting", "pld-pess-1e-4", v)["records"]
    with mp.workdps(50):
        truth = R.invert(lambda e: R.gdp_delta(10, e), R.mpf(F(v["query"]["delta"])), hi=1000)
        assert R.mpf(r["answer"]) < truth - R.mpf("1e-5")
    assert r["verdict"] == "unsound" and r["severity"] == "material" and "self_compose(100)" in r["reproduce"]


def test_cli_dpsgd_audit(capsys, toy_peer, monkeypatch):
    assert main(["audit", "--suite", "dpsgd", "--peer", "opacus", "--quick"]) == 2
    err = capsys.readouterr().err
    assert "exactdp[opacus]" in err and len(err.strip().splitlines()) == 1
    assert main(["audit", "--suite", "dpsgd", "--peer", "opendp", "--quick"]) == 2  # no DP-SGD adapter
    assert main(["audit", "--peer", "dp_accounting", "--corpus", "x", "--quick"]) == 2
    pytest.importorskip("dp_accounting", reason="dp_accounting is not installed (pip install 'exactdp[peers]')")
    capsys.readouterr()
    code = main(["audit", "--suite", "dpsgd", "--peer", "dp_accounting", "--knob", "rdp", "--quick", "--json",
                 "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["findings"] and {f["claim"] for f in out["findings"] if "claim" in f} == {"upper"}
    assert all(f["verdict"] in ("sound", "not-run") for f in out["findings"])


def test_event_grid_entries_are_float_exact():
    for e in dpsgd_grid():
        ev = event_from_json(e["events"])
        nums = [F(e.get("delta", e.get("eps")))]
        for leaf, _ in ev.leaves():
            if isinstance(leaf, PoissonSampled):
                nums.append(leaf.sample_rate)
                leaf = leaf.event
            if isinstance(leaf, Gaussian):
                nums.append(leaf.sigma)
        assert all(F(float(x)) == x for x in nums), e
    assert Composed([(Gaussian(1), 2)]).count == 2
