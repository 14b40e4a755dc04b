"""Every finding code belongs to exactly one layer of responsibility, and the
per-layer counts add up to the totals."""

from __future__ import annotations

import pathlib

import pytest

from toolstream.findings import LAYER_OF_CODE, Code, Layer, count_by_layer, layer_of

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_code_has_exactly_one_layer() -> None:
    missing = [code.value for code in Code if code not in LAYER_OF_CODE]
    assert missing == [], f"codes without a layer: {missing}"
    assert set(LAYER_OF_CODE) == set(Code)


def test_every_layer_is_used_and_documented() -> None:
    used = set(LAYER_OF_CODE.values())
    assert used == set(Layer)
    for layer in Layer:
        assert layer.__doc__ and layer.__doc__ != Layer.__doc__, layer


def test_tool_policy_is_the_application_s_job() -> None:
    assert {c for c in Code if layer_of(c) is Layer.TOOL_POLICY} == {
        Code.UNKNOWN_TOOL,
        Code.SCHEMA_VIOLATION,
        Code.INVALID_SCHEMA,
        Code.UNSUPPORTED_SCHEMA_KEYWORD,
    }
    assert "the application must check this; the library does not claim to" in (
        (Layer.TOOL_POLICY.__doc__ or "").lower()
    )


@pytest.mark.parametrize(
    ("code", "layer"),
    [
        ("identity_collision", Layer.REASSEMBLY),
        ("missing_terminal", Layer.REASSEMBLY),
        ("malformed_json", Layer.STRICTNESS),
        ("duplicate_key", Layer.STRICTNESS),
        ("unsupported_event", Layer.TRANSPORT),
        ("unknown_tool", Layer.TOOL_POLICY),
    ],
)
def test_layer_of_accepts_the_reported_string(code: str, layer: Layer) -> None:
    assert layer_of(code) is layer
    assert layer_of(Code(code)) is layer


def test_layer_of_an_unknown_code_is_an_error() -> None:
    with pytest.raises(ValueError):
        layer_of("not_a_code")


def test_counts_by_layer_add_up_to_the_total() -> None:
    codes = [c.value for c in Code] + ["schema_violation", "malformed_json"]
    counts = count_by_layer(codes)
    assert list(counts) == list(Layer)
    assert sum(counts.values()) == len(codes)
    assert counts[Layer.TOOL_POLICY] == 5
    assert count_by_layer([]) == dict.fromkeys(Layer, 0)


def test_the_findings_page_names_each_code_s_layer() -> None:
    page = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    for code in Code:
        assert f"| `{code.value}` | `{layer_of(code).value}` |" in page, code
