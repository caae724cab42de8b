"""Checks of the accounting lemmas: the mathematics of certified privacy-loss-distribution
(PLD) accounting, numbered in ``STATEMENTS.md`` beside this file (this paper's text, with
the published source of each statement); one module per lemma (``lemma_1.py`` ...
``lemma_13.py``).

Lemma 1 (hockey-stick divergence as an expectation of the privacy loss; composition is
convolution; monotonicity), Lemmas 2-4 (Gaussian, Laplace, randomized response: pairs, loss
laws, closed forms), Lemmas 5-6 (Poisson subsampling under add/remove and under
replace_one), Lemmas 7-9 (the discretisations: connect-the-dots above, bin masses below,
truncation and fixed-point rounding), Lemma 10 (add_remove is the maximum of the two
directions, each composed on its own), Lemma 11 (one Poisson-subsampled Gaussian step in
closed form: the threshold of its monotone loss and two or three Gaussian tails),
Lemma 12 (lattice tails as contour integrals and the
bounds that certify the trapezoidal rule on a circle: the contour kernel of the engines),
Lemma 13 (re-binning a discrete loss law on a coarser lattice between powers: an atom split to
the coarse points around it above, atoms merged into bins below).

Shared transcriptions: ``_discrete`` (exact rational pairs, loss laws, hockey-stick
divergences by definition and by the loss formula, products, the constructions of Lemmas
7-9), ``_gauss`` (mpmath: Phi, Gaussian and Laplace closed forms, quadrature of
sup_S P(S) - alpha Q(S) for one-dimensional and two-dimensional mixtures).
"""

from __future__ import annotations

import re

#: The numbered statements, in order.
NUMBERED = [f"Lemma {i}" for i in range(1, 14)]

_HEADING = re.compile(r"^## Lemma (\d+)\.\s*$", re.M)


def parse_numbered(text: str) -> list[str]:
    """The lemmas of ``STATEMENTS.md`` (headings ``## Lemma N.``), in order of appearance."""
    out: list[str] = []
    for m in _HEADING.finditer(text):
        s = f"Lemma {m.group(1)}"
        if s not in out:
            out.append(s)
    return out
