"""Names vulture reports as unused that are not dead (``make lint`` runs vulture on exactdp/).

Each entry says why it stays. vulture reads this file, nothing imports it. Add a name
here only for a true positive of the kinds below; delete dead code instead.
"""
# ruff: noqa
_ = object()

# PEP 562 lazy modules: Python calls these
__getattr__  # exactdp/__init__.py, _backend.py, numbers/__init__.py, testing/__init__.py, integrations/__init__.py
__dir__
_.__class__  # exactdp/__init__.py: the facade's module class

# public API: documented result fields and methods (used by the tests and docs, not by the library)
exact_lower  # approx/sandwich.py
exact_upper
_.applies  # bounds/composition.py
delta_lower  # certify.py: Certificate's documented properties
delta_upper
eps_lower
eps_upper
eps_exact
_.is_symmetric  # fdp/tradeoff.py
_.privacy_loss_values
_.for_target  # gdp/filter.py
_.remaining_mu
_.can_afford
_.gram  # gdp/simulator.py
_.to_sympy
_.to_numpy
kernel  # interactive/blackwell.py: a result field
farkas  # interactive/lp.py: a result field
variables  # interactive/simulator.py: result fields
constraints
_.is_subset  # regions/polygon.py
_.of_tradeoff

# set for a library that reads them
_.required  # argparse subparsers (cli/__init__.py, cli/corpus.py)
_.error  # cli/common.py: argparse.ArgumentParser.error, overridden
_.num_col_  # interactive/lp.py: highspy's HighsLp and HighsSparseMatrix fields
_.num_row_
_.col_cost_
_.col_lower_
_.col_upper_
_.row_lower_
_.row_upper_
_.format_
_.start_
_.index_
_.value_
_._numerator  # numbers/parse.py: coprime_fraction fills a Fraction's slots
_._denominator

# the peers' interfaces, called by dp_accounting's PrivacyAccountant and Opacus's PrivacyEngine
_._maybe_compose  # integrations/dp_accounting.py

# dead, in files other branches are rewriting (issue 22): delete there, then here
describe_mechs  # cli/common.py (branch reliab)
_.work  # engines/balllattice.py (branch engine, for every name below)
_.field_value  # engines/base.py
_.polyval  # engines/fields.py
_.to_float
_mid  # engines/inverse.py
_log2_frac
_.polynomial  # engines/lattice.py
_.from_exponents
_.approx_log_S  # engines/structure.py
_.least_b  # accounting/calibrate.py: result fields read by users
_.largest_sample_rate
_.most_steps
_.decided
_.h_infeasible
_.history  # audit/dpsgd.py: an Opacus accountant's history, set as k calls of step() leave it
_.runtest  # testing/pytest_plugin.py: pytest.Item hooks
_.reportinfo
_.contour_sums  # engines/contour.py: how many tails a circle answered (tests, benchmarks)
_.polynomial_sums
