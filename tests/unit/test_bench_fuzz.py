"""``bench/fuzz.py`` (``make fuzz``) reports what it checked: a count per
property and a total, counted from the inputs Hypothesis actually ran, and a
run that checked nothing fails."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _fuzz_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_fuzz", ROOT / "bench" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_counts_per_property_and_total(capsys: pytest.CaptureFixture[str]) -> None:
    fuzz = _fuzz_script()
    status = fuzz.main(["--only", "envelope,raw-openai", "--batch", "4", "--rounds", "2"])
    out = capsys.readouterr().out
    assert status == 0, out
    counts = dict(re.findall(r"^ok\s+(\S+)\s+([\d,]+) inputs$", out, re.MULTILINE))
    assert counts == {"envelope": "8", "raw-openai": "8"}, out
    assert re.search(r"^total 16 inputs over 2 properties in \d+ s, 0 failed$", out, re.M), out


def test_a_run_that_checked_nothing_fails(capsys: pytest.CaptureFixture[str]) -> None:
    fuzz = _fuzz_script()
    assert fuzz.main(["--only", "envelope", "--minutes", "0"]) == 1
    captured = capsys.readouterr()
    assert "total 0 inputs" in captured.out
    assert "no input was checked" in captured.err


def test_a_failing_property_is_reported_and_fails_the_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fuzz = _fuzz_script()

    def broken(name: str, examples: int) -> int:
        raise AssertionError(f"{name} is broken")

    monkeypatch.setattr(fuzz.test_fuzz, "run_property", broken)
    assert fuzz.main(["--only", "envelope", "--rounds", "1"]) == 1
    out = capsys.readouterr().out
    assert "FAIL envelope" in out and "envelope is broken" in out
    assert re.search(r"^FAIL\s+envelope\s+0 inputs$", out, re.M), out
