"""Drop-in accountants for the libraries practitioners already use.

* :mod:`exactdp.integrations.dp_accounting`: :func:`from_dp_event` / :func:`to_dp_event`
  between dp_accounting's ``DpEvent`` trees and exactdp's events, and
  :class:`ExactPrivacyAccountant`, a dp_accounting ``PrivacyAccountant``
  (``pip install 'exactdp[dp-accounting]'``; guide: ``docs/guides/dp-accounting.md``);
* :mod:`exactdp.integrations.opacus`: :class:`ExactAccountant`, an Opacus accountant
  (``privacy_engine.accountant = ExactAccountant()``; ``pip install 'exactdp[opacus]'``;
  guide: ``docs/guides/opacus.md``).

Importing this package imports neither library: each name loads its module on first use
(PEP 562), and that module imports its library if it is installed. Without it, every entry
point raises one :class:`~exactdp.errors.InvalidArgument` line naming the extra to install.
"""

from __future__ import annotations

import importlib
from typing import Any

#: public name -> module that defines it
_EXPORTS = {
    "from_dp_event": "exactdp.integrations.dp_accounting",
    "to_dp_event": "exactdp.integrations.dp_accounting",
    "ExactPrivacyAccountant": "exactdp.integrations.dp_accounting",
    "ExactAccountant": "exactdp.integrations.opacus",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
