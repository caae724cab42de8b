"""The code of :mod:`exactdp.corpus`: building, verifying and loading the conformance corpus (the package docstring describes it)."""

from __future__ import annotations

import hashlib
import json
import os
import random
from decimal import Decimal
from fractions import Fraction
from typing import Callable, Iterable, Optional

from ..batch.query import error_record, parse_query
from ..errors import ExactDPError, InvalidArgument
from ..jobs import check_scheduler, output_dir, output_file, read_input, read_state, run_tasks, write_atomic
from ..numbers import fraction_str, parse_choice, parse_int, parse_rational
from ..numbers.parse import parse_json
from .events import check_event_vector, compute_event_vector, dpsgd_grid, is_event_entry, prepare_event
from .grid import curated_grid
from .version import CORPUS_VERSION

__all__ = ["build_corpus", "verify_corpus", "load_corpus", "compute_vector", "check_vector", "read_grid",
           "curated_grid", "shipped_path", "CORPUS_VERSION", "MAX_EXACT_CHARS", "VECTORS", "MANIFEST", "SUITES"]

#: Longest exact rational written into a vector (longer ones are kept as their SHA-256).
MAX_EXACT_CHARS = 2000
VECTORS = "vectors.jsonl"
MANIFEST = "manifest.json"
#: Most queries in one grid.
MAX_GRID = 1_000_000


#: The corpora shipped in the package: ``optcomp`` (compositions of (eps, delta) mechanisms) and
#: ``dpsgd`` (Gaussian, Laplace and Poisson-subsampled compositions, :mod:`exactdp.corpus.events`).
SUITES = ("optcomp", "dpsgd")


def shipped_path(suite: str = "optcomp") -> str:
    """The folder of a curated corpus shipped in the package. Guarantee: exact. Raises: InvalidArgument (unknown suite)."""
    parse_choice(suite, "suite", SUITES)
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data" if suite == "optcomp" else "dpsgd")


def _canonical(obj: dict) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _query_of(entry: dict) -> tuple[dict, list]:
    """A grid entry's query object (tags removed) and tags."""
    if not isinstance(entry, dict):
        raise InvalidArgument("grid entry", "a JSON object (a query with optional tags)", type(entry).__name__)
    q = dict(entry)
    tags = q.pop("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise InvalidArgument("tags", "a list of strings", tags)
    return q, tags


def _prepare(entry: dict) -> tuple[str, dict, list]:
    """``(id, canonical query JSON, tags)`` of a grid entry, validated (a certify query is refused)."""
    if is_event_entry(entry):
        return prepare_event(entry)
    q, tags = _query_of(entry)
    parsed = parse_query(q)
    if parsed.kind == "certify":
        raise InvalidArgument("query", "an epsilon or delta query in a corpus (a claim has no single answer)", "certify")
    canon = parsed.to_json()
    canon.pop("id", None)
    vid = hashlib.sha256(_canonical(canon).encode()).hexdigest()[:20]
    return vid, canon, tags


def _exact_field(d: dict, name: str, value: Optional[str]) -> None:
    if value is not None and len(value) > MAX_EXACT_CHARS:
        d[name] = None
        d[name + "_sha256"] = hashlib.sha256(value.encode()).hexdigest()
        d[name + "_chars"] = len(value)
    else:
        d[name] = value


def _value_dict(kind: str, r, digits: int) -> dict:
    v = r.value
    d: dict = {}
    if v.infinite:
        d.update(exact=None, lower="inf", upper="inf", infinite=True)
        if kind == "epsilon":
            d["exp_exact"] = None
        return d
    lo, hi = v.decimal(digits)
    _exact_field(d, "exact", fraction_str(v.exact) if v.exact is not None and r.guarantee != "approximate" else None)
    if kind == "epsilon":
        _exact_field(d, "exp_exact", fraction_str(r.exp_exact) if r.exp_exact is not None else None)
    d.update(lower=lo, upper=hi, infinite=False)
    return d


def compute_vector(vid: str, query: dict, tags: list) -> dict:
    """The vector of one (validated, canonical) query: its answer by the library, or an error record.

    Guarantee: as the engine (exact or enclosure, decimals rounded outward).

    Raises: nothing for a refused query (an ``"error"`` record); programming errors propagate.
    """
    from .. import __version__
    from ..engines import composed_delta, optcomp

    if is_event_entry(query):
        return compute_event_vector(vid, query, tags)
    q = parse_query(query)
    qd: dict = {"kind": q.kind, **{k: fraction_str(v) for k, v in q.value.items()}}
    base = {"exactdp_corpus": CORPUS_VERSION, "id": vid, "tags": list(tags), "composition": query["composition"],
            "query": qd}
    try:
        if q.kind == "epsilon":
            r = optcomp(q.composition, q.value["delta_g"], engine=q.engine, method=q.method, digits=q.digits)
        else:
            r = composed_delta(q.composition, q.value.get("eps_g"), exp_eps_g=q.value.get("exp_eps_g"),
                               engine=q.engine, method=q.method, digits=q.digits)
    except (ExactDPError, ArithmeticError) as e:
        return {**base, "error": error_record(e), "exactdp_version": __version__}
    return {**base, "value": _value_dict(q.kind, r, q.digits), "digits": q.digits, "engine": r.engine,
            "method": r.method, "requested_method": q.method, "guarantee": r.guarantee, "exactdp_version": __version__}


def read_grid(path: Optional[str] = None, suite: str = "optcomp", which: str = "curated") -> list[dict]:
    """Grid entries from a JSON-lines file (one query object each, optional ``"tags"``; blank
    lines and ``#`` comments skipped), or when ``path`` is None the grid of ``suite``: the curated
    (eps, delta) grid, or the DP-SGD grid ``which`` (``"curated"`` or ``"full"``,
    :func:`exactdp.corpus.events.dpsgd_grid`).

    Guarantee: exact. Raises: InvalidArgument (missing file, a line that is not a JSON object, unknown suite).
    """
    parse_choice(suite, "suite", SUITES)
    if path is None:
        return curated_grid() if suite == "optcomp" else dpsgd_grid(which)
    data = read_input(path, "--grid").decode("utf-8", "replace")
    out = []
    for n, line in enumerate(data.split("\n"), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        out.append(parse_json(s, f"--grid line {n}", parse_float=Decimal))
        if len(out) > MAX_GRID:
            raise InvalidArgument("--grid", f"at most {MAX_GRID} queries", "more")
    if not out:
        raise InvalidArgument("--grid", "a file with at least one query", path)
    return out


def _json_safe(obj):
    if isinstance(obj, Decimal):
        return str(obj)
    if isinstance(obj, dict):
        return {k: _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_json_safe(v) for v in obj]
    return obj


def build_corpus(out_dir: str, grid: Optional[Iterable[dict]] = None, *, scheduler: Optional[str] = None,
                 workers: Optional[int] = None, progress: bool = False,
                 on_result: Optional[Callable[[dict], None]] = None) -> dict:
    """Build (or resume building) the corpus of ``grid`` (default: the curated grid) in ``out_dir``.

    Every grid entry is validated before any work (a malformed entry is refused, naming it).
    Vectors are appended to ``out_dir/vectors.jsonl.partial`` as they are computed; when all
    are done, ``vectors.jsonl`` (in grid order) and ``manifest.json`` are written atomically and
    the partial file removed. Killed and run again, the build recomputes only the missing
    vectors; a finished corpus of the same grid is left as it is.

    Guarantee: each vector as :func:`compute_vector`; the files do not depend on resumption or
    on the scheduler (byte for byte, apart from the ``seconds`` of DP-SGD vectors).

    Parameters:
        out_dir: the corpus folder (created).
        grid: query objects (:mod:`exactdp.batch.query`, plus ``"tags"``).
        scheduler: the address of an existing Dask cluster's scheduler (exclusive with ``workers``).
        workers: run on a local Dask cluster of this many worker processes.
        progress: a progress bar on stderr.

    Raises:
        InvalidArgument: ``out_dir`` a file or in a missing folder (checked before any work), a
            malformed grid entry (named by its index), a partial file of another grid. (A query
            given twice is one vector with the union of the tags.)

    Examples:
        >>> import tempfile
        >>> d = tempfile.mkdtemp()
        >>> build_corpus(d, [{"mechanisms": {"exp_eps": ["2"], "k": 2}, "delta_g": "2/9", "tags": ["tie"]}])["vectors"]
        1
        >>> load_corpus(d)[0]["value"]["exp_exact"]      # e^eps_g = 2 exactly
        '2'
    """
    from .. import __version__

    if os.path.isdir(output_dir(out_dir, "--out")):  # a new folder is made below, after validation
        for name in (VECTORS, MANIFEST, VECTORS + ".partial"):
            output_file(os.path.join(out_dir, name), "--out")
    if scheduler is not None:
        check_scheduler(scheduler)
    entries = list(grid) if grid is not None else curated_grid()
    prepared = []
    for i, e in enumerate(entries):
        try:
            prepared.append(_prepare(_json_safe(e)))
        except InvalidArgument as err:
            raise err.renamed(f"grid[{i}].{err.parameter}") from None
    merged: dict = {}
    for vid, q, t in prepared:  # the same query twice: one vector with the union of the tags
        if vid in merged:
            merged[vid][2].extend(x for x in t if x not in merged[vid][2])
        else:
            merged[vid] = (vid, q, list(dict.fromkeys(t)))
    prepared = list(merged.values())
    ids = [p[0] for p in prepared]
    grid_sha = hashlib.sha256("\n".join(_canonical({"q": q, "tags": t}) for _, q, t in prepared).encode()).hexdigest()
    header = {"exactdp_corpus": CORPUS_VERSION, "grid_sha256": grid_sha, "exactdp_version": __version__}
    os.makedirs(out_dir, exist_ok=True)
    final, man_path, partial = (os.path.join(out_dir, VECTORS), os.path.join(out_dir, MANIFEST),
                                os.path.join(out_dir, VECTORS + ".partial"))
    if os.path.exists(final) and os.path.exists(man_path) and not os.path.exists(partial):
        try:
            with open(man_path) as f:
                man = json.load(f)
        except ValueError:
            man = {}
        if man.get("grid_sha256") == grid_sha and man.get("exactdp_version") == __version__:
            return {**man, "up_to_date": True}
    if os.path.exists(partial):
        read_state(partial, header, what="--out")
    tasks = [(vid, (vid, q, t)) for vid, q, t in prepared]
    recs = run_tasks(compute_vector, tasks, state=partial, header=header, scheduler=scheduler, workers=workers,
                     progress=progress, what="vectors", on_result=on_result)
    missing = [vid for vid in ids if vid not in recs]
    if missing:
        raise InvalidArgument("--out", "a complete build", f"{len(missing)} vectors lost to killed workers: run again")
    lines = []
    for vid in ids:
        r = dict(recs[vid])
        r.pop("key", None)
        lines.append(json.dumps(r, sort_keys=True))
    write_atomic(final, lines)
    with open(final, "rb") as f:
        vsha = hashlib.sha256(f.read()).hexdigest()
    errors = sum(1 for vid in ids if "error" in recs[vid])
    man = {"exactdp_corpus": CORPUS_VERSION, "vectors": len(ids), "errors": errors, "vectors_sha256": vsha,
           "grid_sha256": grid_sha, "exactdp_version": __version__,
           **_tag_counts(recs[v] for v in ids)}
    write_atomic(man_path, [json.dumps(man, indent=1, sort_keys=True)])
    os.unlink(partial)
    return man


def _tag_counts(recs: Iterable[dict]) -> dict:
    out: dict = {"tags": {}, "methods": {}, "engines": {}}
    for r in recs:
        for where, vals in (("tags", r.get("tags", [])), ("methods", [r.get("method")]), ("engines", [r.get("engine")])):
            for t in vals:
                if t is not None:
                    out[where][t] = out[where].get(t, 0) + 1
    return {k: dict(sorted(v.items())) for k, v in out.items()}


def _corpus_file(path: str) -> str:
    p = os.path.join(path, VECTORS) if os.path.isdir(path) else path
    if not os.path.isfile(p):
        raise InvalidArgument("corpus", f"a corpus folder (with {VECTORS}) or a vectors file", path)
    return p


def load_corpus(path: Optional[str] = None, suite: str = "optcomp") -> list[dict]:
    """The vectors of a corpus (a folder or a ``vectors.jsonl``; default: the shipped corpus of ``suite``).

    Guarantee: exact (the vectors as written).

    Raises:
        InvalidArgument: no such corpus, a line that is not a vector of a known version.

    Examples:
        >>> vs = load_corpus()
        >>> len(vs) >= 200, {v["query"]["kind"] for v in vs} == {"epsilon", "delta"}
        (True, True)
    """
    p = _corpus_file(path or shipped_path(suite))
    out = []
    with open(p, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            v = parse_json(line, f"{os.path.basename(p)} line {n}", expected="a JSON vector")
            if not isinstance(v, dict) or v.get("exactdp_corpus") != CORPUS_VERSION:
                raise InvalidArgument(f"{os.path.basename(p)} line {n}", f"a vector of version {CORPUS_VERSION}",
                                      str(line)[:80])
            out.append(v)
    return out


def _dec(s: str) -> Fraction:
    return parse_rational(s, "value")


def check_vector(v: dict) -> dict:
    """Recompute vector ``v`` with this exactdp and compare: ``{"id", "status", "detail"}``.

    ``status`` is ``"ok"`` (the exact values agree, or both are rigorous enclosures that
    intersect: they can both contain the true value), ``"mismatch"`` (a proof that one of the two
    is wrong: different exact values, disjoint enclosures, a finite against an infinite value)
    or ``"error"`` (the vector is malformed, or the library now refuses the query).

    Guarantee: exact decision. Raises: nothing.
    """
    vid = v.get("id", "?")
    if is_event_entry(v):
        return check_event_vector(v)
    try:
        q = {"composition": v["composition"], "digits": v.get("digits", 30), "method": v.get("requested_method", "auto")}
        kind = v["query"]["kind"]
        for k in ("delta_g", "eps_g", "exp_eps_g"):
            if k in v["query"]:
                q[k] = v["query"][k]
        if {"epsilon": "delta_g" in q, "delta": "eps_g" in q or "exp_eps_g" in q}.get(kind) is not True:
            raise InvalidArgument("query", "a kind matching its parameters", v["query"])
        new = compute_vector(vid, _prepare(q)[1], v.get("tags", []))
    except (InvalidArgument, KeyError, TypeError) as e:
        return {"id": vid, "status": "error", "detail": f"malformed vector: {e}"}
    if "error" in v or "error" in new:
        same = ("error" in v) == ("error" in new) and v.get("error", {}).get("type") == new.get("error", {}).get("type")
        return {"id": vid, "status": "ok" if same else ("mismatch" if "error" in v else "error"),
                "detail": "" if same else f"stored {v.get('error', 'a value')}, now {new.get('error', 'a value')}"}
    a, b = v["value"], new["value"]
    if a["infinite"] or b["infinite"]:
        ok = a["infinite"] == b["infinite"]
        return {"id": vid, "status": "ok" if ok else "mismatch", "detail": "" if ok else "infinite against finite"}
    for name in ("exact", "exp_exact"):
        sa, sb = _exact_of(a, name), _exact_of(b, name)
        if sa is not None and sb is not None and sa != sb:
            return {"id": vid, "status": "mismatch", "detail": f"different {name} values"}
    try:
        lo_a, hi_a, lo_b, hi_b = map(_dec, (a["lower"], a["upper"], b["lower"], b["upper"]))
    except InvalidArgument as e:
        return {"id": vid, "status": "error", "detail": f"malformed value: {e}"}
    if hi_a < lo_b or hi_b < lo_a:
        return {"id": vid, "status": "mismatch",
                "detail": f"disjoint enclosures: stored [{a['lower']}, {a['upper']}], now [{b['lower']}, {b['upper']}]"}
    return {"id": vid, "status": "ok", "detail": ""}


def _exact_of(d: dict, name: str) -> Optional[str]:
    """The SHA-256 of an exact field (present or kept only as its hash)."""
    if d.get(name) is not None:
        return hashlib.sha256(d[name].encode()).hexdigest()
    return d.get(name + "_sha256")


def _check_task(v: dict) -> dict:
    return check_vector(v)


def verify_corpus(path: Optional[str] = None, *, sample: Optional[int] = None, seed: int = 0,
                  tags: Optional[list] = None, scheduler: Optional[str] = None, workers: Optional[int] = None,
                  progress: bool = False, suite: str = "optcomp") -> dict:
    """Re-check a corpus (default: the shipped one of ``suite``) with this exactdp: every vector, or
    a random ``sample`` of them, optionally only those with one of ``tags``. A DP-SGD vector is
    recomputed at its digits (seconds each: the shipped DP-SGD corpus takes minutes).

    Also checks the manifest (count and SHA-256 of ``vectors.jsonl``) when there is one.

    Guarantee: exact decisions (:func:`check_vector`).

    Raises:
        InvalidArgument: no such corpus, a malformed file.

    Examples:
        >>> r = verify_corpus(sample=3, tags=["tie"])
        >>> r["checked"], r["mismatch"], r["error"]
        (3, 0, 0)
    """
    p = _corpus_file(path or shipped_path(suite))
    vectors = load_corpus(p)
    problems: list[dict] = []
    man_path = os.path.join(os.path.dirname(p), MANIFEST)
    manifest_ok: Optional[bool] = None
    if os.path.exists(man_path):
        with open(man_path) as f:
            try:
                man = json.load(f)
            except ValueError:
                man = {}
        with open(p, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()
        manifest_ok = man.get("vectors_sha256") == sha and man.get("vectors") == len(vectors)
        if not manifest_ok:
            problems.append({"id": MANIFEST, "status": "mismatch",
                             "detail": "manifest does not match vectors.jsonl (count or SHA-256)"})
    chosen = [v for v in vectors if not tags or set(tags) & set(v.get("tags", []))]
    if sample is not None:
        n = parse_int(sample, "--sample", lo=1)
        chosen = random.Random(seed).sample(chosen, min(n, len(chosen)))
    recs = run_tasks(_check_task, [(f"{i}:{v.get('id')}", (v,)) for i, v in enumerate(chosen)], scheduler=scheduler,
                     workers=workers, progress=progress, what="vectors")
    results = [recs[f"{i}:{v.get('id')}"] for i, v in enumerate(chosen)]
    for r in results:
        r.pop("key", None)
    problems += [r for r in results if r["status"] != "ok"]
    return {"corpus": p, "vectors": len(vectors), "checked": len(results),
            "ok": sum(1 for r in results if r["status"] == "ok"),
            "mismatch": sum(1 for r in results if r["status"] == "mismatch"),
            "error": sum(1 for r in results if r["status"] == "error"),
            "manifest_ok": manifest_ok, "problems": problems}
