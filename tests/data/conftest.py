"""Test data, not tests: keep pytest from importing the corpus's build scripts.

``realdata/build.py`` and ``realdata/label.py`` are the corpus's own reproduction scripts (see
``realdata/README.md``); importing them under ``--doctest-modules`` would run their module code.
"""

collect_ignore_glob = ["realdata/*.py", "devcorpus/*.py", "sealed1/*.py"]
