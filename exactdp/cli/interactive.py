"""The subcommands of the interactive-mechanisms feature: ``concurrent``, ``renyi``, ``experiment``
(one entry of COMMAND_MODULES; each lives in its own module)."""

from __future__ import annotations

from . import concurrent, experiment, renyi


def register(sub) -> None:
    concurrent.register(sub)
    renyi.register(sub)
    experiment.register(sub)
