"""Certified accounting of Gaussian, Laplace, randomized-response, ``(eps, delta)`` and
Poisson-subsampled compositions (DP-SGD): two-sided enclosures of epsilon(delta) and
delta(eps) from certified lattice bounds on the privacy-loss distribution.

* :mod:`.laws` the loss laws of the dominating pairs, in Arb balls;
* :mod:`.lattice` the upper (connect-the-dots) and lower (post-processing) lattice bounds,
  their fixed-point composition with directed rounding, and the two queries;
* :mod:`.accountant` :class:`Accountant`, the public interface.
"""

from .accountant import RELATIONS, Accountant, AccountingResult

__all__ = ["Accountant", "AccountingResult", "RELATIONS"]
