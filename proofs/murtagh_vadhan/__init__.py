"""Checks of Murtagh-Vadhan, "The Complexity of Computing the Optimal Composition of
Differential Privacy" (TCC 2016): one module per numbered statement, named after it
(``lemma_4_10.py``), each registering the statement and key steps of its proof.

Shared exact transcriptions live in the underscore modules: ``_common`` (Definition
3.1, product distributions, Theorem 1.5 by brute force, exact LP), ``_partition``
(Section 4, exact radicals), ``_approx`` (Section 5), ``_adaptive`` (the
composition game), ``_divergence`` (Definition 2.1), ``_sym`` (sympy helpers).
"""

#: The numbered statements of the paper (also parsed from its text by the tests).
NUMBERED = [
    "Definition 1.1", "Theorem 1.2", "Theorem 1.3", "Theorem 1.4", "Theorem 1.5", "Theorem 1.6", "Theorem 1.7",
    "Definition 2.1", "Fact 2.2", "Definition 2.3",
    "Definition 3.1", "Lemma 3.2", "Lemma 3.3", "Theorem 3.4",
    "Definition 4.1", "Definition 4.2", "Definition 4.3", "Lemma 4.4", "Definition 4.5", "Definition 4.6",
    "Definition 4.7", "Definition 4.8", "Lemma 4.9", "Lemma 4.10", "Lemma 4.11",
    "Lemma 5.1", "Lemma 5.2", "Lemma 5.3",
]
