"""A pytest plugin: ``pytest --exactdp-corpus --exactdp-accountant module:callable`` runs the
certified DP-SGD corpus against another project's accountant and fails on an unsound or invalid
answer (or an estimate outside its own error bar), with the table.

Installed with exactdp (entry point ``pytest11``); ``-p exactdp.testing.pytest_plugin`` loads it
explicitly. The accountant is called as :func:`exactdp.testing.check_events` calls it:
``accountant(event, delta, relation)``, returning a number (what ``--exactdp-claim`` says,
default an upper bound) or a dict of claims.
"""

from __future__ import annotations

import importlib

import pytest

__all__ = ["pytest_addoption", "pytest_collection_modifyitems", "CorpusItem", "load_accountant"]


def pytest_addoption(parser) -> None:
    """The plugin's options. Guarantee: exact. Raises: nothing."""
    g = parser.getgroup("exactdp", "exactdp: certified ground truth for accountants")
    g.addoption("--exactdp-corpus", action="store_true", default=False,
                help="check an accountant on exactdp's certified DP-SGD corpus (one more test item)")
    g.addoption("--exactdp-accountant", metavar="MODULE:CALLABLE", default=None,
                help="the accountant: accountant(event, delta, relation) -> number or {claim: value}")
    g.addoption("--exactdp-claim", choices=("upper", "lower", "estimate"), default="upper",
                help="what a plain number claims to be (default: an upper bound)")
    g.addoption("--exactdp-corpus-dir", metavar="DIR", default=None,
                help="a DP-SGD corpus folder (default: the one shipped with exactdp)")


def load_accountant(spec: str):
    """``module:callable`` (``module.sub:obj.attr`` too) as the object it names.

    Guarantee: exact. Raises: pytest.UsageError (malformed, not importable, not callable).
    """
    if not spec or ":" not in spec:
        raise pytest.UsageError(f"--exactdp-accountant: expected MODULE:CALLABLE, got {spec!r}")
    mod, _, attr = spec.partition(":")
    try:
        obj = importlib.import_module(mod)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as e:
        raise pytest.UsageError(f"--exactdp-accountant: cannot load {spec!r}: {e}") from None
    if not callable(obj):
        raise pytest.UsageError(f"--exactdp-accountant: {spec!r} is not callable")
    return obj


class CorpusItem(pytest.Item):
    """The test item that checks the accountant on the corpus. Guarantee: as
    :func:`exactdp.testing.check_events`. Raises: AssertionError (in ``runtest``) with the table."""

    def __init__(self, *, spec: str, claim: str, corpus, **kw):
        super().__init__(**kw)
        self.spec, self.claim, self.corpus = spec, claim, corpus

    def runtest(self) -> None:
        from .dpsgd import assert_events_sound, check_events

        acc = load_accountant(self.spec)
        report = check_events(acc, self.corpus or "dpsgd", claim=self.claim, name=self.spec)
        assert_events_sound(report)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, AssertionError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"exactdp DP-SGD corpus: {self.spec}"


def pytest_collection_modifyitems(session, config, items) -> None:
    """Append the corpus item when ``--exactdp-corpus`` is given. Raises: pytest.UsageError (no accountant)."""
    if not config.getoption("exactdp_corpus"):
        return
    spec = config.getoption("exactdp_accountant")
    if not spec:
        raise pytest.UsageError("--exactdp-corpus needs --exactdp-accountant MODULE:CALLABLE")
    items.append(CorpusItem.from_parent(session, name="exactdp_dpsgd_corpus", spec=spec,
                                        claim=config.getoption("exactdp_claim"),
                                        corpus=config.getoption("exactdp_corpus_dir")))
