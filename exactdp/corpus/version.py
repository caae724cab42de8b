"""The version of the corpus vector format (``"exactdp_corpus": 1``), shared by both corpora."""

CORPUS_VERSION = 1
