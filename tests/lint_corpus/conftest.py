"""The fake project in repo/ is data for the lint corpus, not part of this test suite."""

collect_ignore = ["repo"]
