"""The issue-14 wire formats: gemini (whole calls and Vertex partialArgs),
gemini-interactions, cohere and bedrock-invoke.  The validator's bar for
each: every applicable code in the catalogue, a valid fragmented call
passes with the exact call, re-splitting at every boundary keeps the verdict,
closed world, and the rules that needed deciding."""

from __future__ import annotations

import pytest

from tests.catalogue import CATALOGUE
from tests.catalogue_wires import NOT_APPLICABLE
from toolstream import Code

NEW_PROFILES = tuple(NOT_APPLICABLE)


@pytest.mark.parametrize("profile", NEW_PROFILES)
def test_every_applicable_code_has_a_catalogue_entry(profile: str) -> None:
    covered = {e.code for e in CATALOGUE if e.profile == profile}
    assert covered == {c.value for c in Code} - NOT_APPLICABLE[profile]
