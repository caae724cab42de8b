"""The experiment of Vadhan-Wang Section 6, reproduced with exact verification.

Each trial draws a random 2-round mechanism with 1-bit messages (their Figure 1;
:func:`exactdp.interactive.tree.random_two_round`: ten parameters uniform on
``{1/D, ..., (D-1)/D}``), computes ``eps* = PrivLoss(M, delta)`` by enumerating the
adversaries as the paper does (and by the dynamic programme: the two must agree),
then searches the paper's linear programme for an interactive post-processing ``T``
of RR_(eps*, delta) (HiGHS) and keeps it only if the exact check passes. Just below
the tight value (``e^eps' = 1 + (e^eps* - 1)(1 - 10^-6)``) the LP must be infeasible:
that is proved exactly by a Farkas certificate (and follows from post-processing: a
``T`` there would make ``M`` (eps', delta)-DP).

The paper reports: over 10,000 sampled mechanisms, a feasible ``T`` in every trial.

Trials are independent and deterministic (trial ``i`` draws from ``Random("seed:i")``),
so a run can be resumed from its state file (append-only JSON lines, one per finished
trial, each written with one ``write`` and ``fsync``; a torn last line is dropped) and
distributed over Dask workers with results identical to a serial run.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Callable, Optional

from ..errors import InvalidArgument
from ..jobs import run_tasks
from ..links import implements
from ..numbers import fraction_str, parse_delta, parse_int
from ..numbers.parse import parse_rational

__all__ = ["run_trial", "run_experiment", "summarize", "MAX_TRIALS", "BELOW"]

#: Most trials in one run.
MAX_TRIALS = 1_000_000
#: How far below the tight e^eps the LP is asked again: ``1 + (t* - 1)(1 - BELOW)``.
BELOW = Fraction(1, 10**6)

EXPERIMENT = "vw-section6"
STATE_VERSION = 1


@implements("Vadhan-Wang Theorem 5.1", "Vadhan-Zhang Theorem 1.5")
def run_trial(seed: int, index: int, delta: Fraction, denominator: int) -> dict:
    """One trial (module docstring), as a JSON-ready dict. Deterministic in its arguments.

    Guarantee: exact (``verified_exact`` and ``below_infeasible_exact`` are exact checks;
    ``lp_feasible`` is the float LP's word, reported beside them).

    Raises: InvalidArgument (highspy not installed).

    Examples:
        >>> r = run_trial(1, 0, Fraction(1, 100), 20)
        >>> r["privloss_agree"], r["lp_feasible"], r["verified_exact"], r["below_infeasible_exact"]
        (True, True, True, True)
    """
    from ..interactive.privacy import privacy_loss
    from ..interactive.simulator import find_simulator
    from ..interactive.tree import random_two_round

    rng = random.Random(f"{seed}:{index}")
    params, m = random_two_round(rng, denominator)
    pe = privacy_loss(m, delta, method="enumerate")
    pd = privacy_loss(m, delta, method="dp")
    t = pe.exp_exact
    out: dict = {"index": index, "params": [fraction_str(p) for p in params],
                 "exp_eps": None if t is None else fraction_str(t), "privloss_agree": pe.exp_exact == pd.exp_exact}
    if t is None:  # no finite eps at this delta: nothing to simulate
        out.update(lp_feasible=None, verified_exact=None, below_tested=False, below_infeasible_float=None,
                   below_infeasible_exact=None)
        return out
    r = find_simulator(m, t, delta)
    out["lp_feasible"] = r.lp.float_status == "Optimal"
    out["verified_exact"] = r.status == "verified"
    if t > 1:
        tb = 1 + (t - 1) * (1 - BELOW)
        r2 = find_simulator(m, tb, delta)
        out.update(below_tested=True, below_infeasible_float=r2.lp.float_status == "Infeasible",
                   below_infeasible_exact=r2.status == "infeasible")
    else:
        out.update(below_tested=False, below_infeasible_float=None, below_infeasible_exact=None)
    return out


def _header(seed: int, delta: Fraction, denominator: int) -> dict:
    return {"experiment": EXPERIMENT, "state_version": STATE_VERSION, "seed": seed, "delta": fraction_str(delta),
            "denominator": denominator}


def _scheduler(scheduler: Optional[str]) -> tuple[Optional[str], Optional[int]]:
    """``(scheduler address, local workers)`` for ``--scheduler``: ``local`` / ``local:N`` start a
    LocalCluster of N (default 2) worker processes, anything else is a scheduler's address."""
    if scheduler is None:
        return None, None
    if scheduler == "local" or scheduler.startswith("local:"):
        return None, parse_int(scheduler.split(":", 1)[1], "--scheduler workers", lo=1, hi=64) if ":" in scheduler else 2
    from ..jobs import check_scheduler

    return check_scheduler(scheduler), None


def run_experiment(trials: int, seed: int, delta: object = "1/100", *, denominator: int = 100,
                   state: Optional[str] = None, scheduler: Optional[str] = None, progress: bool = False,
                   on_result: Optional[Callable[[dict], None]] = None) -> dict:
    """Run (or resume) ``trials`` trials and return :func:`summarize` of all of them.

    Guarantee: as :func:`run_trial`; the result does not depend on resumption or on the scheduler.

    Parameters:
        trials: number of trials (1..MAX_TRIALS).
        seed: the seed (trial i uses ``Random("seed:i")``).
        delta: the delta of PrivLoss and of RR (rational in [0, 1)).
        denominator: the parameters' grid ``{1/D, ..., (D-1)/D}``.
        state: a JSON-lines file: finished trials are read from it and new ones appended.
        scheduler: ``"local"``, ``"local:N"`` (a Dask LocalCluster with N worker processes) or a
            Dask scheduler address; None runs serially.
        progress: print a progress bar on stderr.
        on_result: called with each new trial's record once it is on disk.

    Raises:
        InvalidArgument: bad parameters, a state file of another experiment, Dask or highspy
            missing, trials lost to killed Dask workers (the finished ones are in ``state``).

    Examples:
        >>> s = run_experiment(3, 7, "1/100", denominator=20)
        >>> s["trials"], s["feasible"], s["verified_exact"], s["below_tight"]["infeasible_exact"]
        (3, 3, 3, 3)
    """
    trials = parse_int(trials, "--trials", lo=1, hi=MAX_TRIALS)
    seed = parse_int(seed, "--seed", lo=0, hi=2**63 - 1)
    d = parse_delta(delta, "--delta")
    denominator = parse_int(denominator, "--denominator", lo=2, hi=10**6)
    from ..interactive.lp import have_lp

    if not have_lp():
        raise InvalidArgument("lp", "the LP solver highspy installed (pip install 'exactdp[lp]')", "not installed")
    address, workers = _scheduler(scheduler)
    tasks = [(str(i), (seed, i, d, denominator)) for i in range(trials)]
    results = run_tasks(run_trial, tasks, state=state, header=_header(seed, d, denominator), scheduler=address,
                        workers=workers, progress=progress, what="trials", on_result=on_result, key="index")
    if len(results) < trials:  # lost to killed Dask workers (run_tasks said so); the finished ones are kept
        raise InvalidArgument("--scheduler", "a run that finishes every trial (run again with the same --state to "
                              "compute the rest)", f"{trials - len(results)} trials lost to killed workers")
    return summarize([results[str(i)] for i in range(trials)], seed=seed, delta=d, denominator=denominator)


def summarize(records: list[dict], *, seed: int, delta: Fraction, denominator: int) -> dict:
    """Counts over trial records, with the paper's claim beside them. Guarantee: exact counts.
    Raises: nothing."""
    n = len(records)
    finite = [r for r in records if r["exp_eps"] is not None]
    below = [r for r in records if r.get("below_tested")]
    ts = sorted(parse_rational(r["exp_eps"], "exp_eps") for r in finite)
    return {
        "experiment": EXPERIMENT,
        "trials": n,
        "seed": seed,
        "delta": fraction_str(delta),
        "denominator": denominator,
        "finite_privloss": len(finite),
        "privloss_methods_agree": sum(1 for r in records if r["privloss_agree"]),
        "feasible": sum(1 for r in finite if r["lp_feasible"]),
        "verified_exact": sum(1 for r in finite if r["verified_exact"]),
        "below_tight": {"tested": len(below), "below": f"e^eps' = 1 + (e^eps* - 1)(1 - {fraction_str(BELOW)})",
                        "infeasible_float": sum(1 for r in below if r["below_infeasible_float"]),
                        "infeasible_exact": sum(1 for r in below if r["below_infeasible_exact"])},
        "exp_eps": {"min": fraction_str(ts[0]), "max": fraction_str(ts[-1])} if ts else None,
        "paper": {"trials": "over 10,000", "feasible": "all (SciPy LP, floating point)"},
    }
