"""The package list of the distribution; everything else is in pyproject.toml.

The repository's ``generators/`` folder is installed as the import package
``toolstream_generators``: a different distribution named ``generators``
exists on PyPI, and a top-level package of that name would clash with it.
Renaming a folder on install needs ``package_dir`` and the package names
computed here (pyproject's ``packages.find`` names packages after their
folders); the same mapping serves wheels and editable installs.
"""

from setuptools import find_packages, setup

GENERATORS = "toolstream_generators"
"""The import name of ``generators/``."""

packages = find_packages(include=["toolstream", "toolstream.*"])
packages += [
    GENERATORS + name.removeprefix("generators")
    for name in find_packages(include=["generators", "generators.*"])
]

setup(packages=packages, package_dir={GENERATORS: "generators"})
