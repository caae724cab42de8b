"""The whole chain #INT-PARTITION -> ... -> OptComp, run and checked step by step.

:func:`run_chain` counts the solutions of an #INT-PARTITION instance using only
OptComp oracle calls (the library's certified engine), through Lemmas 4.9-4.11
and Theorem 1.6 of Murtagh-Vadhan, and records a trace. With ``check=True``
every step is compared with brute force of its own problem: each instance's
answer, each oracle answer (counts exactly, real values as overlapping
enclosures), the step's claim (e.g. the #T-PARTITION count of ``W'`` equals the
#PARTITION count of ``W``), and Lemma 4.11 once more with a brute-force
#SUM-PARTITION oracle.

Guarantee: the returned ``count`` is exact when ``certified`` is True (an
enclosure of width < 1 around one integer; see
:func:`~exactdp.reductions.steps.solve_t_partition`).

References: Murtagh-Vadhan (TCC 2016), Section 4 and the proof of Theorem 1.6.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Optional, Union

from .._backend import workprec
from ..engines.costs import cost_limits, current_limits, fmt, fmt_bytes
from ..errors import CostTooHigh, InvalidArgument
from ..numbers import MAXPREC, Root, fraction_str, pow2_text
from .problems import BRUTE_FORCE_MAX_K, SUBSETS_PER_SECOND, IntPartition, LazyReal
from .steps import (
    DEFAULT_MAX_PREC,
    STEPS,
    ReductionFailure,
    Trace,
    ball_str,
    chain_bound,
    optcomp_oracle,
    solve_int_partition,
    solve_partition,
    solve_sum_partition,
    solve_t_partition,
)

__all__ = ["ChainResult", "run_chain", "render_trace", "parse_as_printed", "check_limits", "MAX_PRODUCT_BITS"]

#: Largest ``prod z_i`` accepted, in bits. The thresholds of Lemmas 4.10-4.11 are
#: radicals of up to ``(prod z_i)^3``, written exactly in the trace and the JSON
#: (Python refuses to print integers of more than 4300 digits; 3 * 4096 bits is
#: about 3700 digits). The cost is not the reason: 4096 bits run in under a second.
MAX_PRODUCT_BITS = 4096


@dataclass(frozen=True, kw_only=True)
class ChainResult:
    """The outcome of :func:`run_chain`; ``to_dict()`` is the ``--json`` output.

    Guarantee: ``count`` is exact when ``certified`` (an enclosure of width < 1
    around one integer); ``brute_force_count`` is exact. ``certified`` says the
    chain *as run* produced that integer rigorously: with steps run as printed
    it can be a certified wrong count (compare ``agrees``). Raises: nothing.
    """

    instance: IntPartition
    c: Fraction
    as_printed: tuple[str, ...]
    count: Optional[int]
    certified: bool
    brute_force_count: Optional[int]
    brute_force_note: Optional[str]
    oracle_calls: int
    engine_evaluations: int
    steps: list = field(default_factory=list)
    failure: Optional[str] = None

    @property
    def agrees(self) -> Optional[bool]:
        """count == brute force (None if either is missing). Guarantee: exact. Raises: nothing."""
        if self.count is None or self.brute_force_count is None:
            return None
        return self.count == self.brute_force_count

    @property
    def checks_hold(self) -> Optional[bool]:
        """All recorded step checks hold (None when nothing was checked). Guarantee: exact. Raises: nothing."""
        found = [ch["holds"] for s in self.steps for ch in s.get("checks", [])]
        return all(found) if found else None

    def to_dict(self) -> dict:
        """The ``exactdp reduce --json`` object. Guarantee: exact transcription. Raises: nothing."""
        return {
            "count": self.count,
            "brute_force_count": self.brute_force_count,
            "certified": self.certified,
            "oracle_calls": self.oracle_calls,
            "steps": self.steps,
            "instance": self.instance.to_dict(),
            "c": fraction_str(self.c),
            "as_printed": list(self.as_printed),
            "agrees_with_brute_force": self.agrees,
            "all_step_checks_hold": self.checks_hold,
            "brute_force_note": self.brute_force_note,
            "engine_evaluations": self.engine_evaluations,
            "failure": self.failure,
            **self._constants(),
        }

    def _constants(self) -> dict:
        """``D`` of Lemma 4.9 and ``sum eps_i`` of the OptComp instances (Theorem 1.6), from the trace."""
        out: dict = {"D": None, "sum_eps": None, "sum_eps_decimal": None, "sum_eps_le_ln_c": None}
        for rec in self.steps:
            if rec["step"] == "Lemma 4.9" and "D" in rec:
                out["D"] = rec["D"]
            if rec["step"] == "Theorem 1.6" and out["sum_eps"] is None:
                out["sum_eps"] = rec["sum_eps"]
                out["sum_eps_decimal"] = rec["sum_eps_decimal"]
                out["sum_eps_le_ln_c"] = rec.get("sum_eps_le_ln_c")
        return out


def parse_as_printed(value: Union[bool, str, Iterable[str], None]) -> tuple[str, ...]:
    """Normalise ``as_printed``: a bool, ``"all"``, or step names from ``4.9, 4.10, 4.11``.

    Guarantee: exact (a tuple of step names in chain order).

    Examples:
        >>> parse_as_printed("4.11,4.9"), parse_as_printed(True)
        (('4.9', '4.11'), ('4.9', '4.10', '4.11'))

    Raises:
        InvalidArgument: an unknown step name.
    """
    if value is None or value is False:
        return ()
    if value is True:
        return STEPS
    items = [s.strip() for s in value.split(",")] if isinstance(value, str) else [str(s).strip() for s in value]
    if items == ["all"]:
        return STEPS
    for s in items:
        if s not in STEPS:
            raise InvalidArgument("as_printed", "'all' or step names among " + ", ".join(STEPS), s)
    return tuple(s for s in STEPS if s in items)


def _try_bf(fn, limit: int):
    """``fn(limit=...)`` (a bound brute-force method), with the limit capped at its class's ``max_k``."""
    cap = getattr(getattr(fn, "__self__", None), "max_k", limit)
    try:
        return fn(limit=min(limit, cap)), None
    except CostTooHigh as e:
        return None, str(e)


def check_limits(*, brute_force_limit: object = BRUTE_FORCE_MAX_K, max_prec: object = DEFAULT_MAX_PREC) -> None:
    """Refuse a chain request whose bounds are out of range, before any work.

    Guarantee: exact decision. Raises:
        InvalidArgument: ``max_prec`` not an integer in ``[64, MAXPREC]``.
        CostTooHigh: ``brute_force_limit`` above :data:`BRUTE_FORCE_MAX_K` (with the
            estimate: 2^k subset products in memory and the seconds per count).

    Examples:
        >>> check_limits(brute_force_limit=22, max_prec=64)
    """
    if isinstance(max_prec, bool) or not isinstance(max_prec, int) or not 64 <= max_prec <= MAXPREC:
        raise InvalidArgument("max_prec", f"an integer in [64, {MAXPREC}]", max_prec)
    if isinstance(brute_force_limit, int) and brute_force_limit > BRUTE_FORCE_MAX_K:
        k = brute_force_limit
        subsets, secs = pow2_text(k), pow2_text(k, 1 / SUBSETS_PER_SECOND)
        raise CostTooHigh(
            "brute_force_limit",
            f"brute force up to k = {k} is refused (range [1, {BRUTE_FORCE_MAX_K}]): 2^{k} = {subsets} subset "
            f"products held in memory, about {secs} s per count; the chain itself "
            "needs no brute force (--no-brute-force)",
            estimate={"subsets": f"2^{k}", "seconds": secs}, limit=BRUTE_FORCE_MAX_K,
            alternative="--no-brute-force",
        )


#: The chain's OptComp oracle calls (Lemma 4.11: r_T, r_T'', r_c, r_c''): each is held to this
#: share of the time limit, so that the chain as a whole stays within it.
ORACLE_CALLS = 4
#: The brute-force #SUM-PARTITION runs of the checks (Lemma 4.11 with a brute-force oracle, and
#: each Theorem 1.6 call): each is held to this share of the time limit (one over it is skipped,
#: its refusal recorded in the trace; the count itself is not affected).
SUM_BRUTE_FORCE_RUNS = 8


def _oracle_refused(e: CostTooHigh, k: int, sec: float) -> CostTooHigh:
    """The engine's refusal of the chain's OptComp oracle instance (k + 1 mechanisms), said of the chain."""
    est = e.estimate if isinstance(e.estimate, dict) else None
    if est is not None and "seconds" in est:
        each = f"about {fmt(est['seconds'])} s and {fmt_bytes(est.get('bytes', 0.0))} each"
        total = {"seconds": ORACLE_CALLS * est["seconds"], "bytes": est.get("bytes", 0.0)}
    else:
        each, total = str(e), e.estimate
    return CostTooHigh(
        "Z",
        f"k = {k} is refused: the {ORACLE_CALLS} OptComp oracle calls on k + 1 = {k + 1} mechanisms would cost "
        f"{each}, over the time limit of {fmt(sec)} s for the chain (OptComp is #P-hard, Murtagh-Vadhan Thm 1.6: "
        "that is the point of the chain); use fewer z_i, or lift the limits (exactdp.engines.costs.cost_limits, "
        "EXACTDP_MAX_SECONDS / EXACTDP_MAX_MEMORY)",
        estimate=total, limit=e.limit, alternative="fewer z_i",
    )


def _check(name: str, holds: bool) -> dict:
    return {"claim": name, "holds": bool(holds)}


def run_chain(
    z: Iterable[object],
    *,
    c: object = 2,
    as_printed: Union[bool, str, Iterable[str], None] = False,
    check: bool = True,
    brute_force_limit: int = BRUTE_FORCE_MAX_K,
    max_prec: int = DEFAULT_MAX_PREC,
    r_form: str = "auto",
) -> ChainResult:
    """Count an #INT-PARTITION instance through the chain down to OptComp oracle calls.

    Lemma 4.9 runs with the constant ``sqrt(c)`` (Lemma 4.10 needs
    ``prod w_i <= sqrt(c)``), so every #T-PARTITION, #SUM-PARTITION and OptComp
    instance has ``prod w_i <= c`` and ``sum eps_i <= ln c`` (Theorem 1.6).

    Guarantee: ``count`` exact when ``certified``; brute-force figures exact.

    Parameters:
        z: the positive integers ``z_1..z_k``.
        c: rational in ``(1, e^2]`` (default 2).
        as_printed: ``True``/``"all"`` or step names (``"4.9"``, ``"4.10"``,
            ``"4.11"``) to run as printed instead of corrected.
        check: compare every step with brute force (refused above
            ``brute_force_limit`` elements, or a brute-force #SUM-PARTITION estimated over
            1/:data:`SUM_BRUTE_FORCE_RUNS` of the time limit, with an estimate recorded in the
            trace; the chain still runs).
        max_prec: precision bound of Lemma 4.11's certified count.
        r_form: see :func:`~exactdp.reductions.steps.solve_t_partition`.

    Raises:
        InvalidArgument: bad ``z`` (empty, not positive integers, ``prod z_i``
            of more than :data:`MAX_PRODUCT_BITS` bits), bad ``c``, bad
            ``as_printed``, ``max_prec`` outside ``[64, MAXPREC]``.
        CostTooHigh: ``brute_force_limit`` above :data:`BRUTE_FORCE_MAX_K`, or the
            OptComp oracle instance refused by the engine (parameter ``Z``, with its estimate:
            each of the :data:`ORACLE_CALLS` calls is held to that share of the time limit, and
            refused before its kernel runs).
        PrecisionError: no certified count by ``max_prec`` bits.

    Examples:
        >>> r = run_chain([2, 3, 6])
        >>> r.count, r.brute_force_count, r.certified, r.oracle_calls
        (2, 2, True, 4)
        >>> run_chain([2, 3, 6], as_printed=["4.11"]).count     # the printed Lemma 4.11
        0

    References: Murtagh-Vadhan Lemmas 4.9-4.11, Theorem 1.6; docs/reductions.md.
    """
    inst = IntPartition(z)
    cq = chain_bound(c)
    steps_printed = parse_as_printed(as_printed)
    check_limits(brute_force_limit=brute_force_limit, max_prec=max_prec)
    bits = inst.product().bit_length()
    if bits > MAX_PRODUCT_BITS:
        raise InvalidArgument(
            "Z",
            f"positive integers with prod z_i < 2^{MAX_PRODUCT_BITS} (the trace writes radicals of (prod z_i)^3 exactly)",
            f"prod z_i of {bits} bits",
        )
    tr = Trace()
    counter = {"calls": 0, "evals": 0}

    def on_eval() -> None:
        counter["evals"] += 1

    def opt(mechs, t):
        counter["calls"] += 1
        return optcomp_oracle(mechs, t, on_evaluate=on_eval)

    sum_oracle = lambda S: solve_sum_partition(S, opt, trace=tr)  # noqa: E731
    t_oracle = lambda W: solve_t_partition(W, sum_oracle, as_printed=steps_printed, max_prec=max_prec, r_form=r_form, trace=tr)  # noqa: E731
    p_oracle = lambda W: solve_partition(W, t_oracle, c=cq, as_printed=steps_printed, trace=tr)  # noqa: E731
    failure = None
    count: Optional[int] = None
    sec, _ = current_limits()
    try:
        # each oracle call refuses (before its kernel runs) beyond its share of the time limit
        with cost_limits(seconds=sec / ORACLE_CALLS):
            count = solve_int_partition(inst, p_oracle, c=Root(cq, 2), as_printed=steps_printed, trace=tr)
    except ReductionFailure as e:
        failure = str(e)
    except CostTooHigh as e:
        raise _oracle_refused(e, len(inst.z), sec) from None
    bf, note = (None, None)
    if check:
        bf, note = _try_bf(inst.count_brute_force, brute_force_limit)
    else:
        note = "brute force not run (check=False)"
    result = ChainResult(
        instance=inst,
        c=cq,
        as_printed=steps_printed,
        count=count,
        certified=count is not None,
        brute_force_count=bf,
        brute_force_note=note,
        oracle_calls=counter["calls"],
        engine_evaluations=counter["evals"],
        steps=tr.records,
        failure=failure,
    )
    with cost_limits(seconds=sec / SUM_BRUTE_FORCE_RUNS):
        _finish_records(tr, cq, check, brute_force_limit, steps_printed, max_prec)
    return result


def _finish_records(tr: Trace, c: Fraction, check: bool, limit: int, printed: tuple[str, ...], max_prec: int) -> None:
    """Fill in the Theorem 1.6 answers and, with ``check``, the brute-force comparisons."""
    prec = 96
    for rec in tr.records:
        if rec["step"] == "Lemma 4.11" and "precision_bits" in rec:
            prec = rec["precision_bits"]
    for rec, objs in zip(tr.records, tr.objects):
        step = rec["step"]
        if step == "Theorem 1.6" and "answer" in objs:
            inst = objs["instance"]
            N = inst.product_n()
            rec["sum_eps_le_ln_c"] = N * c.denominator ** inst.D <= c.numerator ** inst.D  # N^(1/D) <= c
            if objs["delta"].evaluations:
                rec["delta_g"] = ball_str(objs["delta"].arb(prec))
                rec["answer"] = ball_str(objs["answer"].arb(prec))
                rec["precision_bits"] = prec
        if not check or "failure" in rec:
            continue
        checks = []
        if step in ("Lemma 4.9", "Lemma 4.10"):
            own, n1 = _try_bf(objs["instance"].count_brute_force, limit)
            rec["brute_force"] = own if n1 is None else {"refused": n1}
            if own is not None and "answer" in rec:
                checks.append(_check("answer = brute force of this step's problem", rec["answer"] == own))
            if "oracle_instance" in objs:
                nxt, n2 = _try_bf(objs["oracle_instance"].count_brute_force, limit)
                rec["oracle_brute_force"] = nxt if n2 is None else {"refused": n2}
                if nxt is not None and own is not None:
                    checks.append(_check("brute force of the oracle's instance = brute force of this instance (the lemma's claim)", nxt == own))
                if nxt is not None and "oracle_answer" in rec:
                    checks.append(_check("oracle answer = brute force of the oracle's instance", rec["oracle_answer"] == nxt))
        elif step == "Lemma 4.11":
            inst = objs["instance"]
            own, n1 = _try_bf(inst.count_brute_force, limit)
            rec["brute_force"] = own if n1 is None else {"refused": n1}
            if own is not None and "answer" in rec:
                checks.append(_check("answer = brute force of this step's problem", rec["answer"] == own))
            if own is not None:
                # the step alone, with an exact (brute-force) #SUM-PARTITION oracle
                try:
                    alone = solve_t_partition(
                        inst,
                        lambda S: LazyReal(lambda p, S=S: S.brute_force(p, limit=min(limit, S.max_k))),
                        as_printed=printed,
                        max_prec=max_prec,
                    )
                    rec["with_brute_force_oracle"] = alone
                    checks.append(_check("the step with a brute-force #SUM-PARTITION oracle = brute force of this step's problem", alone == own))
                except CostTooHigh as e:  # pragma: no cover - limited above
                    rec["with_brute_force_oracle"] = {"refused": str(e)}
        elif step == "Theorem 1.6" and "answer" in objs and objs["delta"].evaluations:
            inst = objs["instance"]
            try:
                bfv = inst.brute_force(prec, limit=min(limit, inst.max_k))
            except CostTooHigh as e:
                rec["brute_force"] = {"refused": str(e)}
            else:
                rec["brute_force"] = ball_str(bfv)
                with workprec(prec):
                    ov = objs["answer"].arb(prec).overlaps(bfv)
                checks.append(_check("delta_g * prod(1 + w_i) and the brute-force #SUM-PARTITION value overlap (both are enclosures)", ov))
        if checks:
            rec["checks"] = checks


# --------------------------------------------------------------------------
# human-readable trace


def _short(s: str, n: int = 90) -> str:
    return s if len(s) <= n else s[: n - 12] + f"...({len(s)} chars)"


def _w_list(inst: dict, limit: int = 8) -> str:
    W = inst["W"]
    if len(W) <= limit:
        return "(" + ", ".join(W) + ")"
    return "(" + ", ".join(W[:limit]) + f", ... {len(W)} in all)"


def _ok(rec: dict, claim_prefix: str) -> str:
    for ch in rec.get("checks", []):
        if ch["claim"].startswith(claim_prefix):
            return "ok" if ch["holds"] else "MISMATCH"
    return ""


def _one_call_lines(add, rec: dict, oracle: str, this: str, answer_of: str) -> None:
    """Trace lines of a one-oracle-call step (Lemmas 4.9, 4.10): the lemma's claim by
    brute force, the oracle call, the answer."""
    bo, bt = rec.get("oracle_brute_force"), rec.get("brute_force")
    if isinstance(bo, int) and isinstance(bt, int):
        add(f"  the lemma's claim, by brute force: {oracle} = {bo}, {this} = {bt}: {_ok(rec, 'brute force of the oracle')}")
    if "oracle_answer" in rec:
        add(f"  1 oracle call: {oracle} = {rec['oracle_answer']}" + (f"   [brute force: {bo}, {_ok(rec, 'oracle answer')}]" if isinstance(bo, int) else ""))
        add(f"  answer: {rec['answer']}" + (f"   [brute force of {answer_of}: {bt}, {_ok(rec, 'answer')}]" if isinstance(bt, int) else ""))


def render_trace(result: ChainResult) -> str:
    """The human-readable trace printed by ``exactdp reduce``.

    Guarantee: exact transcription of the recorded steps (enclosures printed as
    outward-rounded decimal intervals).

    Raises: nothing (reads the records only).

    Examples:
        >>> print(render_trace(run_chain([2, 3, 6])).splitlines()[-3])
        #INT-PARTITION count from the OptComp oracle: 2 (certified)  (brute force: 2, agrees)

    References: docs/reductions.md (a worked example).
    """
    out: list[str] = []
    add = out.append
    inst = result.instance
    c = fraction_str(result.c)
    bf = result.brute_force_count
    add(f"#INT-PARTITION  Z = ({', '.join(map(str, inst.z))}),  k = {inst.k}")
    add(f"  brute force: {bf} partitions P with prod_P z_i = prod_notP z_i" if bf is not None else f"  brute force: {result.brute_force_note}")
    add(f"  chain constant c = {c}: every OptComp instance will have sum eps_i <= ln {c}")
    if result.as_printed:
        add(f"  steps run AS PRINTED: {', '.join('Lemma ' + s for s in result.as_printed)}")
    t16 = [r for r in result.steps if r["step"] == "Theorem 1.6"]
    for rec in result.steps:
        step = rec["step"]
        tag = " [as printed]" if rec.get("as_printed") else ""
        if step == "Lemma 4.9":
            add("")
            add(f"Lemma 4.9{tag}   #INT-PARTITION -> #PARTITION   (constant {rec['c']} = sqrt(c), as Lemma 4.10 needs)")
            add(f"  prod z_i = {_short(str(rec['prod_z']))};  ceil(log_{{{rec['c']}}} prod z_i) = {rec['D_printed']}" + (f";  D = {rec['D']}" if "D" in rec else ""))
            if "failure" in rec:
                add(f"  FAILS: {rec['failure']}")
                continue
            add(f"  W = {_w_list(rec['oracle_instance'])}  (w_i = z_i^(1/D));  prod w_i = {_short(rec['prod_w'])} <= {rec['c']}")
            _one_call_lines(add, rec, "#PARTITION(W)", "#INT-PARTITION(Z)", "#INT-PARTITION")
        elif step == "Lemma 4.10":
            add("")
            add(f"Lemma 4.10{tag}  #PARTITION -> #T-PARTITION")
            if rec.get("all_ones"):
                add(f"  every w_i = 1: no oracle call; {rec['note']}")
                b = rec.get("brute_force")
                add(f"  answer: {rec['answer']}" + (f"   [brute force of #PARTITION: {b}, {_ok(rec, 'answer')}]" if isinstance(b, int) else ""))
                continue
            k = rec["instance"]["k"]
            add(f"  w_{k + 1} = prod w_i = {_short(rec['w_k+1'])};  T = sqrt(w_{k + 1}) (w_{k + 1} - 1) = {_short(rec['T'])}")
            add(f"    = {rec['T_decimal']}")
            add(f"  W' = {_w_list(rec['oracle_instance'])}")
            _one_call_lines(add, rec, "#T-PARTITION(W', T)", "#PARTITION(W)", "#PARTITION(W)")
        elif step == "Lemma 4.11":
            add("")
            add(f"Lemma 4.11{tag}  #T-PARTITION -> #SUM-PARTITION")
            D = rec["instance"]["D"]
            N = rec["N"]
            add(f"  every gap is g(a) = a^(1/{D}) - ({_short(str(N), 40)}/a)^(1/{D}) for an integer a = prod_P n_i (increasing in a)")
            jt = rec["j_T"]
            add(f"  g(j) = T  at  j = {jt['floor']}" + (" exactly: T is attained" if jt["integer"] else "... (not an integer: T is not attained)") + f";  j' = floor(j + 1) = {jt['floor'] + 1}")
            tp = rec["T'_decimal"]
            add(f"  T' = g(j') = {tp};  c = (T + T')/2 = {rec['c_decimal']}")
            for name, key in (("T", "z''_T"), ("c", "z''_c")):
                zz = rec[key]
                if "z'" in zz:
                    zp = zz["z'_decimal"]
                    where = f"(z, z' = {zp})"
                    why = "as printed: ABOVE z"
                else:
                    lo = zz.get("z_prev_decimal", "0")
                    where = f"(z_prev = g({zz['j_prev']}) = {lo}, z)" if "z_prev_decimal" in zz else "(0, z)"
                    why = "corrected: below z, so P^z'' = P^z"
                add(f"  z'' for z = {name}: midpoint of {where} = {zz['value_decimal']}   [{why}]")
            if "r" in rec and rec["r"]:
                add("  4 oracle calls, #SUM-PARTITION(W, r):")
                labels = ("r_T", "r_T''", "r_c", "r_c''")
                for i, lab in enumerate(labels):
                    add(f"    {lab:6s} = {rec['r'][lab]}  ({rec['r_forms'][lab]})  ->  {rec['oracle_answers'][i]}")
                add(f"  sum over P^T of gap = {rec['sum_gap_P^T']};  sum over P^c of gap = {rec['sum_gap_P^c']}")
                add(f"  count = (difference) / T in {rec['count_enclosure']}  ->  {rec['answer']}  (certified at {rec['precision_bits']} bits)")
                b = rec.get("brute_force")
                if isinstance(b, int):
                    wb = rec.get("with_brute_force_oracle")
                    wbs = f"gives {wb}" if not isinstance(wb, dict) else "is not run (" + wb.get("refused", "refused").replace("k: ", "", 1) + ")"
                    add(f"  [brute force of #T-PARTITION: {b}, {_ok(rec, 'answer')}; the step with a brute-force #SUM-PARTITION oracle {wbs}]")
            if "failure" in rec:
                add(f"  FAILS: {rec['failure']}")
    if t16:
        r0 = t16[0]
        add("")
        add(f"Theorem 1.6  #SUM-PARTITION -> OptComp   ({len(t16)} calls, one per #SUM-PARTITION instance)")
        le = "<=" if r0.get("sum_eps_le_ln_c") else ">"
        add(f"  eps_i = ln w_i, delta_i = 0:  sum eps_i = {r0['sum_eps']} = {r0['sum_eps_decimal']} {le} ln {c}")
        add("  delta_g = composed_delta(mechanisms, exp_eps_g=r, engine='certified', prec=p);  answer = delta_g * prod(1 + w_i)")
        for i, rec in enumerate(t16, 1):
            if "delta_g" not in rec:
                continue
            b = rec.get("brute_force")
            add(f"  call {i}: e^eps_g = {rec['oracle_call']['e^eps_g']}: delta_g = {rec['delta_g']}")
            add(f"          answer = {rec['answer']}" + (f"   [brute force {b}: {_ok(rec, 'delta_g')}]" if isinstance(b, str) else ""))
    add("")
    if result.failure:
        add(f"FAILED: {result.failure}")
    else:
        agree = ""
        if result.brute_force_count is not None:
            agree = "  (brute force: " + str(result.brute_force_count) + (", agrees)" if result.agrees else ", DISAGREES)")
        add(f"#INT-PARTITION count from the OptComp oracle: {result.count}" + (" (certified)" if result.certified else "") + agree)
    add(f"OptComp oracle calls: {result.oracle_calls}; certified-engine evaluations: {result.engine_evaluations}")
    ch = result.checks_hold
    if ch is not None:
        add("every step check against brute force holds" if ch else "SOME STEP CHECKS FAIL (see MISMATCH above)")
    return "\n".join(out)
