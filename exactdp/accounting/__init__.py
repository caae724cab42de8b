"""Certified accounting of Gaussian, Laplace, randomized-response, ``(eps, delta)`` and
Poisson-subsampled compositions (DP-SGD): two-sided enclosures of epsilon(delta) and
delta(eps) from certified lattice bounds on the privacy-loss distribution.

* :mod:`.laws` the loss laws of the dominating pairs, in Arb balls;
* :mod:`.lattice` the upper (connect-the-dots) and lower (post-processing) lattice bounds,
  their fixed-point composition with directed rounding, and the two queries;
* :mod:`.accountant` :class:`Accountant`, the public interface;
* :mod:`.calibrate` certified calibration: the least sigma or Laplace scale, the largest
  sampling rate, the most steps for a budget;
* :mod:`.curve` :class:`PrivacyCurve`, delta(eps) on a grid from one lattice (:meth:`Accountant.curve`).
"""

from .accountant import RELATIONS, Accountant, AccountingResult
from .calibrate import (
    NoiseCalibration,
    SampleRateCalibration,
    StepsCalibration,
    calibrate_laplace,
    calibrate_sample_rate,
    calibrate_sigma,
    calibrate_steps,
)
from .curve import PrivacyCurve

__all__ = ["Accountant", "AccountingResult", "RELATIONS", "NoiseCalibration", "SampleRateCalibration",
           "StepsCalibration", "PrivacyCurve", "calibrate_sigma", "calibrate_laplace", "calibrate_sample_rate", "calibrate_steps"]
