"""Ground truth for other accountants' test suites (issue 13): ``from exactdp.testing import check_accountant``.

* :func:`check_accountant` / :func:`assert_sound`: an accountant's answers decided
  rigorously against the certified optimum (Murtagh-Vadhan Theorem 1.5): sound,
  unsound (a privacy violation, with the margin), loose (relative excess), undecided.
* :func:`check_events` (also through ``check_accountant`` on event cases), :class:`EventCase`,
  :func:`reference`: two-sided verdicts on accountants of Gaussian, Laplace, randomized-response
  and Poisson-subsampled (DP-SGD) compositions: upper bounds unsound, lower bounds invalid,
  estimates against their own error bars (:mod:`exactdp.testing.dpsgd`).
* :func:`standard_cases`, :class:`Case`, :func:`float_groups`: the questions to ask,
  and the composition in the float form most accountants take.
* Hypothesis strategies (:mod:`exactdp.testing.strategies`, needs ``hypothesis``):
  :func:`compositions`, :func:`homogeneous`, :func:`heterogeneous`, :func:`lattice`,
  :func:`mechanism_lists`, :func:`cases`, ``delta_g_values``, ``eps_g_values``.

This API is public and stable (``docs/testing.md``). Names are loaded on first use,
so importing the package loads neither the numeric stack nor Hypothesis.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "check_accountant": "check", "assert_sound": "check", "AccountantReport": "check", "Verdict": "check",
    "Case": "check", "optimum": "check", "exact_answer": "check", "decide": "check", "DIRECTIONS": "check",
    "standard_cases": "standard", "float_groups": "standard", "is_float_exact": "standard",
    "mechanisms_st": "strategies", "homogeneous": "strategies", "heterogeneous": "strategies",
    "lattice": "strategies", "compositions": "strategies", "mechanism_lists": "strategies", "cases": "strategies",
    "delta_g_values": "strategies", "eps_g_values": "strategies",
    "EventCase": "dpsgd", "EventVerdict": "dpsgd", "EventReport": "dpsgd", "check_events": "dpsgd",
    "decide_event": "dpsgd", "reference": "dpsgd", "dpsgd_params": "dpsgd", "corpus_cases": "dpsgd",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    sub = _EXPORTS.get(name)
    if sub is None:
        raise AttributeError(f"module 'exactdp.testing' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{sub}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
