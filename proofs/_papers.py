"""The papers with a check subpackage (kept out of ``proofs/__init__.py`` so that it
also loads when ``proofs`` is imported as a namespace package, as an editable
install made before ``proofs/__init__.py`` existed does)."""

#: name -> (title, paper text file under ../shared/papers, or a path relative to this
#: package for statements kept in the repository, e.g. ``accounting/STATEMENTS.md``).
PAPERS = {
    "murtagh_vadhan": (
        "Murtagh, Vadhan. The Complexity of Computing the Optimal Composition of Differential Privacy (TCC 2016)",
        "murtagh-vadhan-2016-complexity-optimal-composition.txt",
    ),
    "kairouz_oh_viswanath": (
        "Kairouz, Oh, Viswanath. The Composition Theorem for Differential Privacy (ICML 2015)",
        "kairouz-oh-viswanath-2015-composition-theorem.txt",
    ),
    "vadhan_wang": (
        "Vadhan, Wang. Concurrent Composition of Differential Privacy (TCC 2021)",
        "vadhan-wang-2021-concurrent-composition.txt",
    ),
    "vadhan_zhang": (
        "Vadhan, Zhang. Concurrent Composition Theorems for Differential Privacy (STOC 2023)",
        "vadhan-zhang-2023-concurrent-composition-fdp.txt",
    ),
    "smith_thakurta": (
        "Smith, Thakurta. Fully Adaptive Composition for Gaussian Differential Privacy",
        "smith-thakurta-gdp-fully-adaptive.txt",
    ),
    "accounting": (
        "Accounting lemmas: the mathematics of certified privacy-loss-distribution accounting (statements with their sources)",
        "accounting/STATEMENTS.md",
    ),
}

#: Papers planned (their subpackages are added as their checks are written).
PLANNED: tuple = ()
