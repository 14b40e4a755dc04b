"""pytest plugin: run your own adapter over a toolstream corpus, case by case.

Registered through the ``pytest11`` entry point, so it is active wherever
toolstream is installed (or load it with ``-p toolstream.corpus.pytest_plugin``).

Mark a test and take the ``toolstream_case`` fixture::

    import pytest

    @pytest.mark.toolstream_cases("corpus/cases")
    def test_my_adapter(toolstream_case):
        calls = my_adapter(toolstream_case.fixture)      # [(id, name, arguments), ...]
        toolstream_case.check_calls(calls)

Or, without the plugin, parametrize yourself::

    from toolstream.corpus.pytest_plugin import toolstream_cases

    @toolstream_cases("corpus/cases")
    def test_my_adapter(toolstream_case): ...

To test a client end to end, take ``toolstream_server`` as well: a running
``toolstream serve`` playing just this case (any model name selects it)::

    @pytest.mark.toolstream_cases("corpus/cases")
    def test_my_client(toolstream_case, toolstream_server):
        calls = my_client(base_url=toolstream_server.url + "/v1")
        toolstream_case.check_calls(calls)

Test ids are the case ids (``operator/hash``).  A relative path is resolved
against pytest's rootdir.  A case file that cannot be read becomes a failing
test, never a skipped one.

Importing this module imports only pytest; toolstream itself is loaded when a
marked test is collected.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

MARKER = "toolstream_cases"
FIXTURE = "toolstream_case"


@dataclass(frozen=True)
class Case:
    """One corpus case, as handed to a test.

    ``fixture``: the envelope to feed an adapter (``profile``,
    ``tool_schemas``, ``chunks``/``events``, ``request``), without the case's
    ``expect`` and ``meta``.  ``expect``: the label.  ``error``: why the file
    could not be used; touching ``fixture``/``expect``/``meta`` of such a
    case fails the test.
    """

    id: str
    path: str
    raw_fixture: dict[str, Any] = field(default_factory=dict, repr=False)
    raw_expect: dict[str, Any] = field(default_factory=dict, repr=False)
    raw_meta: dict[str, Any] = field(default_factory=dict, repr=False)
    error: str | None = None

    def _usable(self) -> None:
        if self.error is not None:
            pytest.fail(f"corpus case {self.id} ({self.path}) cannot be used: {self.error}")

    @property
    def fixture(self) -> dict[str, Any]:
        self._usable()
        return self.raw_fixture

    @property
    def expect(self) -> dict[str, Any]:
        self._usable()
        return self.raw_expect

    @property
    def meta(self) -> dict[str, Any]:
        self._usable()
        return self.raw_meta

    @property
    def status(self) -> str:
        return str(self.expect.get("status"))

    @property
    def codes(self) -> list[str]:
        return list(self.expect.get("codes", []))

    @property
    def executable(self) -> bool:
        """Whether an application may execute this turn's calls."""
        return self.expect.get("status") == "pass"

    @property
    def calls(self) -> list[dict[str, str]]:
        """The calls of a passing case (empty otherwise)."""
        return list(self.expect.get("calls", [])) if self.executable else []

    def check_calls(self, calls: Iterable[Any]) -> None:
        """Assert that what an adapter hands over matches the label: exactly
        the labelled calls (id, name, arguments text, in order) for a passing
        case, and no call at all otherwise.  Each call may be a mapping with
        ``id``/``name``/``arguments`` keys, an object with those attributes,
        or an ``(id, name, arguments)`` tuple."""
        got = [_as_call(c) for c in calls]
        if not self.executable:
            assert not got, (
                f"{self.id}: the reference blocks this turn ({self.status} {self.codes}),"
                f" but {len(got)} call(s) were handed over: {got!r}"
            )
            return
        assert got == self.calls, (
            f"{self.id}: calls differ\nexpected {self.calls!r}\ngot      {got!r}"
        )


def _as_call(call: Any) -> dict[str, Any]:
    if isinstance(call, Mapping):
        return {k: call.get(k) for k in ("id", "name", "arguments")}
    if isinstance(call, Sequence) and not isinstance(call, str) and len(call) == 3:
        return dict(zip(("id", "name", "arguments"), call, strict=True))
    return {k: getattr(call, k, None) for k in ("id", "name", "arguments")}


def load_cases(path: str | Path) -> list[Case]:
    """Every case under a corpus folder (or one case file), sorted by id."""
    from toolstream.corpus.caseio import discover, load_case, strip_case

    found = discover([path])
    cases = []
    for ref in found.cases:
        if ref.missing:
            cases.append(Case(ref.id, ref.path, error="listed in MANIFEST.jsonl but missing"))
            continue
        loaded = load_case(ref.path)
        if loaded.error is not None or not isinstance(loaded.case, dict):
            cases.append(Case(ref.id, ref.path, error=loaded.error or "not a JSON object"))
            continue
        expect = loaded.case.get("expect")
        meta = loaded.case.get("meta")
        if not isinstance(expect, dict):
            cases.append(Case(ref.id, ref.path, error="no label ('expect' object)"))
            continue
        cases.append(
            Case(
                ref.id,
                ref.path,
                raw_fixture=strip_case(loaded.case),
                raw_expect=expect,
                raw_meta=meta if isinstance(meta, dict) else {},
            )
        )
    return cases


def _resolve(path: str | Path, root: Path | None) -> Path:
    candidate = Path(path)
    if not candidate.is_absolute() and root is not None:
        candidate = root / candidate
    return candidate


def toolstream_cases(path: str | Path, *, root: str | Path | None = None) -> Any:
    """``pytest.mark.parametrize`` over the cases under ``path`` (relative
    to ``root``, default the current directory), for the argument
    ``toolstream_case``."""
    where = _resolve(path, Path(root) if root is not None else None)
    if not where.exists():
        raise FileNotFoundError(f"toolstream corpus {where} does not exist")
    cases = load_cases(where)
    return pytest.mark.parametrize(FIXTURE, cases, ids=[c.id for c in cases])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(path): run the test once per toolstream corpus case under path"
        f" (relative to the rootdir); the case is the '{FIXTURE}' fixture",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker(MARKER)
    if marker is None:
        return
    if FIXTURE not in metafunc.fixturenames:
        raise pytest.UsageError(
            f"{metafunc.definition.nodeid}: @{MARKER} needs the test to take '{FIXTURE}'"
        )
    if len(marker.args) != 1:
        raise pytest.UsageError(f"@{MARKER} takes one argument, the corpus path")
    where = _resolve(marker.args[0], metafunc.config.rootpath)
    if not where.exists():
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: corpus {where} does not exist")
    cases = load_cases(where)
    if not cases:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: no case files under {where}")
    metafunc.parametrize(FIXTURE, cases, ids=[c.id for c in cases], indirect=True)


@pytest.fixture
def toolstream_case(request: pytest.FixtureRequest) -> Case:
    """The corpus case of this test run (see ``@pytest.mark.toolstream_cases``)."""
    case = getattr(request, "param", None)
    if not isinstance(case, Case):
        raise pytest.UsageError(
            f"'{FIXTURE}' is provided by @pytest.mark.{MARKER}(path) or toolstream_cases(path)"
        )
    case._usable()
    return case


@pytest.fixture
def toolstream_server(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A running ``toolstream.serve.Server`` playing this test's
    ``toolstream_case`` as its only case, stopped after the test."""
    callspec = getattr(request.node, "callspec", None)
    case = callspec.params.get(FIXTURE) if callspec is not None else None
    if not isinstance(case, Case):
        raise pytest.UsageError(
            f"'toolstream_server' plays the test's '{FIXTURE}': mark the test with"
            f" @pytest.mark.{MARKER}(path) and take '{FIXTURE}' too"
        )
    case._usable()
    from toolstream.serve import running

    with running(case) as server:
        yield server
