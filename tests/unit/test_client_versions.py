"""``--client NAME==VERSION``: the pieces that need no environment
(``toolstream.clients.versions``); the one environment built for real is
``clients/test_client_version_env.py``."""

from __future__ import annotations

import pytest

from toolstream.adapters import NO_INPUT, AdapterCall, AdapterResult
from toolstream.clients.registry import CLIENTS, get_client
from toolstream.clients.versions import (
    VersionedClient,
    VersionError,
    _crash,
    check_supported,
    expand_client_values,
    result_from_json,
    result_to_json,
    split_version,
    version_key,
)
from toolstream.diff.classify import classify_crash


def test_a_list_of_versions_names_the_client_once() -> None:
    pieces = ["openai-chat-create==1.40.0", "2.8.0", "3.57.0", "langchain-openai", "x@cut-close"]
    assert expand_client_values(pieces) == [
        "openai-chat-create==1.40.0",
        "openai-chat-create==2.8.0",
        "openai-chat-create==3.57.0",
        "langchain-openai",
        "x@cut-close",
    ]
    assert split_version("openai-chat-create==2.8.0") == ("openai-chat-create", "2.8.0")
    assert split_version("openai-chat-create") == ("openai-chat-create", None)


def test_release_numbers_sort_as_releases() -> None:
    versions = ["1.10.0", "1.9.0", "1.0.0rc1", "1.0.0", "2.0", "1.9.1"]
    assert sorted(versions, key=version_key) == [
        "1.0.0rc1",
        "1.0.0",
        "1.9.0",
        "1.9.1",
        "1.10.0",
        "2.0",
    ]


def test_a_version_older_than_the_driver_supports_is_one_line() -> None:
    client = CLIENTS["openai-chat-create"]
    assert client.oldest is not None
    check_supported(client, client.oldest)
    with pytest.raises(VersionError) as too_old:
        check_supported(client, "0.28.0")
    assert str(too_old.value) == (
        f"client 'openai-chat-create' supports openai {client.oldest} and later, not 0.28.0"
    )
    # a driver that declares no oldest version runs only at its pin
    with pytest.raises(VersionError, match="runs only at its pinned version"):
        check_supported(CLIENTS["cohere-chat-stream"], "5.0.0")


def test_a_versioned_name_is_its_own_client() -> None:
    versioned = get_client("openai-chat-create==2.8.0")
    assert isinstance(versioned, VersionedClient)
    assert versioned.name == "openai-chat-create==2.8.0"
    assert versioned.profiles == CLIENTS["openai-chat-create"].profiles
    assert get_client("openai-chat-create==2.8.0") is versioned
    with pytest.raises(KeyError, match="JavaScript"):
        get_client("openai-node-chat-create==4.0.0")


def test_a_result_crosses_the_worker_line_unchanged() -> None:
    result = AdapterResult(
        calls=(
            AdapterCall("call_1", "weather", '{"city":"Paris"}'),
            AdapterCall("toolu_1", "weather", None, input={"city": "Rome"}),
        ),
        rejected=False,
        invalid=('{"id":"x"}',),
        finish_reason="tool_calls",
    )
    back = result_from_json(result_to_json(result))
    assert back == result
    assert back.calls[0].input is NO_INPUT


def test_a_crash_in_the_worker_keeps_its_type_and_where() -> None:
    error = _crash(
        {"type": "IndexError", "message": "list index out of range", "notes": ["@@x openai 2.8"]}
    )
    outcome = classify_crash(error)
    assert outcome.error_type == "IndexError"
    assert outcome.signature == "adapter_crash:IndexError"
    assert outcome.error == "IndexError: list index out of range"
