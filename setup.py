"""Package list for setuptools (the metadata is in pyproject.toml).

The proof checks live in the top-level ``proofs/`` folder of the repository and
are installed as the package ``exactdp_proofs`` (a package named ``proofs`` must
not land in site-packages); this file maps the folder to that name, with every
paper's subpackage found automatically.
"""

from setuptools import find_packages, setup

packages = find_packages(include=["exactdp", "exactdp.*"])
packages += ["exactdp.corpus.data"]  # the shipped corpus: a data folder (no __init__.py), listed so setuptools keeps it
packages += ["exactdp_proofs"] + ["exactdp_proofs." + p for p in find_packages(where="proofs")]

setup(packages=packages, package_dir={"exactdp_proofs": "proofs"})
