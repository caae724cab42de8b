"""Drop-in accountants for the libraries practitioners already use.

* :mod:`exactdp.integrations.dp_accounting`: ``from_dp_event`` / ``to_dp_event`` between
  dp_accounting's ``DpEvent`` trees and exactdp's events, and ``ExactPrivacyAccountant``, a
  dp_accounting ``PrivacyAccountant`` (``pip install 'exactdp[dp-accounting]'``);
* :mod:`exactdp.integrations.opacus`: ``ExactAccountant``, an Opacus accountant
  (``privacy_engine.accountant = ExactAccountant()``; ``pip install 'exactdp[opacus]'``).

This package imports neither library: each module imports its own when it is imported, and
without it installed every entry point raises one :class:`~exactdp.errors.InvalidArgument`
line naming the extra to install.
"""

__all__: list[str] = []
