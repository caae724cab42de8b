"""Gaussian differential privacy (issue 11): mu-GDP certified, a fully adaptive GDP filter,
and the online simulator of Smith-Thakurta's proof.

* :mod:`.conversions` :class:`GDP` (mu^2 exact), :func:`gdp_delta`, :func:`gdp_epsilon`,
  :func:`gdp_mu`, :func:`gdp_tradeoff`, :func:`gaussian_mu`, :func:`compose_gdp`:
  Dong-Roth-Su's conversions as certified Arb enclosures.
* :mod:`.filter` :class:`GDPFilter`: answers adaptively chosen Gaussian queries while
  ``sum mu_i^2 <= mu_0^2`` (Smith-Thakurta Theorem 1), with an exact ledger and a log.
* :mod:`.simulator` :func:`cholesky_factor` (the canonical factor of ``I - m m^T``,
  exact; Smith-Thakurta Footnote 1, corrected) and :class:`OnlineSimulator` (the
  post-processing F* of the proof of Theorem 1).

A feature package (layer 5, ``docs/architecture.md``): it imports the numbers, errors,
links and engines layers only. Documentation: ``docs/gdp.md``.
"""

from .conversions import GDP, MAX_PARTS, TAIL_LIMIT, compose_gdp, gaussian_mu, gdp_delta, gdp_epsilon, gdp_mu, gdp_tradeoff
from .filter import BudgetExceeded, FilterEntry, GDPFilter
from .simulator import MAX_FACTOR_SIZE, CholeskyFactor, OnlineSimulator, cholesky_factor, cholesky_factor_symbolic, sigma_matrix

__all__ = [
    "GDP",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_mu",
    "gdp_tradeoff",
    "gaussian_mu",
    "compose_gdp",
    "TAIL_LIMIT",
    "MAX_PARTS",
    "GDPFilter",
    "FilterEntry",
    "BudgetExceeded",
    "CholeskyFactor",
    "cholesky_factor",
    "cholesky_factor_symbolic",
    "sigma_matrix",
    "OnlineSimulator",
    "MAX_FACTOR_SIZE",
]
