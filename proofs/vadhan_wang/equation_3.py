"""Vadhan-Wang Equation (3) (chain rule for Renyi divergence) and the remark after it.

Printed: D_alpha((Y, Z) || (Y', Z')) <= D_alpha(Y || Y') + sup_y D_alpha(Z|_{Y=y} || Z'|_{Y'=y}) (3);
"the Chain Rule (3) does not hold if we replace the supremum with an expectation".

Checked: random joint distributions (full support) on Y x Z (|Y|, |Z| in 2..3):
* alpha in {2, 3}: exactly in exp-space, E_alpha(P || Q) = sum p^alpha q^(1-alpha) = e^{(alpha-1) D_alpha};
  (3) reads E(joint) <= E(Y) max_y E(Z|y) for alpha > 1;
* alpha in {1/2, 3/2, 5/2} and alpha = 1 (KL): with Arb balls (certified; for alpha < 1 the exp-space
  inequality flips, E(joint) >= E(Y) min_y E(Z|y)).
The remark, with the expectation over y ~ Y: an exact counterexample at alpha = 2 (Y uniform on {0,1}
under both; Z|Y=0 equal; Z|Y=1: (1, 0) vs (1/2, 1/2)): D_2(joint) = ln(3/2) > D_2(Y) + E_y D_2(Z|y) =
(ln 2)/2, since (3/2)^2 = 9/4 > 2. This confirms the remark (it is evidence for the paper, not a refutation).
"""

from __future__ import annotations

from fractions import Fraction as F

from flint import arb

from .._framework import Proof, statement
from . import _arb as R
from . import _dp as D


def rand_joint(rng, ny: int, nz: int):
    PY = D.rand_dist_seq(rng, ny, zeros=False)
    Pz = [D.rand_dist_seq(rng, nz, zeros=False) for _ in range(ny)]
    return PY, Pz


def E_exact(P, Q, a: int) -> F:
    return sum((F(p) ** a * F(q) ** (1 - a) for p, q in zip(P, Q)), F(0))


def E_arb(P, Q, a: F) -> arb:
    s = arb(0)
    A = R.A(a)
    for p, q in zip(P, Q):
        s += (A * R.A(p).log() + (1 - A) * R.A(q).log()).exp()
    return s


def chain_rhs(EY, Ezs):
    """Right side of (3) in exp-space for alpha > 1: E(Y) times the largest E(Z|y) (the supremum over y)."""
    return EY * max(Ezs)


def kl_arb(P, Q) -> arb:
    s = arb(0)
    for p, q in zip(P, Q):
        s += R.A(p) * (R.A(p).log() - R.A(q).log())
    return s


@statement(
    "Equation (3)",
    "D_alpha((Y,Z) || (Y',Z')) <= D_alpha(Y || Y') + sup_y D_alpha(Z|_{Y=y} || Z'|_{Y'=y}); it fails with the supremum "
    "replaced by an expectation.",
)
def equation(p: Proof) -> None:
    n_ex = n_cert = 0
    for _ in range(60 if p.full else 20):
        ny, nz = p.rng.randint(2, 3), p.rng.randint(2, 3)
        (PY, Pz), (QY, Qz) = rand_joint(p.rng, ny, nz), rand_joint(p.rng, ny, nz)
        jP = [PY[y] * Pz[y][z] for y in range(ny) for z in range(nz)]
        jQ = [QY[y] * Qz[y][z] for y in range(ny) for z in range(nz)]
        for a in (2, 3):
            lhs = E_exact(jP, jQ, a)
            rhs = chain_rhs(E_exact(PY, QY, a), [E_exact(Pz[y], Qz[y], a) for y in range(ny)])
            n_ex += 1
            if not p.require(lhs <= rhs, f"chain rule (3), alpha = {a}", f"P: {PY} {Pz}; Q: {QY} {Qz}"):
                return
        for a in (F(1, 2), F(3, 2), F(5, 2)):
            def balls(a=a):
                Ej, EY = E_arb(jP, jQ, a), E_arb(PY, QY, a)
                Ey = [E_arb(Pz[y], Qz[y], a) for y in range(ny)]
                return Ej, EY, Ey
            if a > 1:  # E(joint) <= E(Y) max_y E(Z|y): decided as "< E(Y) E(Z|y) for some y" (ties excepted)
                ok = any(R.decide(lambda y=y: (balls()[0], balls()[1] * balls()[2][y])) for y in range(ny))
            else:
                ok = any(R.decide(lambda y=y: (balls()[1] * balls()[2][y], balls()[0])) for y in range(ny))
            n_cert += 1
            if not p.require(ok, f"chain rule (3), alpha = {a}", f"P: {PY} {Pz}; Q: {QY} {Qz}"):
                return
        kl_ok = R.decide(lambda: (kl_arb(jP, jQ), kl_arb(PY, QY) + max((kl_arb(Pz[y], Qz[y]) for y in range(ny)),
                                                                         key=lambda b: b.mid()) + arb("1e-30")))
        n_cert += 1
        if not p.require(kl_ok, "chain rule (3), alpha = 1 (KL)", f"P: {PY} {Pz}; Q: {QY} {Qz}"):
            return
    p.instances("alpha in {2, 3}: E(joint) <= E(Y) max_y E(Z|y) in rationals", n_ex)
    p.instances("alpha in {1/2, 3/2, 5/2} and KL: the same with Arb balls", n_cert, "certified")
    # the remark: an exact counterexample to the expectation version at alpha = 2
    PY = QY = [F(1, 2), F(1, 2)]
    Pz, Qz = [[F(1, 2), F(1, 2)], [F(1), F(0)]], [[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]]
    Ej = E_exact([PY[y] * Pz[y][z] for y in range(2) for z in range(2)],
                 [QY[y] * Qz[y][z] for y in range(2) for z in range(2)], 2)
    E0, E1 = E_exact(Pz[0], Qz[0], 2), E_exact(Pz[1], Qz[1], 2)
    # D_joint > D_Y + (D_0 + D_1)/2  <=>  Ej^2 > EY^2 E0 E1 (EY = 1)
    if p.require(Ej == F(3, 2) and E0 == 1 and E1 == 2 and Ej ** 2 > E0 * E1, "the expectation version fails", ""):
        p.instances("remark confirmed: Y uniform on {0,1} under both, Z|0 equal, Z|1 (1,0) vs (1/2,1/2): D_2(joint) = "
                    "ln(3/2) > D_2(Y) + E_y D_2(Z|y) = (ln 2)/2, exactly ((3/2)^2 > 2)", 1, "exhaustive")
