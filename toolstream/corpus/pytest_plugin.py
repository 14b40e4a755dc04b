"""pytest plugin: run your own adapter over a toolstream corpus, case by case.

Registered through the ``pytest11`` entry point, so it is active wherever
toolstream is installed (or load it with ``-p toolstream.corpus.pytest_plugin``).

Mark a test and take the ``toolstream_case`` fixture::

    import pytest

    @pytest.mark.toolstream_cases("corpus/cases", profile="openai")
    def test_my_adapter(toolstream_case):
        toolstream_case.check(my_adapter)     # my_adapter(fixture) -> calls, or raises Rejected

``check`` applies the contract of ``toolstream diff`` (``docs/adapters.md``):
the adapter is called with the fixture and judged against the reference
verdict, recomputed; raising ``toolstream.Rejected`` (or a type in
``reject_on``) refuses the turn, any other exception fails the test as an
adapter crash.  ``check_calls(calls)`` compares calls you computed yourself
with the case's label.  Both take the same call shapes as ``diff``.

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

Test ids are the case ids (``operator/hash``).  A relative corpus path is
resolved against the folder of the test file (falling back to pytest's
rootdir when it is not there, as before).  ``profile=`` (a name or a list)
keeps the cases of those profiles.  A case file that cannot be read becomes a
failing test, never a skipped one.

A session in which every corpus case was skipped or not run (an adapter
that declares no profile present in the corpus, a ``profile=`` that keeps
cases the adapter then skips) fails with the sentence ``toolstream diff``
prints, ``this run proves nothing: ...``, exit status 1: a green that
checked nothing is not a pass.  ``--toolstream-allow-unchecked`` keeps the
exit status pytest would give.

Importing this module imports only pytest; toolstream itself is loaded when a
marked test is collected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

MARKER = "toolstream_cases"
FIXTURE = "toolstream_case"
ALLOW_UNCHECKED = "--toolstream-allow-unchecked"
CASE_PROPERTY = "toolstream_case"
"""The ``user_properties`` key marking a corpus case's test reports (they
reach an xdist controller with the report)."""
PROVES_NOTHING = "this run proves nothing"
"""The words ``toolstream diff`` starts the same verdict with."""


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
    data: bytes | None = field(default=None, repr=False)
    """The case file's bytes (what the reference judges)."""

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
        from toolstream.report import Status  # loaded on use (see the module docstring)

        return self.expect.get("status") == Status.PASS

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
        got = _as_calls(calls, self.id)
        if not self.executable:
            assert not got, (
                f"{self.id}: the reference blocks this turn ({self.status} {self.codes}),"
                f" but {len(got)} call(s) were handed over: {got!r}"
            )
            return
        assert got == self.calls, (
            f"{self.id}: calls differ\nexpected {self.calls!r}\ngot      {got!r}"
        )

    def check(
        self,
        adapter: Callable[[Mapping[str, Any]], Any],
        *,
        reject_on: Sequence[type[BaseException]] = (),
        baseline: str | Path | None = None,
    ) -> None:
        """Run ``adapter(fixture)`` under the contract of ``toolstream diff``
        and fail unless it agrees with the reference verdict; see
        :func:`check_adapter`."""
        check_adapter(self, adapter, reject_on=reject_on, baseline=baseline)


def _as_calls(calls: Iterable[Any], where: str) -> list[dict[str, Any]]:
    """Calls in any shape ``toolstream diff`` accepts, as plain dicts; a
    wrong shape fails the test naming the expected one."""
    from toolstream.adapters.base import AdapterOutputError, coerce_calls

    try:
        coerced = coerce_calls(calls, source=where)
    except AdapterOutputError as error:
        pytest.fail(str(error))
    return [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in coerced]


def check_adapter(
    case: Case,
    adapter: Callable[[Mapping[str, Any]], Any],
    *,
    reject_on: Sequence[type[BaseException]] = (),
    baseline: str | Path | None = None,
) -> None:
    """Judge ``adapter`` on ``case`` exactly as ``toolstream diff`` judges a
    ``package.module:function`` adapter: the reference verdict is
    recomputed from the case's bytes; the test fails on ``unsafe_accept``,
    ``wrong_calls``, ``false_reject`` and ``adapter_crash`` (with the detail
    ``diff`` prints), and is skipped when the adapter declares
    (``toolstream_profiles``) that it does not take the case's profile.

    With ``baseline`` (a ``toolstream.baseline`` file, docs/ci.md): a
    disagreement it records (same signature) is an expected failure; a
    recorded one that now agrees fails strictly ("remove it from the
    baseline"); a new one fails as without it."""
    from toolstream.adapters.user import CallableAdapter
    from toolstream.diff.cases import Case as DiffCase
    from toolstream.diff.classify import AGREE, NOT_RUN
    from toolstream.diff.runner import reference_of, run_adapter

    case._usable()
    name = f"{getattr(adapter, '__module__', '?')}:{getattr(adapter, '__qualname__', '?')}"
    wrapped = CallableAdapter(adapter, name=name, reject_on=reject_on)
    judged = DiffCase(case.path, case.id, case.raw_fixture, case.data)
    report = reference_of(judged)
    outcome = run_adapter(wrapped, judged, report)
    if outcome.classification == NOT_RUN:
        pytest.skip(f"{case.id}: {outcome.detail}")
    verdict = report.status + (f" {list(report.codes)}" if report.codes else "")
    if baseline is not None:
        from toolstream.baseline import read_baseline, recorded_for

        recorded = recorded_for(read_baseline(baseline), case.id, name)
        if outcome.classification == AGREE and recorded:
            pytest.fail(f"{case.id}: fixed ({recorded[0].signature}): remove it from {baseline}")
        if any(e.matches(outcome.signature) for e in recorded):
            pytest.xfail(f"{case.id}: known in {baseline}: {outcome.signature}")
    assert outcome.classification == AGREE, (
        f"{case.id}: {outcome.classification}: {outcome.detail} (reference: {verdict})"
    )


def load_cases(path: str | Path) -> list[Case]:
    """Every case under a corpus folder (or one case file), sorted by id."""
    from toolstream.caseio import discover, load_case, strip_case

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
                data=loaded.data,
            )
        )
    return cases


def _of_profiles(cases: list[Case], profile: str | Sequence[str] | None) -> list[Case]:
    """The cases of ``profile`` (a name or several); unreadable cases stay
    (they must fail, whatever their profile)."""
    if profile is None:
        return cases
    wanted = {profile} if isinstance(profile, str) else set(profile)
    from toolstream.profiles import PROFILES

    unknown = sorted(wanted - set(PROFILES))
    if unknown:
        raise pytest.UsageError(
            f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(PROFILES)}"
        )
    return [c for c in cases if c.error is not None or c.raw_fixture.get("profile") in wanted]


def _corpus_path(path: str | Path, test_folder: Path | None, rootdir: Path | None) -> Path:
    """A relative corpus path, against the test file's folder first, then
    pytest's rootdir (where earlier versions resolved it)."""
    candidate = Path(path)
    if candidate.is_absolute():
        return candidate
    for base in (test_folder, rootdir):
        if base is not None and (base / candidate).exists():
            return base / candidate
    return (test_folder or rootdir or Path.cwd()) / candidate


def _resolve(path: str | Path, root: Path | None) -> Path:
    candidate = Path(path)
    if not candidate.is_absolute() and root is not None:
        candidate = root / candidate
    return candidate


def toolstream_cases(
    path: str | Path,
    *,
    root: str | Path | None = None,
    profile: str | Sequence[str] | None = None,
) -> Any:
    """``pytest.mark.parametrize`` over the cases under ``path`` (relative
    to ``root``, default the folder of the calling test file), for the
    argument ``toolstream_case``; ``profile`` keeps those profiles' cases."""
    if root is None:
        import inspect

        frame = inspect.currentframe()
        caller = frame.f_back.f_code.co_filename if frame and frame.f_back else ""
        root = Path(caller).resolve().parent if caller and Path(caller).is_file() else None
    where = _resolve(path, Path(root) if root is not None else None)
    if not where.exists():
        raise FileNotFoundError(f"toolstream corpus {where} does not exist")
    cases = _of_profiles(load_cases(where), profile)
    return pytest.mark.parametrize(FIXTURE, cases, ids=[c.id for c in cases])


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("toolstream").addoption(
        ALLOW_UNCHECKED,
        action="store_true",
        default=False,
        help="do not fail a session in which every toolstream corpus case was skipped or not run",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_Unchecked(config), "toolstream-unchecked")
    config.addinivalue_line(
        "markers",
        f"{MARKER}(path, profile=None): run the test once per toolstream corpus case under"
        f" path (relative to the test file's folder), of the given profile(s) if any;"
        f" the case is the '{FIXTURE}' fixture",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker(MARKER)
    if marker is None:
        return
    if FIXTURE not in metafunc.fixturenames:
        raise pytest.UsageError(
            f"{metafunc.definition.nodeid}: @{MARKER} needs the test to take '{FIXTURE}'"
        )
    if len(marker.args) != 1 or set(marker.kwargs) - {"profile"}:
        raise pytest.UsageError(
            f"@{MARKER} takes one argument, the corpus path, and optionally profile="
        )
    where = _corpus_path(
        marker.args[0], Path(metafunc.definition.path).parent, metafunc.config.rootpath
    )
    if not where.exists():
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: corpus {where} does not exist")
    profile = marker.kwargs.get("profile")
    cases = _of_profiles(load_cases(where), profile)
    if not cases:
        which = f" of profile {profile}" if profile else ""
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: no case files{which} under {where}")
    metafunc.parametrize(FIXTURE, cases, ids=[c.id for c in cases], indirect=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and isinstance(callspec.params.get(FIXTURE), Case):
            item.user_properties.append((CASE_PROPERTY, callspec.params[FIXTURE].id))


class _Unchecked:
    """Counts this session's corpus-case test reports, and fails a session
    in which none was checked (its test body ran to a pass or a failure)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.tests: set[str] = set()
        self.checked = 0

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not any(key == CASE_PROPERTY for key, _ in report.user_properties):
            return
        self.tests.add(report.nodeid)
        if report.when == "call" and not report.skipped:
            self.checked += 1

    def why(self) -> str | None:
        """Why this session proves nothing about the corpus, or ``None``."""
        if not self.tests or self.checked:
            return None
        return (
            f"no corpus case was checked (every one of the {len(self.tests)} toolstream"
            " case test(s) was skipped or not run)"
        )

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.config.getoption(ALLOW_UNCHECKED):
            return
        if exitstatus == pytest.ExitCode.OK and self.why() is not None:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        why = self.why()
        if why is None:
            return
        if self.config.getoption(ALLOW_UNCHECKED):
            terminalreporter.write_line(f"{PROVES_NOTHING}: {why} ({ALLOW_UNCHECKED}: not failed)")
        else:
            terminalreporter.write_line(f"{PROVES_NOTHING}: {why}", red=True, bold=True)


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
