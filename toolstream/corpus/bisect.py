"""``toolstream bisect``: the first release of a client library whose outcome
on one case changes.

The released versions between ``--good`` and ``--bad`` come from the package
index (``pip index versions``; ``npm view NAME versions --json`` for a
JavaScript package), final releases only, in release order.  Each tested
version is judged as ``toolstream shrink --client`` judges a candidate:
:func:`toolstream.diff.session.judge_case` of the case through
``client:NAME==VERSION``, its *outcome signature* the disagreement's
signature (``unsafe_accept:glued_ids+merged``...) or, when it agrees, the
classification.  The search assumes one change between the two ends (the
good end's signature holds up to some release and never again) and tests
about log2(n) versions; the versions it tested are part of its answer.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolstream.clients.versions import version_key

__all__ = [
    "BisectError",
    "BisectResult",
    "bisect_versions",
    "case_oracle",
    "released_versions",
    "versions_between",
]


class BisectError(ValueError):
    """A bisection that cannot run; the message is one line."""


@dataclass(frozen=True)
class BisectResult:
    """``first``: the first version whose signature differs from the good
    end's; ``last_same``: the version just before it; their signatures;
    ``tested``: every version judged, with its signature, in release order."""

    first: str
    last_same: str
    before: str
    after: str
    tested: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "first_changed": self.first,
            "last_unchanged": self.last_same,
            "signature_before": self.before,
            "signature_after": self.after,
            "tested": dict(self.tested),
        }


_FINAL = re.compile(r"^\d+(\.\d+)*$")


def versions_between(versions: Sequence[str], good: str, bad: str) -> list[str]:
    """The final releases from ``good`` to ``bad`` (both included), in release
    order; ``good`` may be the newer one (a bisection backwards)."""
    low, high = sorted((good, bad), key=version_key)
    chosen = {
        v
        for v in versions
        if _FINAL.match(v) and version_key(low) <= version_key(v) <= version_key(high)
    }
    chosen |= {good, bad}
    ordered = sorted(chosen, key=version_key)
    return ordered if version_key(good) <= version_key(bad) else ordered[::-1]


def bisect_versions(
    versions: Sequence[str],
    signature_of: Callable[[str], str],
    *,
    on_tested: Callable[[str, str], None] | None = None,
) -> BisectResult:
    """The first of ``versions`` (from the good end to the bad end) whose
    ``signature_of`` differs from the first one's.  Raises
    :class:`BisectError` when the two ends have the same signature."""
    if len(versions) < 2:
        raise BisectError("bisect needs two different versions")
    tested: dict[str, str] = {}

    def judged(position: int) -> str:
        version = versions[position]
        if version not in tested:
            tested[version] = signature_of(version)
            if on_tested is not None:
                on_tested(version, tested[version])
        return tested[version]

    good = judged(0)
    bad = judged(len(versions) - 1)
    if good == bad:
        raise BisectError(
            f"{versions[0]} and {versions[-1]} have the same outcome ({good}): nothing to bisect"
        )
    low, high = 0, len(versions) - 1  # judged(low) == good, judged(high) != good
    while high - low > 1:
        middle = (low + high) // 2
        if judged(middle) == good:
            low = middle
        else:
            high = middle
    order = {v: i for i, v in enumerate(versions)}
    return BisectResult(
        first=versions[high],
        last_same=versions[low],
        before=good,
        after=judged(high),
        tested=dict(sorted(tested.items(), key=lambda item: order[item[0]])),
    )


def released_versions(package: str, *, javascript: bool = False) -> list[str]:
    """Every released version of ``package`` the index lists.  Raises
    :class:`BisectError` (one line) when the index cannot be asked."""
    if javascript:
        command = ["npm", "view", package, "versions", "--json"]
    else:
        command = [sys.executable, "-m", "pip", "index", "versions", package]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BisectError(f"cannot list the versions of {package}: {error}") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise BisectError(
            f"cannot list the versions of {package}: {lines[-1] if lines else done.returncode}"
        )
    if javascript:
        listed = json.loads(done.stdout)
        return [str(v) for v in (listed if isinstance(listed, list) else [listed])]
    for line in done.stdout.splitlines():
        if line.startswith("Available versions:"):
            return [v.strip() for v in line.split(":", 1)[1].split(",") if v.strip()]
    raise BisectError(f"cannot list the versions of {package}: no 'Available versions' line")


def case_oracle(
    fixture: Mapping[str, Any], client: str, transport: str = "plain"
) -> Callable[[str], str]:
    """version -> the outcome signature of ``client`` at that version on
    ``fixture`` (the disagreement's signature, or the classification when
    it agrees), judged as ``shrink --client`` judges."""
    from toolstream.diff.session import judge_case

    def signature_of(version: str) -> str:
        name = f"{client}=={version}"
        spec = f"client:{name}" + (f"@{transport}" if transport != "plain" else "")
        row = judge_case(fixture, spec)
        (outcome,) = row.outcomes.values()
        if outcome.classification == "not_run":
            # an environment that cannot run the case says nothing of the library
            raise BisectError(f"{name} did not run the case: {outcome.detail}")
        signature: str | None = outcome.signature
        return signature if signature is not None else outcome.classification

    return signature_of
