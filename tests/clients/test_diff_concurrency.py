"""How ``toolstream diff`` overlaps the runs of adapters that mostly wait
(the clients over HTTP), and how the server of a client run reads its cases.

* an adapter that declares ``concurrent_runs`` has several cases in flight
  in threads, and the result is that of a serial run, in case order;
* one that does not runs every case in the calling thread, one at a time;
* the process-wide logging and warnings switches a run sets are restored
  once it is over, threads or not;
* ``CaseIndex.lazy`` reads a case on the first request for it and never one
  nobody asks for; a client run serves only the profiles its clients take;
* boto3's case selector is per thread (one boto3 client serves all);
* the server builds a case's wire records once for all the transports it is
  played under.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import threading
import time
import warnings
from collections.abc import Mapping
from typing import Any

import pytest

from tests.support.builders import chunk, tc
from tests.support.diff_fixtures import oai
from toolstream.adapters.base import Adapter, AdapterCall, AdapterResult, library_raised
from toolstream.clients.harness import SERVER_ENV, served_id, serving
from toolstream.diff import AdapterInfo, LoadedAdapter, case_from_fixture, run_cases
from toolstream.diff.runner import CASE_THREADS
from toolstream.serve.cases import CaseIndex, ServedCase


def fixtures(count: int) -> list[dict[str, Any]]:
    """``count`` distinct valid one-call turns (``call_<n>``)."""
    return [
        oai(chunk(tc(0, f"call_{n}", "weather", '{"city":"Paris"}')), chunk(finish="tool_calls"))
        for n in range(count)
    ]


class Recorder(Adapter):
    """Hands over the stream's first call id as a call; notes the thread
    each run ran in and the most runs in flight at once (each run waits a
    little, as a client waits for the server)."""

    name = "recorder"
    package = ""
    profiles = ("openai",)

    def __init__(self, concurrent: bool, wait: float = 0.02) -> None:
        self.concurrent_runs = concurrent
        self.wait = wait
        self.threads: set[str] = set()
        self.in_flight = 0
        self.most = 0
        self.lock = threading.Lock()

    def available(self) -> bool:
        return True

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        with self.lock:
            self.threads.add(threading.current_thread().name)
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
        try:
            time.sleep(self.wait)
            with library_raised("a library"):  # as the drivers run theirs
                logging.getLogger("some.library").warning("noise")
                warnings.warn("noise", UserWarning, stacklevel=1)
            first = fixture["chunks"][0]["choices"][0]["delta"]["tool_calls"][0]
            call = AdapterCall(id=first["id"], name="weather", arguments='{"city":"Paris"}')
            return AdapterResult(calls=(call,), rejected=False, invalid=(), finish_reason="x")
        finally:
            with self.lock:
                self.in_flight -= 1


def loaded(adapter: Adapter, name: str) -> LoadedAdapter:
    return LoadedAdapter(AdapterInfo(name, name, None, None, adapter.profiles), adapter)


def dicts(results: list[Any]) -> list[dict[str, Any]]:
    return [r.to_dict() for r in results]


def test_concurrent_adapter_overlaps_cases_and_matches_a_serial_run() -> None:
    cases = [case_from_fixture(f, f"case-{n}") for n, f in enumerate(fixtures(60))]
    mixed = [*cases[:30], case_from_fixture(oai(profile="anthropic"), "other"), *cases[30:]]
    threaded, serial = Recorder(concurrent=True), Recorder(concurrent=False)
    together = run_cases(mixed, [loaded(threaded, "threaded"), loaded(serial, "serial")])
    assert threaded.most > 1 and threaded.most <= CASE_THREADS
    assert threading.current_thread().name not in threaded.threads
    assert serial.most == 1 and serial.threads == {threading.current_thread().name}
    # in case order, each outcome under its own case: as a serial run gives it
    alone = run_cases(mixed, [loaded(Recorder(concurrent=False), "threaded")])
    assert [r.path for r in together] == [c.path for c in mixed]
    assert [r.to_dict()["results"]["threaded"] for r in together] == [
        r.to_dict()["results"]["threaded"] for r in alone
    ]
    handed = [r.outcomes["threaded"].handed for r in together if r.path != "other"]
    assert [calls[0].id for calls in handed] == [f"call_{n}" for n in range(60)]
    assert together[30].outcomes["threaded"].classification == "not_run"


def test_logging_and_warnings_are_restored_after_a_threaded_run() -> None:
    before_filters = list(warnings.filters)
    before_disable = logging.root.manager.disable
    cases = [case_from_fixture(f, f"case-{n}") for n, f in enumerate(fixtures(20))]
    run_cases(cases, [loaded(Recorder(concurrent=True, wait=0.005), "threaded")])
    assert logging.root.manager.disable == before_disable
    assert warnings.filters == before_filters


def served(ident: str) -> ServedCase:
    return ServedCase(ident, "openai", [{"choices": []}])


def test_lazy_index_reads_a_case_on_first_request_only() -> None:
    loads: list[str] = []

    def loader(ident: str) -> Any:
        def load() -> ServedCase:
            loads.append(ident)
            return served("read-under-another-name")

        return load

    index = CaseIndex.lazy(
        [("openai/aaa", loader("a")), ("openai/bbb", loader("b")), ("openai/aaa", loader("c"))]
    )
    assert len(index) == 2 and loads == []  # the first of two entries with one id wins
    found = index.find("case:aaa")  # by the end of its id, as an eager index finds it
    assert found is not None and found.id == "openai/aaa"
    assert index.find("openai/aaa") is found and loads == ["a"]
    assert index.find("zzz") is None and loads == ["a"]
    assert [c.id for c in index.cases] == ["openai/aaa", "openai/bbb"] and loads == ["a", "b"]


def test_a_client_run_serves_only_the_profiles_its_clients_take() -> None:
    openai_case = case_from_fixture(fixtures(1)[0], "o")
    anthropic_case = case_from_fixture(oai(profile="anthropic"), "a")
    with serving([openai_case, anthropic_case], profiles={"openai"}) as url:
        assert os.environ[SERVER_ENV] == url
        host, port = url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.request("GET", "/cases")
        listed = [c["id"] for c in json.load(connection.getresponse())["cases"]]
        connection.close()
    assert listed == [served_id(openai_case.fixture)]


def test_boto3_case_selector_is_per_thread() -> None:
    pytest.importorskip("boto3")
    from toolstream.clients import boto3_converse

    class Request:
        def __init__(self) -> None:
            self.headers: dict[str, str] = {}

    seen: dict[str, str] = {}
    barrier = threading.Barrier(2)

    def drive(case: str) -> None:
        boto3_converse._CASE.case = case
        barrier.wait()  # both threads have set their case before either signs
        request = Request()
        boto3_converse._select_case(request)
        seen[case] = request.headers["X-Toolstream-Case"]

    threads = [threading.Thread(target=drive, args=(c,)) for c in ("bedrock/1", "bedrock/2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"bedrock/1": "bedrock/1", "bedrock/2": "bedrock/2"}


def test_the_server_builds_a_cases_records_once_for_every_transport(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.support.serve_http import request
    from toolstream.serve import ENDPOINTS, ServeLimits, Server

    built: list[int] = []
    endpoint = ENDPOINTS["openai"]
    original = type(endpoint).records

    def counted(self: Any, stream: Any) -> Any:
        built.append(len(stream))
        return original(self, stream)

    monkeypatch.setattr(type(endpoint), "records", counted)
    one, two = fixtures(2)
    body = {"model": "m", "stream": True}
    cases = [("openai/one", one), ("openai/two", two)]
    bodies = {}
    with Server(cases, limits=ServeLimits(cached_records=1)) as server:
        for spec in ("default", "split-utf8", "every:7", "default"):
            status, _, bodies[spec] = request(
                server, "POST", f"/cases/openai/one/transport/{spec}/v1/chat/completions", body
            )
            assert status == 200
        assert len(built) == 1  # once, for all four
        request(server, "POST", "/cases/openai/two/v1/chat/completions", body)
        request(server, "POST", "/cases/openai/one/v1/chat/completions", body)
        assert len(built) == 3  # a cache of one case: "one" was dropped for "two"
    with Server(cases) as fresh:
        _, _, uncached = request(fresh, "POST", "/cases/openai/one/v1/chat/completions", body)
    assert bodies["default"] == uncached  # played from the cache as a fresh server plays it


def test_a_client_runs_server_closes_every_connection_after_its_response() -> None:
    (fixture,) = fixtures(1)
    body = json.dumps({"model": "m", "stream": True})
    with serving([case_from_fixture(fixture, "o")]) as url:
        host, port = url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        name = served_id(fixture)
        for path in (f"/cases/{name}/v1/chat/completions", "/cases/none/v1/chat/completions"):
            connection.request("POST", path, body=body)
            response = connection.getresponse()
            payload = response.read()
            assert response.getheader("Connection") == "close"
            assert response.will_close  # so no client pools the connection
            assert connection.sock is None  # http.client closed it after the body
        assert payload and response.status == 404  # an error reply closes it too
        connection.close()


def test_groups_share_one_set_of_workers_and_match_separate_runs() -> None:
    from toolstream.diff import resolve_adapters
    from toolstream.diff.runner import run_groups

    naive = "tests.support.diff_fixtures:naive_accumulate"
    first = [case_from_fixture(f, f"a-{n}") for n, f in enumerate(fixtures(50))]
    second = [case_from_fixture(oai(chunk(finish="stop")), f"b-{n}") for n in range(30)]
    (adapter,) = resolve_adapters([naive])
    together = run_groups([(first, [adapter]), (second, [adapter])], jobs=2)
    alone = [run_cases(first, resolve_adapters([naive])), run_cases(second, [adapter])]
    assert [dicts(group) for group in together] == [dicts(group) for group in alone]
    assert [r.path for r in together[1]] == [c.path for c in second]
