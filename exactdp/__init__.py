"""exactdp: exact and certified optimal composition of differential privacy.

Murtagh-Vadhan, "The Complexity of Computing the Optimal Composition of
Differential Privacy" (TCC 2016), Theorem 1.5, computed exactly in rational
arithmetic or as rigorous Arb enclosures; see ``docs/engines.md`` and, for the
layers of the package, ``docs/architecture.md``.

The public names below are loaded on first use (PEP 562), so that ``import
exactdp`` and ``exactdp --help`` do not load the numeric stack (FLINT, gmpy2,
mpmath, NumPy) until a computation needs it.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

__version__ = "0.1.0"

#: public name -> module that defines it
_EXPORTS = {
    # events
    "Mechanism": "exactdp.events",
    "Gaussian": "exactdp.noise_events",
    "Laplace": "exactdp.noise_events",
    "RandomizedResponse": "exactdp.noise_events",
    "PoissonSampled": "exactdp.noise_events",
    "Composed": "exactdp.noise_events",
    "Accountant": "exactdp.accounting",
    "calibrate_sigma": "exactdp.accounting",
    "calibrate_laplace": "exactdp.accounting",
    "calibrate_sample_rate": "exactdp.accounting",
    "calibrate_steps": "exactdp.accounting",
    "Composition": "exactdp.events",
    "mechanisms": "exactdp.events",
    # engines
    "composed_delta": "exactdp.engines",
    "optcomp": "exactdp.engines",
    "DeltaResult": "exactdp.engines",
    "EpsResult": "exactdp.engines",
    "ENGINES": "exactdp.engines",
    "METHODS": "exactdp.engines",
    # the privacy profile
    "PrivacyProfile": "exactdp.profile",
    # approximation and certification
    "theorem17": "exactdp.approx",
    "optcomp_bounds": "exactdp.approx",
    "delta_bounds": "exactdp.approx",
    "certify": "exactdp.certify",
    "Certificate": "exactdp.certify",
    # interactive mechanisms (Vadhan-Wang, Vadhan-Zhang)
    "InteractiveMechanism": "exactdp.interactive",
    "privacy_loss": "exactdp.interactive",
    "mechanism_tradeoff": "exactdp.interactive",
    "concurrent": "exactdp.interactive",
    "compare_concurrent": "exactdp.interactive",
    "vw_bound": "exactdp.interactive",
    "rr_simulator": "exactdp.interactive",
    "find_simulator": "exactdp.interactive",
    "renyi_divergence": "exactdp.renyi",
    "renyi_interactive": "exactdp.renyi",
    "rdp_composition": "exactdp.renyi",
    # Gaussian differential privacy (issue 11)
    "GDP": "exactdp.gdp",
    "gdp_delta": "exactdp.gdp",
    "gdp_epsilon": "exactdp.gdp",
    "gdp_mu": "exactdp.gdp",
    "gdp_tradeoff": "exactdp.gdp",
    "gaussian_mu": "exactdp.gdp",
    "compose_gdp": "exactdp.gdp",
    "GDPFilter": "exactdp.gdp",
    "BudgetExceeded": "exactdp.gdp",
    "OnlineSimulator": "exactdp.gdp",
    "cholesky_factor": "exactdp.gdp",
    # f-DP, privacy regions, bounds and calibration (issue 9)
    "TradeOff": "exactdp.fdp",
    "f_eps_delta": "exactdp.fdp",
    "tradeoff_of": "exactdp.fdp",
    "composition_tradeoff": "exactdp.fdp",
    "tradeoff_sup": "exactdp.fdp",
    "tradeoff_inf": "exactdp.fdp",
    "tradeoff_from_guarantees": "exactdp.fdp",
    "GaussianTradeOff": "exactdp.fdp",
    "PrivacyRegion": "exactdp.regions",
    "dp_region": "exactdp.regions",
    "composition_region": "exactdp.regions",
    "theorem33_region": "exactdp.regions",
    "check_theorem33": "exactdp.regions",
    "composition_bounds": "exactdp.bounds",
    "calibrate": "exactdp.bounds",
    # numbers
    "Enclosure": "exactdp.numbers",
    "ExpNum": "exactdp.numbers",
    "RatExp": "exactdp.numbers",
    "Root": "exactdp.numbers",
    "Computable": "exactdp.numbers",
    "parse_rational": "exactdp.numbers",
    # errors
    "ExactDPError": "exactdp.errors",
    "InvalidArgument": "exactdp.errors",
    "NotExact": "exactdp.errors",
    "CostTooHigh": "exactdp.errors",
    "PrecisionError": "exactdp.errors",
    "Undecided": "exactdp.errors",
    "ReductionFailure": "exactdp.errors",
    "FloatInputWarning": "exactdp.errors",
    # proof links
    "implements": "exactdp.links",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'exactdp' has no attribute {name!r}")
    value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Facade(types.ModuleType):
    """The package module: the import system binds each imported submodule as an attribute
    of its package; for the submodule ``exactdp.certify``, which shares its name with the
    exported function ``certify``, the function is kept (``from exactdp import certify`` is
    always the function; the module is ``sys.modules["exactdp.certify"]``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _EXPORTS.get(name) == value.__name__:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Facade
