"""Interactive mechanisms (Vadhan-Wang 2021, Vadhan-Zhang 2023), computed exactly.

* :mod:`.tree` finite interactive mechanisms as exact game trees, with a JSON form;
* :mod:`.adversary` deterministic adversaries (counted, enumerated) and their views;
* trade-off functions are :class:`exactdp.fdp.TradeOff` (Neyman-Pearson, sup, the chain rule
  of Claim 3.4, tensor products: :mod:`exactdp.fdp`, re-exported here);
* :mod:`.privacy` PrivLoss, delta and the trade-off function against the best adversary
  (dynamic programme and enumeration, which must agree);
* :mod:`.concurrent` concurrent composition and its comparison with the non-interactive optimum;
* :mod:`.vw` Vadhan-Wang Theorem 4.1 and the order that minimises its delta;
* :mod:`.simulator` the randomized-response simulator (exact construction; LP search verified exactly);
* :mod:`.blackwell` Blackwell post-processing kernels; :mod:`.lp` float search, exact answers.

See ``docs/interactive.md``.
"""

from ..fdp import TradeOff, chain_rule, tensor, tradeoff_of
from ..fdp import tradeoff_sup as sup
from .adversary import Adversary, adversaries, count_adversaries
from .blackwell import blackwell_kernel
from .concurrent import compare_concurrent, concurrent
from .privacy import delta_of, mechanism_tradeoff, privacy_loss
from .simulator import find_simulator, rr_simulator, verify_simulation
from .tree import Branch, InteractiveMechanism, Node, noninteractive, random_two_round, randomized_response, two_round_bits
from .vw import optimal_delta_at_sum, vw_best_order, vw_bound, vw_delta

__all__ = [
    "InteractiveMechanism", "Node", "Branch", "noninteractive", "randomized_response", "two_round_bits",
    "random_two_round", "Adversary", "adversaries", "count_adversaries", "TradeOff", "tradeoff_of", "sup",
    "chain_rule", "tensor", "privacy_loss", "mechanism_tradeoff", "delta_of", "concurrent",
    "compare_concurrent", "vw_delta", "vw_best_order", "vw_bound", "optimal_delta_at_sum", "rr_simulator",
    "verify_simulation", "find_simulator", "blackwell_kernel",
]
