"""The conformance corpus: the shipped vectors recomputed independently (reference formulas, not
exactdp's engines), coverage, verification catching tampering, and a build killed mid-run
(SIGKILL) and resumed with nothing lost or duplicated."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction as F

import mpmath
import pytest
from gt_reference import delta_exact, delta_homogeneous, delta_mp, exp_interval

from exactdp import InvalidArgument
from exactdp.cli import main
from exactdp.corpus import build_corpus, curated_grid, load_corpus, shipped_path, verify_corpus
from exactdp.events import Composition

VECTORS = load_corpus()


def _ends(v):
    return F(v["value"]["lower"]), F(v["value"]["upper"])


def _flat(v):
    """(ws as Fractions or None, eps as Fractions or None, deltas) of a vector's composition."""
    comp = Composition.from_json(v["composition"])
    ms = list(comp)
    return [m.exp_eps for m in ms], [m.eps for m in ms], [m.delta for m in ms], comp


def test_shipped_corpus_coverage_and_manifest():
    assert 200 <= len(VECTORS) <= 400
    man = json.load(open(os.path.join(shipped_path(), "manifest.json")))
    data = open(os.path.join(shipped_path(), "vectors.jsonl"), "rb").read()
    assert man["vectors"] == len(VECTORS) and man["vectors_sha256"] == hashlib.sha256(data).hexdigest()
    assert {v["method"] for v in VECTORS} == {"homogeneous", "lattice", "grouped", "mitm", "brute"}
    assert {v["engine"] for v in VECTORS} == {"exact", "certified"}
    tags = {t for v in VECTORS for t in v["tags"]}
    assert {"tie", "infinite", "huge-k", "approximate", "kov-breakpoint", "cross-method"} <= tags
    assert any(v["value"]["infinite"] for v in VECTORS)
    assert max(Composition.from_json(v["composition"]).k for v in VECTORS) == 100_000
    assert any(m.delta > 0 for v in VECTORS for m, _ in Composition.from_json(v["composition"]).groups())
    assert len({v["id"] for v in VECTORS}) == len(VECTORS) and not any("error" in v for v in VECTORS)
    # the grid that built it is the curated grid of this version
    assert man["exactdp_version"] == __import__("exactdp").__version__


def _delta_ref_exact(v, t):
    ws, _, ds, comp = _flat(v)
    groups = comp.groups()
    if len(groups) == 1:
        m, k = groups[0]
        return delta_homogeneous(m.exp_eps, m.delta, k, t)
    return delta_exact(ws, ds, t)


def _small_exact(v):
    ws, _, _, comp = _flat(v)
    return all(w is not None for w in ws) and (len(comp.groups()) == 1 and comp.k <= 1000 or comp.k <= 12)


@pytest.mark.parametrize("v", [v for v in VECTORS if v["query"]["kind"] == "delta" and _small_exact(v)],
                         ids=lambda v: v["id"])
def test_exact_delta_vectors_equal_the_reference(v):
    """Rational e^eps_i and a rational e^eps_g: the least delta is a rational, recomputed exactly."""
    q = v["query"]
    t = F(q["exp_eps_g"]) if "exp_eps_g" in q else (F(1) if F(q["eps_g"]) == 0 else None)
    if t is None:
        pytest.skip("eps_g > 0 with rational e^eps_i: e^eps_g transcendental (covered by the mpmath test)")
    ref = _delta_ref_exact(v, t)
    text = str(ref.numerator) if ref.denominator == 1 else f"{ref.numerator}/{ref.denominator}"
    if v["value"]["exact"] is None:   # too long to store: kept as its SHA-256
        assert v["value"]["exact_sha256"] == hashlib.sha256(text.encode()).hexdigest()
    else:
        assert v["value"]["exact"] == text
    lo, hi = _ends(v)
    assert lo <= ref <= hi


@pytest.mark.parametrize("v", [v for v in VECTORS if v["query"]["kind"] == "epsilon" and _small_exact(v)
                               and not v["value"]["infinite"]], ids=lambda v: v["id"])
def test_exact_epsilon_vectors_against_the_reference(v):
    """OptComp is the least t = e^eps_g with delta(t) <= delta_g: delta_ref(t*) <= delta_g, and just
    below t* (or below e^lower) delta_ref > delta_g; the decimals enclose ln t*."""
    D = F(v["query"]["delta_g"])
    t_star = F(v["value"]["exp_exact"]) if v["value"]["exp_exact"] is not None else None
    if t_star is None:
        pytest.skip("exp_exact omitted (too long)")
    assert _delta_ref_exact(v, t_star) <= D
    if t_star > 1:
        assert _delta_ref_exact(v, t_star * (1 - F(1, 10**12))) > D
    lo, hi = _ends(v)
    with mpmath.workdps(60):
        ln = mpmath.log(mpmath.mpf(t_star.numerator) / t_star.denominator)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= ln <= mpmath.mpf(hi.numerator) / hi.denominator


def _certified_small(v):
    ws, eps, _, comp = _flat(v)
    return all(e is not None for e in eps) and comp.k <= 10 and not v["value"]["infinite"]


@pytest.mark.parametrize("v", [v for v in VECTORS if _certified_small(v)], ids=lambda v: v["id"])
def test_certified_vectors_against_mpmath(v):
    """Rational eps_i (e^eps_i transcendental): the subset formula in mpmath at 60 digits. Delta
    queries: the enclosure contains the reference (to 1e-40). Epsilon queries: the reference delta at
    e^lower is >= delta_g >= the reference at e^upper."""
    _, eps, ds, comp = _flat(v)
    ws = [lambda e=e: mpmath.exp(mpmath.mpf(e.numerator) / e.denominator) for e in eps]
    lo, hi = _ends(v)
    q = v["query"]
    with mpmath.workdps(60):
        if q["kind"] == "delta":
            eg = F(q["eps_g"])
            ref = delta_mp(ws, ds, lambda: mpmath.exp(mpmath.mpf(eg.numerator) / eg.denominator))
            tol = mpmath.mpf(10) ** -40
            assert mpmath.mpf(lo.numerator) / lo.denominator - tol <= ref <= mpmath.mpf(hi.numerator) / hi.denominator + tol
        else:
            D = F(q["delta_g"])
            Dm = mpmath.mpf(D.numerator) / D.denominator
            at_lo = delta_mp(ws, ds, lambda: mpmath.exp(mpmath.mpf(lo.numerator) / lo.denominator))
            at_hi = delta_mp(ws, ds, lambda: mpmath.exp(mpmath.mpf(hi.numerator) / hi.denominator))
            tol = mpmath.mpf(10) ** -45
            assert at_hi <= Dm + tol
            # the least eps >= 0: at 0 the delta may already be below delta_g (then eps_g = 0 exactly)
            assert at_lo >= Dm - tol if lo > 0 else v["value"]["exact"] == "0"


def test_huge_k_vectors_against_the_binomial_reference():
    """k = 10^4 of exp_eps = 101/100: t* is kept as its SHA-256; recomputed, hashed, and checked by the
    binomial sum in mpmath (log-space terms, 50 digits): delta(t*) = delta_g to 1e-30 relative, and
    delta a little below t* is larger."""
    v = next(v for v in VECTORS if "huge-k" in v["tags"] and v["query"]["kind"] == "epsilon"
             and v["engine"] == "exact")
    comp = Composition.from_json(v["composition"])
    (m, k), = comp.groups()
    assert k == 10_000 and v["value"]["exp_exact"] is None and v["value"]["exp_exact_sha256"]
    from exactdp import optcomp
    from exactdp.numbers import fraction_str

    t = optcomp(comp, F(v["query"]["delta_g"])).exp_exact
    assert hashlib.sha256(fraction_str(t).encode()).hexdigest() == v["value"]["exp_exact_sha256"]
    D = F(v["query"]["delta_g"])
    with mpmath.workdps(50):
        at = delta_mp_hom(m.exp_eps, k, t)
        below = delta_mp_hom(m.exp_eps, k, t * (1 - F(1, 10**9)))
    assert abs(at - D) <= D * F(1, 10**30) and below > D
    lo, hi = _ends(v)
    with mpmath.workdps(50):
        ln = mpmath.log(mpmath.mpf(t.numerator) / t.denominator)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= ln <= mpmath.mpf(hi.numerator) / hi.denominator


def test_huge_k_certified_against_the_exp_bracket():
    """k = 10^4 of eps = 1/10, eps_g = 50: the reference delta between rational brackets of e^(1/10)."""
    v = next(v for v in VECTORS if "huge-k" in v["tags"] and v["query"].get("eps_g") == "50"
             and Composition.from_json(v["composition"]).k == 10_000)
    (m, k), = Composition.from_json(v["composition"]).groups()
    wlo, whi = exp_interval(m.eps, 200)
    tlo, thi = exp_interval(F(50), 200)
    # delta(w, t) grows with w and falls with t: reference bounds from the bracket corners
    with mpmath.workdps(40):
        def d(w, t):
            return delta_mp_hom(w, k, t)
        lo_ref, hi_ref = d(wlo, thi), d(whi, tlo)
    lo, hi = _ends(v)
    assert lo_ref - F(1, 10**35) <= hi and lo <= hi_ref + F(1, 10**35)


def delta_mp_hom(w: F, k: int, t: F) -> F:
    """The binomial sum in mpmath with log-space terms (k = 10^4), returned as a Fraction (approximate)."""
    wm, tm = mpmath.mpf(w.numerator) / w.denominator, mpmath.mpf(t.numerator) / t.denominator
    s = mpmath.mpf(0)
    for l in range(k + 1):
        a = (k - l) * mpmath.log(wm)
        b = mpmath.log(tm) + l * mpmath.log(wm)
        if a <= b:
            break
        s += mpmath.exp(mpmath.log(mpmath.binomial(k, l)) + a - k * mpmath.log(1 + wm)) * (1 - mpmath.exp(b - a))
    return F(str(s)) if s else F(0)


def test_cross_method_vectors_agree():
    """mitm, brute force and the grouped sum are three algorithms: same query, same exact value."""
    by = {}
    for v in VECTORS:
        if "cross-method" in v["tags"]:
            by.setdefault((json.dumps(v["composition"], sort_keys=True), json.dumps(v["query"], sort_keys=True)),
                          []).append(v)
    assert len(by) == 8
    for vs in by.values():
        assert {v["method"] for v in vs} == {"mitm", "brute", "grouped"}
        assert len({(v["value"]["exact"], v["value"].get("exp_exact"), v["value"]["lower"]) for v in vs}) == 1


def test_verify_sample_and_cli(capsys):
    r = verify_corpus(sample=12, seed=3)
    assert r["checked"] == 12 and r["ok"] == 12 and r["manifest_ok"] is True
    assert main(["corpus", "verify", "--sample", "4", "--no-progress"]) == 0
    assert "4 of" in capsys.readouterr().out


def _small_grid():
    g = [e for e in curated_grid() if "huge-k" not in e["tags"]]
    return [e for e in g if "certified-input" in e["tags"]][:10] + [e for e in g if "exact-input" in e["tags"]][:10]


def test_verify_catches_tampering(tmp_path):
    d = tmp_path / "c"
    build_corpus(str(d), _small_grid())
    assert verify_corpus(str(d))["mismatch"] == 0
    lines = (d / "vectors.jsonl").read_text().splitlines()
    vs = [json.loads(l) for l in lines]
    i = next(i for i, v in enumerate(vs) if v["value"]["exact"] is None and not v["value"]["infinite"])
    j = next(j for j, v in enumerate(vs) if v["value"].get("exp_exact") not in (None, "1"))
    vs[i]["value"]["lower"] = vs[i]["value"]["upper"] = "12345"
    vs[j]["value"]["exp_exact"] = "8/7"
    (d / "vectors.jsonl").write_text("\n".join(json.dumps(v) for v in vs) + "\n")
    r = verify_corpus(str(d))
    assert r["mismatch"] == 2 and r["manifest_ok"] is False and len(r["problems"]) == 3   # and the manifest
    details = " ".join(p["detail"] for p in r["problems"])
    assert "disjoint enclosures" in details and "different exp_exact values" in details
    assert main(["corpus", "verify", str(d), "--no-progress"]) == 1


def test_grid_errors_and_cli_errors(tmp_path, capsys):
    with pytest.raises(InvalidArgument, match=r"grid\[1\]\.delta_g"):
        build_corpus(str(tmp_path / "x"), [{"mechanisms": {"eps": ["1"]}, "delta_g": "0.1"},
                                           {"mechanisms": {"eps": ["1"]}, "delta_g": "2"}])
    with pytest.raises(InvalidArgument, match="certify"):
        build_corpus(str(tmp_path / "x"), [{"mechanisms": {"eps": ["1"]}, "claim_eps": "1", "claim_delta": "0"}])
    assert not (tmp_path / "x" / "vectors.jsonl").exists()
    bad = tmp_path / "g.jsonl"
    bad.write_text('{"mechanisms": {"eps": ["1"]}, "delta_g": "0.1"}\n{oops\n')
    assert main(["corpus", "build", "--grid", str(bad), "--out", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--grid line 2" in err
    assert main(["corpus", "verify", str(tmp_path / "nothing")]) == 2


def test_duplicate_queries_merge_their_tags(tmp_path):
    q = {"mechanisms": {"exp_eps": ["2"], "k": 2}, "delta_g": "2/9"}
    m = build_corpus(str(tmp_path), [{**q, "tags": ["a"]}, {**q, "tags": ["b"]},
                                     {"composition": Composition.loads(
                                         '{"type": "composition", "parts": [{"count": 2, "event": {"exp_eps": "2"}}]}'
                                     ).to_json(), "delta_g": "2/9"}])
    assert m["vectors"] == 1 and load_corpus(str(tmp_path))[0]["tags"] == ["a", "b"]


EXACTDP = os.path.join(os.path.dirname(sys.executable), "exactdp")

SLOW_GRID = [{"mechanisms": {"eps": ["1/10"], "k": 3000 + 100 * i}, "delta_g": "1/1000000", "tags": ["t"]}
             for i in range(24)]


def test_killed_build_resumes_without_loss_or_duplicates(tmp_path):
    grid = tmp_path / "grid.jsonl"
    grid.write_text("".join(json.dumps(e) + "\n" for e in SLOW_GRID))
    fresh = tmp_path / "fresh"
    build_corpus(str(fresh), SLOW_GRID)
    out = tmp_path / "killed"
    cmd = [EXACTDP, "corpus", "build", "--grid", str(grid), "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    partial = out / "vectors.jsonl.partial"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if partial.exists() and partial.read_text().count("\n") >= 5:   # header + 4 vectors
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = partial.read_text().count("\n") - 1
    assert 4 <= done_before < len(SLOW_GRID), "the build was not killed mid-run"
    assert not (out / "vectors.jsonl").exists()
    with open(partial, "a") as f:
        f.write('{"key": "tor')          # as if killed in mid-write
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert not partial.exists()
    assert (out / "vectors.jsonl").read_bytes() == (fresh / "vectors.jsonl").read_bytes()
    ids = [json.loads(l)["id"] for l in (out / "vectors.jsonl").read_text().splitlines()]
    assert len(ids) == len(set(ids)) == len(SLOW_GRID)
    # run once more: up to date, nothing recomputed
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0 and "up to date" in r.stdout


def test_partial_of_another_grid_is_refused(tmp_path):
    (tmp_path / "vectors.jsonl.partial").write_text('{"exactdp_corpus": 1, "grid_sha256": "x"}\n')
    with pytest.raises(InvalidArgument, match="--out"):
        build_corpus(str(tmp_path), SLOW_GRID[:1])
