"""Corpus files: the JSON writer, content addresses, atomic writes, discovery, manifest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.corpus_cases import hand_corpus, seed, write_case
from toolstream import caseio
from toolstream.caseio import (
    MANIFEST_NAME,
    atomic_write,
    discover,
    dump_json,
    fixture_digest,
    load_case,
    manifest_cases,
    write_manifest,
)


def test_dump_json_is_ascii_indented_with_a_final_newline() -> None:
    text = dump_json({"a": "S\u00e3o \ud83c\udf0d", "lone": "\ud800", "n": [1]})
    assert text.isascii()
    assert text.endswith("}\n")
    assert '\n  "a": ' in text
    assert json.loads(text)["lone"] == "\ud800"  # an unpaired surrogate survives
    assert text == json.dumps(json.loads(text), ensure_ascii=True, indent=2) + "\n"


def test_digest_addresses_the_fixture_not_its_label_or_provenance() -> None:
    fixture = seed("openai-parallel")
    labelled = {**fixture, "expect": {"status": "pass", "codes": []}, "meta": {"x": 1}}
    assert fixture_digest(fixture) == fixture_digest(labelled)
    assert len(fixture_digest(fixture)) == 16
    changed = {**fixture, "request": {"tool_choice": "required"}}
    assert fixture_digest(changed) != fixture_digest(fixture)
    # a non-object meta is part of the fixture (the validator rejects it)
    assert fixture_digest({**fixture, "meta": 1}) != fixture_digest(fixture)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.startswith(".") or ".tmp" in p.name)


@pytest.mark.parametrize(
    "exc", [OSError("disk full"), KeyboardInterrupt()], ids=["error", "ctrl-c"]
)
def test_interrupted_atomic_write_keeps_the_old_file_and_leaves_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exc: BaseException
) -> None:
    target = tmp_path / "op" / "case.json"
    atomic_write(target, dump_json({"v": 1}))

    def half_then_fail(handle: Any, data: bytes) -> None:
        handle.write(data[: len(data) // 2])
        raise exc

    monkeypatch.setattr(caseio, "_fill", half_then_fail)
    with pytest.raises(type(exc)):
        atomic_write(target, dump_json({"v": 2, "padding": "x" * 1000}))
    assert json.loads(target.read_text()) == {"v": 1}
    assert _leftovers(tmp_path) == []


def test_discover_names_cases_by_relative_path_and_flags_manifest_gaps(tmp_path: Path) -> None:
    paths = hand_corpus(tmp_path)
    found = discover([tmp_path])
    assert [c.id for c in found.cases] == sorted(c.id for c in found.cases)
    assert len(found.cases) == len(paths)
    assert all(c.id.count("/") == 1 and not c.id.endswith(".json") for c in found.cases)
    assert found.unlisted == []

    gone = paths[0]
    gone.unlink()
    extra = write_case(
        tmp_path, {"profile": "openai", "tool_schemas": {}, "chunks": []}, operator="x"
    )
    found = discover([tmp_path])
    missing = [c for c in found.cases if c.missing]
    assert [Path(c.path) for c in missing] == [gone]
    assert found.unlisted == [f"x/{extra.stem}"]

    # a file given directly is named by its path; two folders are prefixed
    single = discover([extra])
    assert single.cases[0].id == str(extra)[: -len(".json")]
    both = discover([tmp_path / "seed", tmp_path / "x"])
    assert {c.id.split("/")[-2] for c in both.cases} == {"seed", "x"}


def test_discover_rejects_a_missing_path(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        discover([tmp_path / "nope"])


def test_manifest_lists_exactly_the_files_present(tmp_path: Path) -> None:
    paths = hand_corpus(tmp_path)
    (tmp_path / "seed" / ".half.json.123.tmp").write_text("{")  # a stray temp file
    assert write_manifest(tmp_path) == len(paths)
    listed = manifest_cases(tmp_path / MANIFEST_NAME)
    assert listed == sorted(p.relative_to(tmp_path).as_posix() for p in paths)
    for line in (tmp_path / MANIFEST_NAME).read_text("ascii").splitlines():
        record = json.loads(line)
        case = json.loads((tmp_path / record["case"]).read_text())
        assert record["expect"] == case["expect"]


def test_load_case_reports_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"\xff\xfe")
    (tmp_path / "b.json").write_text("{nope")
    assert "UTF-8" in (load_case(tmp_path / "a.json").error or "")
    assert "not JSON" in (load_case(tmp_path / "b.json").error or "")
    assert "cannot read" in (load_case(tmp_path / "c.json").error or "")
