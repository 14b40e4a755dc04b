"""A client driver wrapped as an adapter, and the server it is pointed at.

:class:`ClientAdapter` is an :class:`~toolstream.adapters.base.Adapter`
whose ``run(fixture)`` drives a real client library against ``toolstream
serve`` instead of feeding parsed chunks in-process, so ``toolstream diff``
runs and classifies it exactly as it does any adapter.  Its name is the
client's, with ``@<transport>`` appended for a variant other than ``plain``
(``openai-chat-create@cut-chunked``): each (client, transport) pair is a
column of its own.

Which server: a fixture is served under ``<profile>/<fixture digest>``
(:func:`served_id`: content-addressed, so any process can name the case it
was handed).  :func:`serving` starts one server over a list of diff cases
for a whole run and publishes its URL in the environment variable
:data:`SERVER_ENV`, which ``-j`` worker processes inherit; a
``ClientAdapter`` without such a server (``diff_fixture`` on one fixture)
starts a server of its own over that fixture for the one run.

A cut variant (``cut-chunked``, ``cut-close``) ends the body half-way
through its middle event, so the client receives only a prefix of the case:
a corpus run (``toolstream diff --transport cut-...``, grouped by
:mod:`toolstream.diff.session`) judges it against the reference verdict of
that prefix (:func:`delivered_cases`), never the whole
case's, so a client that refuses a cut stream agrees and one that executes
a call from it is an ``unsafe_accept``.  (``diff_fixture`` on one fixture
serves and judges the fixture it is given.)

A call id the library invents (none of the case's identities occurs in it)
is reported as :data:`GENERATED_ID`, so a report is the same on every run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any, Final
from urllib.parse import quote

from toolstream.adapters.base import GENERATED_ID, Adapter, AdapterResult, AdapterUnavailable
from toolstream.caseio import fixture_digest
from toolstream.clients.base import Client, Target
from toolstream.clients.registry import get_client
from toolstream.clients.transports import (
    cut_transport,
    delivered,
    inapplicable,
    serve_spec,
    transport_problem,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "GENERATED_ID",
    "SERVER_ENV",
    "ClientAdapter",
    "client_adapter",
    "cut_id",
    "delivered_cases",
    "mask_generated_ids",
    "served_id",
    "serving",
]

SERVER_ENV: Final = "TOOLSTREAM_CLIENTS_SERVER"
"""The URL of the server :func:`serving` started (inherited by workers)."""

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds one case may take when no timeout is given."""


def served_id(fixture: Mapping[str, Any]) -> str:
    """The name a fixture is served under: ``<profile>/<digest>``."""
    profile = fixture.get("profile")
    return f"{profile if isinstance(profile, str) else 'fixture'}/{fixture_digest(fixture)}"


def cut_id(transport: str, delivered_fixture: Mapping[str, Any]) -> str:
    """The name a case is served under for a cut variant: the variant and
    the content address of what the client receives (see
    :func:`~toolstream.clients.transports.delivered`)."""
    return f"{transport}/{served_id(delivered_fixture)}"


def _served_entries(
    cases: Sequence[Any],
    cuts: Sequence[str],
    received: Mapping[str, Sequence[Any]] | None = None,
    profiles: Collection[str] | None = None,
) -> list[tuple[str, Callable[[], Any]]]:
    """``(name, load)`` of the serve-side cases for diff cases: a case read
    from a file is served from its bytes (every item as written: duplicate
    keys, number texts), renamed to its content address; an in-memory one
    from its fixture.  For every cut variant the same content is served
    again under :func:`cut_id` of the prefix the client will receive
    (``received[cut]``: the cases as :func:`delivered_cases` gives them, when
    already computed); the first case wins when two cases deliver the same
    prefix.  With ``profiles``, only the cases of those profiles (no client
    asks for another: it is ``not_run`` without a request).  Nothing is
    parsed here: ``load`` reads the case on the first request for it."""
    out: list[tuple[str, Callable[[], Any]]] = []
    for position, case in enumerate(cases):
        if profiles is not None and case.profile not in profiles:
            continue
        names = [served_id(case.fixture)]
        for cut in cuts:
            prefix = received[cut][position].fixture if received else delivered(case.fixture, cut)
            names.append(cut_id(cut, prefix))
        load = functools.cache(functools.partial(_serve_side, case, names[0]))
        out.extend((name, load) for name in names)
    return out


def _serve_side(case: Any, name: str) -> Any:
    from toolstream.serve.cases import collect, from_bytes

    if case.data is not None and os.path.isfile(case.path):
        return from_bytes(name, case.data)
    (served,) = collect((name, dict(case.fixture)))
    return served


@contextlib.contextmanager
def serving(
    cases: Sequence[Any],
    cuts: Sequence[str] = (),
    *,
    received: Mapping[str, Sequence[Any]] | None = None,
    profiles: Collection[str] | None = None,
) -> Iterator[str]:
    """A server over ``cases`` (``toolstream.diff`` cases) for a whole run,
    also under the names the cut variants ``cuts`` use; yields its URL, also
    published in :data:`SERVER_ENV` until exit.  Each case is read on the
    first request for it; ``received`` and ``profiles`` as for
    :func:`_served_entries`."""
    from toolstream.serve import CaseIndex, running

    previous = os.environ.get(SERVER_ENV)
    index = CaseIndex.lazy(_served_entries(cases, cuts, received, profiles))
    # one request per connection: a pooled connection left idle while other
    # cases ran could be dropped by the server (its idle timeout) just as the
    # next case reuses it, an error no case causes
    with running(index, one_request_per_connection=True) as server:
        os.environ[SERVER_ENV] = server.url
        try:
            yield server.url
        finally:
            if previous is None:
                os.environ.pop(SERVER_ENV, None)
            else:
                os.environ[SERVER_ENV] = previous


def delivered_cases(cases: Sequence[Any], transport: str) -> list[Any]:
    """The cases as a client receives them under ``transport``: for a cut
    variant each case's fixture becomes the delivered prefix (in memory,
    judged as a mapping; path and operator kept); otherwise ``cases``."""
    if not cut_transport(transport):
        return list(cases)
    return [
        dataclasses.replace(case, fixture=delivered(case.fixture, transport), data=None)
        for case in cases
    ]


class ClientAdapter(Adapter):
    """A client library over HTTP, as an adapter (see the module docstring)."""

    def __init__(self, client: Client, transport: str = "plain", timeout: float = DEFAULT_TIMEOUT):
        problem = transport_problem(transport)
        if problem is not None:
            raise ValueError(problem)
        self.client = client
        self.transport = transport
        self.timeout = timeout
        self.name = client.name if transport == "plain" else f"{client.name}@{transport}"
        self.package = client.packages[0]
        self.profiles = client.profiles
        self.extra = client.extra
        self.concurrent_runs = client.concurrent_runs
        self.deadline = timeout
        self.framing = client.framing
        self.cut = cut_transport(transport)
        self.inapplicable = inapplicable(transport, client.framing, f"{client.name} reads")
        """Why ``transport`` cannot reach this client, or None: such a
        (client, transport) pair is skipped with that reason, never run."""
        self._loaded = False
        """Whether :meth:`run` has found the library importable once: then
        it does not ask again (see :meth:`run`)."""

    def available(self) -> bool:
        return self.unavailable_reason() is None

    def unavailable_reason(self) -> str | None:
        if self.inapplicable is not None:
            return f"client {self.name!r} not run: {self.inapplicable}"
        return self.client.available()

    def library_version(self) -> str | None:
        return self.client.version()

    def _prefix(self, case: str) -> str:
        spec = quote(serve_spec(self.transport), safe=",:@")
        return f"/cases/{quote(case, safe='/')}/transport/{spec}"

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        self.check_profile(fixture)
        # asked once per adapter (so per worker process), not once per case:
        # a library found importable stays so for the process (a node client's
        # check stats its node_modules, about 0.26 ms a run).  Only the positive
        # answer is kept, so a missing library is still reported on every run;
        # two threads racing here both ask, which is harmless
        if not self._loaded:
            if self.client.available() is not None:
                raise AdapterUnavailable(self.name, self.package, extra=self.extra)
            self._loaded = True
        case = served_id(fixture)
        shared = os.environ.get(SERVER_ENV)
        if shared and self.cut:
            # a corpus run hands a cut variant what the client will receive
            # (the reference judges that); the server has the whole case under
            case = cut_id(self.transport, fixture)
        if shared:
            result = self.client.drive(self._target(shared, case), fixture)
        else:
            from toolstream.serve import running

            with running([(case, dict(fixture))]) as server:
                result = self.client.drive(self._target(server.url, case), fixture)
        return mask_generated_ids(result, fixture)

    def _target(self, server: str, case: str) -> Target:
        return Target(
            server=server,
            case=case,
            transport=self.transport,
            timeout=self.timeout,
            prefix=self._prefix(case),
        )


_IDENTITY_KEYS = frozenset({"id", "call_id", "toolUseId", "tool_call_id", "item_id"})


def _identities(value: Any, out: set[str]) -> set[str]:
    """Every string under an identity key anywhere in ``value``."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in _IDENTITY_KEYS and isinstance(item, str) and item:
                out.add(item)
            _identities(item, out)
    elif isinstance(value, list):
        for item in value:
            _identities(item, out)
    return out


def mask_generated_ids(result: AdapterResult, fixture: Mapping[str, Any]) -> AdapterResult:
    """``result`` with every call id the library invented replaced by
    :data:`GENERATED_ID` (in ``calls`` and in the ``invalid`` JSON objects)."""
    known = _identities({k: v for k, v in fixture.items() if k != "tool_schemas"}, set())

    def invented(ident: Any) -> bool:
        return isinstance(ident, str) and not any(k in ident for k in known)

    calls = tuple(
        dataclasses.replace(call, id=GENERATED_ID) if invented(call.id) else call
        for call in result.calls
    )
    invalid = []
    for text in result.invalid:
        try:
            item = json.loads(text)
        except ValueError:
            item = None
        if isinstance(item, dict) and invented(item.get("id")):
            item["id"] = GENERATED_ID
            text = json.dumps(item, ensure_ascii=True, separators=(",", ":"))
        invalid.append(text)
    if calls == result.calls and tuple(invalid) == result.invalid:
        return result
    return dataclasses.replace(result, calls=calls, invalid=tuple(invalid))


def client_adapter(spec: str, *, timeout: float | None = None) -> ClientAdapter:
    """``NAME`` or ``NAME@TRANSPORT`` (the part of a ``client:`` adapter spec
    after the colon).  Raises KeyError for an unknown client, ValueError for
    an unknown transport."""
    from toolstream.adapters.spec import parse_client

    run = parse_client(spec)
    return ClientAdapter(
        get_client(run.name),
        run.transport,
        timeout if timeout is not None else DEFAULT_TIMEOUT,
    )
