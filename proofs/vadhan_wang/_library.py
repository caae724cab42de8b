"""The bridge from the independent finite mechanisms (:mod:`._interactive`) to exactdp's game trees.

Only a change of representation: the tree of :class:`exactdp.interactive.InteractiveMechanism`
is built node by node from ``Mech.cond`` (labels ``str(q)``, ``str(a)``), and a library tree
(a simulator ``T`` found by exactdp) is read back into a :class:`._interactive.Mech` with the
same histories, so that the independent checks judge it. No privacy quantity is computed here.

Guarantee: exact (Fractions).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Dict, Optional, Sequence

from . import _dp as D
from . import _interactive as I


def to_lib(m: I.Mech, x0=0, x1=1, name: str = "", labels: Sequence[str] = ("x", "x'")):
    """``m`` on the pair (x0, x1) as an exactdp InteractiveMechanism (its inputs named ``labels``)."""
    from exactdp.interactive import Branch, InteractiveMechanism, Node

    def node(h: tuple, r: int):
        if r == m.rounds:
            return None
        qs = {}
        for q in m.queries[r]:
            c0, c1 = m.cond[x0][h + (q,)], m.cond[x1][h + (q,)]
            qs[str(q)] = {str(a): Branch([c0.get(a, F(0)), c1.get(a, F(0))], node(h + (q, a), r + 1))
                          for a in m.answers}
        return Node(qs)

    return InteractiveMechanism(node((), 0), inputs=tuple(labels), name=name or m.name)


#: The independent name of each input of a library simulator (``exactdp.interactive.rr_weights``): RR_eps has
#: the outputs ``0, 1`` only, RR_(eps,delta) with delta > 0 also ``Iam0, Iam1``.
SIM_INPUTS = {"0": 0, "1": 1, "Iam0": D.IAM0, "Iam1": D.IAM1}


def from_lib(T, template: I.Mech, inputs: Optional[Sequence] = None) -> I.Mech:
    """A library tree with the histories of ``template`` (labels ``str(q)``, ``str(a)``) as an independent Mech
    whose inputs are ``inputs`` (one per library input, in order; default: a simulator's inputs by
    :data:`SIM_INPUTS`, so a simulator of RR_(eps,0) has the inputs ``0, 1`` only)."""
    if inputs is None:
        inputs = tuple(SIM_INPUTS[str(c)] for c in T.inputs)
    if len(inputs) != len(T.inputs):
        raise ValueError(f"from_lib: {len(inputs)} inputs named for a tree with inputs {list(T.inputs)}")
    doc = T.to_json()
    cond: Dict[object, Dict[tuple, Dict]] = {x: {} for x in inputs}
    for r in range(template.rounds):
        for h in template.histories(r):
            node = doc["root"]
            for i in range(0, len(h) - 1, 2):
                node = node[str(h[i])][str(h[i + 1])]["next"]
            answers = node[str(h[-1])]
            for j, x in enumerate(inputs):
                cond[x][h] = {a: F(answers[str(a)]["p"][j]) for a in template.answers if str(a) in answers}
    return I.Mech(template.queries, template.answers, cond, "T from exactdp")


def mechanisms(ws, ds):
    """exactdp Mechanism objects for the (e^eps_i, delta_i)."""
    from exactdp import Mechanism

    return [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]
