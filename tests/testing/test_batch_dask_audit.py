"""exactdp batch (one line in, one line out, error records, resumption), the Dask runs (identical to
serial, a killed worker loses nothing), the audit machinery (with exactdp's float engine as the peer:
no third-party accountant needed) and the strategies."""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction as F

import pytest
from hypothesis import given, settings

from exactdp import InvalidArgument, mechanisms
from exactdp.audit import audit_case, audit_grid, markdown, run_audit, summarize
from exactdp.audit.peers import PEERS, Peer, _dpa_comp, _rr_p, _rr_true
from exactdp.batch import run_batch
from exactdp.cli import main
from exactdp.corpus import build_corpus, curated_grid
from exactdp.testing import float_groups
from exactdp.testing import strategies as gst

LINES = [
    '{"id": "two", "mechanisms": {"exp_eps": ["2"], "k": 2}, "exp_eps_g": "2"}',     # (4 - 2*1)/9 = 2/9 by hand
    '{"id": 7, "mechanisms": {"exp_eps": ["2"], "k": 2}, "delta_g": "2/9"}',          # e^eps_g = 2
    "# a comment",
    "",
    "not json",
    '{"mechanisms": {"eps": ["-1"]}, "delta_g": "0.1"}',
    '{"mechanisms": {"exp_eps": ["2"], "k": 2}, "claim_exp_eps": "2", "claim_delta": "2/9"}',
    '{"mechanisms": {"eps": ["0.1"], "k": 10}, "eps_g": "1", "delta_g": "0.1"}',
    '{"composition": {"exactdp_event": 1, "type": "composition", "parts": [{"count": 3, "event": {"eps": "1"}}]}, '
    '"delta_g": 0.05, "digits": 12}',
]


def _run(tmp_path, lines=LINES, **kw):
    inp, out = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    inp.write_text("\n".join(lines) + "\n")
    s = run_batch(str(inp), str(out), **kw)
    return s, [json.loads(l) for l in out.read_text().splitlines()]


def test_batch_answers_and_error_records(tmp_path):
    s, recs = _run(tmp_path)
    assert s == {"lines": 7, "answered": 4, "errors": 3}
    assert [r["line"] for r in recs] == [1, 2, 5, 6, 7, 8, 9]
    assert recs[0]["id"] == "two" and recs[0]["result"]["delta_g"]["exact"] == "2/9"
    assert recs[1]["id"] == 7 and recs[1]["result"]["eps_g"]["exp_exact"] == "2"
    assert recs[2]["error"]["parameter"] == "line"
    assert recs[3]["error"]["parameter"] == "mechanisms.eps[0]" and "found -1" in recs[3]["error"]["message"]
    assert recs[4]["result"]["holds"] is True
    assert recs[5]["error"]["parameter"] == "query"
    # 3 x eps = 1 at delta_g = 1/20: KOV's least eps is 1 (delta_g(1) = (e^3 - e)/(1 + e)^3 ... ); check twice:
    from exactdp import optcomp

    want = optcomp(mechanisms(eps=[1], k=3), F(1, 20), digits=12).to_dict(12)
    assert recs[6]["result"] == want


def test_batch_resumes_from_a_partial_file(tmp_path):
    fresh_dir = tmp_path / "fresh"
    fresh_dir.mkdir()
    _, fresh = _run(fresh_dir)
    inp, out = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    inp.write_text("\n".join(LINES) + "\n")
    calls = []
    with pytest.raises(KeyboardInterrupt):
        run_batch(str(inp), str(out), on_result=lambda r: calls.append(r) or (len(calls) == 3 and _raise()))
    partial = tmp_path / "a.jsonl.partial"
    assert partial.read_text().count("\n") == 4 and not out.exists()
    with open(partial, "a") as f:
        f.write('{"key": "9", "li')
    s = run_batch(str(inp), str(out))
    assert s["lines"] == 7 and not partial.exists()
    assert [json.loads(l) for l in out.read_text().splitlines()] == fresh
    other = tmp_path / "other.jsonl"
    other.write_text(LINES[0] + "\n")
    (tmp_path / "b.jsonl.partial").write_text(partial.read_text() if partial.exists() else
                                              '{"exactdp_batch": 1, "input_sha256": "x", "exactdp_version": "0"}\n')
    with pytest.raises(InvalidArgument, match="--out"):
        run_batch(str(other), str(tmp_path / "b.jsonl"))


def _raise():
    raise KeyboardInterrupt


def test_batch_cli(tmp_path, capsys):
    inp = tmp_path / "q.jsonl"
    inp.write_text("\n".join(LINES[:2]) + "\n")
    assert main(["batch", "--in", str(inp), "--out", str(tmp_path / "a.jsonl"), "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("2 queries: 2 answered, 0 error records")
    assert main(["batch", "--in", str(inp), "--out", str(inp)]) == 2
    assert main(["batch", "--in", str(tmp_path / "missing"), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "--in must be" in err


# -- Dask ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("dask.distributed")
    c = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    yield c
    c.close()


GRID = [e for e in curated_grid() if "huge-k" not in e["tags"]][:40]


def test_dask_corpus_and_batch_equal_serial(tmp_path, cluster):
    build_corpus(str(tmp_path / "serial"), GRID)
    build_corpus(str(tmp_path / "dask"), GRID, scheduler=cluster.scheduler_address)
    for f in ("vectors.jsonl", "manifest.json"):
        assert (tmp_path / "serial" / f).read_bytes() == (tmp_path / "dask" / f).read_bytes()
    (tmp_path / "b1").mkdir()
    (tmp_path / "b2").mkdir()
    _, a = _run(tmp_path / "b1")
    _, b = _run(tmp_path / "b2", scheduler=cluster.scheduler_address)
    assert a == b


def test_killed_worker_loses_no_result(tmp_path, cluster):
    from dask.distributed import Client

    build_corpus(str(tmp_path / "serial"), GRID)
    client = Client(cluster.scheduler_address)
    pids = list(client.run(os.getpid).values())
    client.close()
    killed = []

    def kill_one(rec):
        if not killed:
            os.kill(pids[0], 9)
            killed.append(pids[0])

    build_corpus(str(tmp_path / "dask"), GRID, scheduler=cluster.scheduler_address, on_result=kill_one)
    assert killed
    assert (tmp_path / "serial" / "vectors.jsonl").read_bytes() == (tmp_path / "dask" / "vectors.jsonl").read_bytes()


def test_scheduler_errors():
    with pytest.raises(InvalidArgument, match="--scheduler"):
        run_audit(["exactdp-float"], "quick", scheduler="tcp://127.0.0.1:9")


# -- the audit machinery, with exactdp's own float engine as the peer ------------------


def test_audit_quick_with_the_float_control(tmp_path, capsys):
    recs = run_audit(["exactdp-float"], "quick", out=str(tmp_path / "a.jsonl"))
    assert recs and all(r["status"] in ("sound", "unsound") for r in recs)
    assert len(recs) == sum(len(c["delta_g"]) + len(c["eps_g"]) for c in audit_grid("quick"))
    # the float engine is approximate: its answers are within 1e-14 of the optimum, either side
    assert all(abs(r["excess"]) < 1e-14 for r in recs if isinstance(r["excess"], float))
    assert [json.loads(l) for l in (tmp_path / "a.jsonl").read_text().splitlines()] == recs
    (row,) = [s for s in summarize(recs) if s["answer"] == "eps"]
    assert row["answers"] == sum(len(c["delta_g"]) for c in audit_grid("quick"))
    md = markdown(recs)
    assert md.startswith("| peer (version) | knob |")
    for r in recs:
        if r["status"] == "unsound":
            assert r["reproduce"].startswith("exactdp certify") and "optcomp(" in r["python"] or "composed_delta(" in r["python"]


def test_audit_missing_peer_message(monkeypatch, capsys):
    monkeypatch.setitem(PEERS, "autodp", Peer("autodp", "no_such_module_xyz", "autodp", {"x": ""}, None, None, None))
    with pytest.raises(InvalidArgument, match=r"pip install 'exactdp\[peers\]'"):
        run_audit(["autodp"], "quick")
    assert main(["audit", "--peer", "autodp", "--quick"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not installed" in err


def test_peer_failure_is_an_error_record(monkeypatch):
    def boom(*a):
        raise ZeroDivisionError("peer bug")

    monkeypatch.setitem(PEERS, "exactdp-float", Peer("exactdp-float", "", "exactdp", {"float": ""}, boom,
                                                     PEERS["exactdp-float"].composition, PEERS["exactdp-float"].python))
    (r,) = audit_case("exactdp-float", "float", audit_grid("quick")[0])["records"]
    assert r["status"] == "error" and "peer bug" in r["reason"]


def test_randomized_response_parameters_are_exact():
    # noise 2(1 - p) and truth probability p, both multiples of 2^-10: e^eps = p/(1 - p) = (2 - noise)/noise
    p, noise = F(_rr_true(0.1)), F(_rr_p(0.1))
    assert p == F(538, 1024) and noise == 2 * (1 - p)
    (m, n), = _dpa_comp("pld-accountant-rr", [(0.1, 0.0, 5)]).groups()
    assert m.exp_eps == p / (1 - p) == (2 - noise) / noise == F(269, 243) and n == 5


@pytest.mark.parametrize("name", ["dp_accounting", "prv_accountant", "autodp", "opendp"])
def test_real_peer_quick(name):
    """Runs only where the peer is installed (pip install 'exactdp[peers]'); the known findings reproduce."""
    p = PEERS[name]
    pytest.importorskip(p.module, reason=f"{name} is not installed (pip install 'exactdp[peers]')")
    knob = {"dp_accounting": "pld-accountant-rr", "prv_accountant": "eps_error=0.1", "autodp": "puredp",
            "opendp": "basic"}[name]
    recs = audit_case(name, knob, {"id": "k10", "label": "pure", "groups": [[0.1, 0.0, 10]], "delta_g": [1e-6],
                                   "eps_g": [0.5]})["records"]
    eps = [r for r in recs if r["direction"] == "epsilon"]
    if name == "dp_accounting":   # SelfComposedDpEvent(RR, 10) answers the single-use eps: far below the optimum
        assert eps[0]["status"] == "unsound" and eps[0]["answer"] < 0.11
    if name == "opendp":          # basic composition: 10 x eps, sound
        assert eps[0]["status"] == "sound" and eps[0]["excess"] > 0
    if name == "prv_accountant":  # the upper bound holds
        assert [r["status"] for r in eps if r["answer_name"] == "upper"] == ["sound"]


# -- strategies ------------------------------------------------------------------------


@settings(max_examples=25)
@given(c=gst.compositions())
def test_strategies_draw_float_exact_bounded_compositions(c):
    groups = float_groups(c)   # raises unless every eps and delta is exactly a float
    assert all(0 <= e <= 4 and 0 <= d <= 1e-3 for e, d, _ in groups)   # lattice: up to 8 x 32/64
    assert c.k <= 1000


@settings(max_examples=15)
@given(c=gst.lattice(with_delta=True))
def test_lattice_strategy_is_commensurable_with_delta(c):
    from exactdp.engines.choose import detect_lattice_groups

    # on a common lattice (auto may still prefer another exact kernel for a few mechanisms)
    assert detect_lattice_groups([m.w for m, _ in c.groups()]) is not None
    assert all(m.delta > 0 for m, _ in c.groups())
    base = math.gcd(*[int(m.eps * 64) for m, _ in c.groups()])
    assert all((m.eps * 64) % base == 0 for m, _ in c.groups())


@settings(max_examples=15)
@given(case=gst.cases("delta"), hom=gst.homogeneous(max_k=5, with_delta=True))
def test_cases_and_homogeneous(case, hom):
    assert case.direction == "delta" and 0 <= case.query <= 10
    (m, n), = hom.groups()
    assert 1 <= n <= 5 and m.delta > 0
    assert all(len(x) >= 1 for x in [case.composition.groups()])
