"""Meet in the middle, split by concern (``docs/architecture.md``):

* :mod:`.keys` exact keys of likelihood ratios (number theory);
* :mod:`.halves` the two halves and their per-class form;
* :mod:`.limbs` fixed-point limb arithmetic (numpy, exact integer sums);
* :mod:`.vector` the vector form and its state on disk;
* :mod:`.kernel` the kernel :class:`MITM` and its plug-in; :mod:`.cost` its cost model;
* :mod:`.dask_split` its evaluations over Dask workers (:func:`distributed`).
"""

from __future__ import annotations

from .cost import mitm_cost, mitm_estimate, mitm_vec_cost, mitm_vec_limbs
from .dask_split import distributed
from .halves import half_classes, split_groups
from .kernel import MITM, MITM_KERNEL
from .keys import coprime_base, ratio_keys
from .vector import VEC_MIN_CLASSES, vec_applies, vec_default

__all__ = ["MITM", "MITM_KERNEL", "ratio_keys", "coprime_base", "split_groups", "half_classes", "vec_applies",
           "vec_default", "distributed", "VEC_MIN_CLASSES", "mitm_cost", "mitm_estimate", "mitm_vec_cost",
           "mitm_vec_limbs"]
