"""What a profile vouches for in the ledger's proof of strictness.

The ledger (:mod:`toolstream.ledger`) proves a fixture file strict by
counting its members and string colons; the profiles count the runs of
plain fragments they already checked (:meth:`Profile.tally`).  The count's
shape and the colon count of a run live here, below both, so that the
profiles (part of the validator core) never import the ledger, which sits
above the gate.
"""

from __future__ import annotations

from toolstream.events import Fragments

__all__ = ["Tally", "fragment_colons"]

Tally = tuple[int, int, int]
"""(members, string colons, depth) of some stream items; depth counts the
item itself as level 1."""


def fragment_colons(run: Fragments) -> int:
    """The colons in a run's argument fragments."""
    return sum([text.count(":") for text in run.joined().values()])
