"""Issue 15: every false green a new user hit with their own adapter is now
red, with the message they see.  One test per false green, through the
command line as a user runs it (click ``CliRunner``), plus the contract
pieces behind them (accepted answer shapes, profiles, the line protocol).

No adapter library is needed: the adapters are written here, in Python, or
as small Python programs run with this interpreter (``node`` is only used
where a test says so, and skipped with the reason when it is missing)."""

from __future__ import annotations

import json
import re
import shutil
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support.corpus_cases import ROOT, seed
from tests.support.diff_fixtures import PARALLEL, REUSED_INDEX, TEXT_ONLY, write_case
from toolstream import Rejected, validate_bytes
from toolstream.adapters import AdapterCall, AdapterOutputError
from toolstream.adapters.user import CallableAdapter, PersistentCommandAdapter
from toolstream.cli import cli
from toolstream.corpus import shrink as S
from toolstream.profiles import PROFILES

SEEDS = ROOT / "corpus" / "seeds"


def run(*args: Any) -> Result:
    return CliRunner(env={"NO_COLOR": "1", "COLUMNS": "200"}).invoke(
        cli, [str(a) for a in args]
    )


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    write_case(folder / "refragment", "valid", PARALLEL, ["refragment"])
    write_case(folder / "reuse_slot", "reused", REUSED_INDEX, ["reuse_slot"])
    write_case(folder / "none", "text", TEXT_ONLY)
    return folder


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A user's project folder, the current directory, with their adapters."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "user_adapters.py").write_text(
        textwrap.dedent(
            '''
            from toolstream import Rejected


            def broken(fixture):
                return [call for call in undefined_name]  # a NameError on every case


            def joined(fixture):
                """Join fragments per index (chat-completions chunks only)."""
                slots = {}
                for chunk in fixture.get("chunks") or []:
                    for choice in chunk.get("choices") or []:
                        for entry in (choice.get("delta") or {}).get("tool_calls") or []:
                            slot = slots.setdefault(entry.get("index"), [None, None, ""])
                            function = entry.get("function") or {}
                            slot[0] = slot[0] or entry.get("id")
                            slot[1] = slot[1] or function.get("name")
                            slot[2] += function.get("arguments") or ""
                return slots


            def as_tuples(fixture):
                return [tuple(slot) for slot in joined(fixture).values()]


            def as_generator(fixture):
                for slot in joined(fixture).values():
                    yield tuple(slot)


            def as_calls(fixture):
                from toolstream.adapters import AdapterCall

                return [AdapterCall(*slot) for slot in joined(fixture).values()]


            def returns_none(fixture):
                joined(fixture)


            class Refusal(Exception):
                pass


            def refuses_reused(fixture):
                ids = [e.get("id") for c in fixture["chunks"] for ch in c.get("choices") or []
                       for e in (ch.get("delta") or {}).get("tool_calls") or [] if e.get("id")]
                if len(ids) != len(set(joined(fixture))):
                    raise Refusal("an index is reused")
                return as_tuples(fixture)


            def chat_only(fixture):
                return as_tuples(fixture)


            chat_only.toolstream_profiles = ("openai", "mistral")
            '''
        ),
        encoding="utf-8",
    )
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    sys.modules.pop("user_adapters", None)


# -- 1. an adapter that raises on every case ---------------------------------------------


@pytest.mark.usefixtures("project")
def test_an_adapter_raising_on_every_case_is_red(corpus: Path) -> None:
    result = run("diff", corpus, "--adapter", "user_adapters:broken", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["totals"]["user_adapters:broken"]["adapter_crash"] == 3
    assert data["totals"]["user_adapters:broken"]["agree"] == 0  # no longer "rejected"
    assert result.stderr.strip() == (
        "this run proves nothing: adapter 'user_adapters:broken' crashed on every one of its"
        " 3 case(s) for the same reason: NameError raised inside user_adapters:broken:"
        " name 'undefined_name' is not defined"
    )


@pytest.mark.usefixtures("project")
def test_a_declared_exception_refuses_and_another_crashes(corpus: Path) -> None:
    spec = "user_adapters:refuses_reused"
    crashed = json.loads(run("diff", corpus, "--adapter", spec, "--format", "json").stdout)
    reused = next(c for c in crashed["cases"] if c["path"].endswith("reused.json"))
    assert reused["results"][spec]["classification"] == "adapter_crash"
    assert reused["results"][spec]["error"] == "Refusal: an index is reused"
    refusal = ["--reject-on", "user_adapters:Refusal"]
    refused = run("diff", corpus, "--adapter", spec, *refusal, "--format", "json")
    assert refused.exit_code == 0, refused.output
    cases = json.loads(refused.stdout)["cases"]
    reused = next(c for c in cases if c["path"].endswith("reused.json"))
    assert reused["results"][spec]["classification"] == "agree"
    assert reused["results"][spec]["rejected"] is True
    unknown = run("diff", corpus, "--adapter", spec, "--reject-on", "user_adapters:nope")
    assert unknown.exit_code == 64


# -- 2. a command whose script is missing -----------------------------------------------


def test_a_command_with_a_missing_script_is_red(corpus: Path, tmp_path: Path) -> None:
    command = f"{sys.executable} {tmp_path / 'accumulate.py'}"
    for fail_on in ("unsafe", "any", "never"):
        result = run("diff", corpus, "--adapter-command", command, "--fail-on", fail_on)
        assert result.exit_code == 1, (fail_on, result.output)
        message = one_line(result.stderr)
        assert message.startswith(
            f"this run proves nothing: adapter 'cmd:{command}' refused every one of its 3"
            " case(s) for the same reason: exit status 2:"
        )
        assert "No such file or directory" in message


def test_a_node_command_with_a_missing_script_is_red(corpus: Path, tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH")
    for protocol in ("per-case", "lines"):
        result = run(
            "diff", corpus, "--adapter-command", f"node {tmp_path / 'accumulate.js'}",
            "--protocol", protocol, "--fail-on", "any",
        )  # fmt: skip
        assert result.exit_code == 1, result.output
        assert "this run proves nothing" in result.stderr
        assert "Cannot find module" in result.stderr


# -- 3. tuples, generators, AdapterCall: the same shapes everywhere ---------------------


@pytest.mark.usefixtures("project")
@pytest.mark.parametrize("function", ["as_tuples", "as_generator", "as_calls"])
def test_tuples_generators_and_adapter_calls_are_accepted(corpus: Path, function: str) -> None:
    spec = f"user_adapters:{function}"
    result = run("diff", corpus, "--adapter", spec, "--format", "json")
    totals = json.loads(result.stdout)["totals"][spec]
    assert totals["agree"] == 2 and totals["unsafe_accept"] == 1, totals  # it merges reuse
    assert totals["adapter_crash"] == 0
    assert result.exit_code == 1  # the unsafe_accept


@pytest.mark.usefixtures("project")
def test_a_wrong_shape_is_a_crash_naming_the_expected_one(corpus: Path) -> None:
    spec = "user_adapters:returns_none"
    result = run("diff", corpus, "--adapter", spec, "--format", "json")
    assert result.exit_code == 1
    outcome = json.loads(result.stdout)["cases"][0]["results"][spec]
    assert outcome["classification"] == "adapter_crash"
    assert outcome["error"].startswith(
        f"AdapterOutputError: {spec}: returned None; expected a list (or tuple, or generator)"
        " of calls, each an AdapterCall, a mapping {id, name, arguments[, input]} or an"
        " (id, name, arguments) tuple"
    )


def test_answer_shapes() -> None:
    def adapter(answer: Any) -> CallableAdapter:
        return CallableAdapter(lambda fixture: answer, name="shapes")

    expected = (AdapterCall("call_1", "weather", "{}"),)
    for answer in (
        [("call_1", "weather", "{}")],
        (["call_1", "weather", "{}"],),
        [{"id": "call_1", "name": "weather", "arguments": "{}"}],
        {"calls": [{"id": "call_1", "name": "weather", "arguments": "{}"}]},
        iter([("call_1", "weather", "{}")]),
        list(expected),
    ):
        assert adapter(answer).run(PARALLEL).calls == expected, answer
    refusal = adapter({"rejected": True, "reason": "no"}).run(PARALLEL)
    assert refusal.rejected and refusal.reason == "no"
    for bad, message in (
        (None, "returned None"),
        ("call", "returned str"),
        ([("a", "b")], "call 0 is a 2-element tuple"),
        ([{"id": 1}], "'id' must be a string or null, got int"),
        ({"rejected": False}, "a refusal is"),
        ({"call": []}, "returned a mapping with keys ['call']"),
    ):
        with pytest.raises(AdapterOutputError, match=re.escape(message)):
            adapter(bad).run(PARALLEL)

    def refusing_generator(fixture: Any) -> Any:
        yield ("call_1", "weather", "{}")
        raise Rejected("changed my mind")

    late = CallableAdapter(refusing_generator, name="late").run(PARALLEL)
    assert late.rejected and late.reason == "Rejected: changed my mind"


# -- 4. no case read --------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"{oops", b"[1, 2]"], ids=["empty", "broken", "list"])
def test_no_case_read_is_a_usage_error(tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "only.json").write_bytes(content)
    result = run("diff", folder, "--adapter", "tests.support.diff_fixtures:naive_accumulate", "-q")
    assert result.exit_code == 64, result.output
    assert f"no case could be read from {folder}" in one_line(result.stderr)
    assert "only.json" in result.stderr  # named even with -q: it is the whole story
    naive = "tests.support.diff_fixtures:naive_accumulate"
    single = run("diff", folder / "only.json", "--adapter", naive)
    assert single.exit_code == 64


def test_a_profile_with_no_case_is_a_usage_error(corpus: Path) -> None:
    result = run("diff", corpus, "--adapter", "tests.support.diff_fixtures:naive_accumulate",
                 "--profile", "bedrock")  # fmt: skip
    assert result.exit_code == 64
    assert "no case of profile bedrock could be read" in one_line(result.stderr)


# -- 5. shrink --------------------------------------------------------------------------


def test_shrink_refuses_a_command_that_ignores_the_case(tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps(seed("openai-parallel")))
    out = tmp_path / "min.json"
    command = f"{sys.executable} {tmp_path / 'no.py'} {{}}"
    result = run("shrink", case, "-o", out, "--command", command)
    assert result.exit_code == 64, result.output
    assert "the predicate does not depend on the case" in one_line(result.stderr)
    assert not out.exists()


def test_shrink_refuses_a_missing_node_script(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH")
    case = tmp_path / "case.json"
    case.write_text(json.dumps(seed("openai-parallel")))
    result = run("shrink", case, "-o", tmp_path / "min.json", "--command", "node nonexist.js {}")
    assert result.exit_code == 64
    assert "the predicate does not depend on the case" in one_line(result.stderr)
    assert "Cannot find module" in result.stderr


CHECK = """\
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
sys.exit(1 if "get_weather" in text else 0)     # "still failing" while the tool is named
"""


@pytest.mark.parametrize("predicate", ["command", "expect-code"])
def test_shrink_keeps_the_envelope_and_the_verdict(tmp_path: Path, predicate: str) -> None:
    script = tmp_path / "check.py"
    script.write_text(CHECK)
    blocked = seed("openai-parallel")
    blocked["chunks"] = [
        c for c in blocked["chunks"] if not any(h.get("finish_reason") for h in c["choices"])
    ]
    assert validate_bytes(S.encode(blocked)).status == "blocked"  # missing_terminal
    case = tmp_path / "case.json"
    case.write_text(json.dumps(blocked))
    out = tmp_path / "min.json"
    args = (
        ["--command", f"{sys.executable} {script}"]
        if predicate == "command"
        else ["--expect-code", "missing_terminal"]
    )
    assert run("shrink", case, "-o", out, *args).exit_code == 0
    written = json.loads(out.read_text())
    assert written["profile"] == "openai"
    assert written["expect"]["status"] == "blocked"  # not not_applicable
    assert "tool_schemas" in written
    for call in validate_bytes(out.read_bytes()).calls:  # every tool still called: declared
        assert call.name is None or call.name in written["tool_schemas"]
    if predicate == "command":  # lifted on request
        assert run("shrink", case, "-o", out, *args, "--allow-verdict-change").exit_code == 0
        assert json.loads(out.read_text())["profile"] == "openai"  # the envelope, always


def test_shrink_adapter_imports_from_the_current_directory(project: Path, tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps(REUSED_INDEX))
    out = tmp_path / "min.json"
    result = run("shrink", case, "-o", out, "--adapter", "user_adapters:as_tuples")
    assert result.exit_code == 0, result.output
    assert "still disagrees: unsafe_accept" in one_line(result.output)
    assert json.loads(out.read_text())["expect"]["codes"] == ["identity_collision"]


TEXT_OUT_OF_REACH = {"bedrock-invoke"}  # argument text inside base64 ``chunk.bytes``


@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_profile_locates_its_slots_and_fragments(profile: str) -> None:
    """The layer table check for shrink: each profile the validator knows
    provides ``slot_pieces``, and on its seed the slot and fragment passes
    have something to work on."""
    cls = PROFILES[profile]
    assert "slot_pieces" in vars(cls) or any(
        "slot_pieces" in vars(base) for base in cls.__mro__[1:-2]
    ), f"{cls.__name__} does not provide slot_pieces"
    (path,) = [p for p in SEEDS.glob("*.json") if json.loads(p.read_text())["profile"] == profile]
    fixture = json.loads(path.read_text())
    slots = S.slots(fixture)
    assert slots, f"{profile}: no slot found"
    dropped = S.drop_slot(fixture, slots[-1])
    assert slots[-1] not in S.slots(dropped) and len(S.slots(dropped)) == len(slots) - 1
    if profile in TEXT_OUT_OF_REACH:
        # Nothing points into base64 frames: the fragment passes must find
        # nothing to edit (never a path into the encoded bytes), and a slot
        # dropped is still a whole call gone from what the frames say.
        assert not S._fragments(fixture) and not S.fragment_pairs(fixture)
        before = validate_bytes(S.encode(fixture))
        after = validate_bytes(S.encode(dropped))
        assert after.status == before.status == "pass"
        assert [c.id for c in after.calls] == [c.id for c in before.calls][:-1]
        return
    assert S._fragments(fixture), f"{profile}: no fragment found"
    if profile != "mistral":  # Mistral sends whole calls: nothing to merge
        assert S.fragment_pairs(fixture), f"{profile}: no adjacent fragments to merge"
        first, second, drop = S.fragment_pairs(fixture)[0]
        merged = S.merge_pair(fixture, first, second, drop)
        before = validate_bytes(S.encode(fixture))
        after = validate_bytes(S.encode(merged))
        assert (after.status, after.codes) == (before.status, before.codes)
        assert [c.arguments for c in after.calls] == [c.arguments for c in before.calls]


# -- 6. user adapters see every profile --------------------------------------------------


@pytest.mark.usefixtures("project")
def test_user_adapters_see_every_profile() -> None:
    result = run("diff", SEEDS, "--adapter", "user_adapters:as_tuples", "--format", "json")
    data = json.loads(result.stdout)
    assert data["adapters"][0]["profiles"] == list(PROFILES)
    assert data["totals"]["user_adapters:as_tuples"]["not_run"] == 0
    assert set(data["by_profile"]["user_adapters:as_tuples"]) == set(PROFILES)


@pytest.mark.usefixtures("project")
@pytest.mark.parametrize(
    "args", [["--adapter", "user_adapters:chat_only"],
             ["--adapter", "user_adapters:as_tuples", "--adapter-profile", "openai",
              "--adapter-profile", "mistral"]],
    ids=["attribute", "option"],
)  # fmt: skip
def test_declared_profiles_are_counted_per_profile(args: list[str]) -> None:
    table = run("diff", SEEDS, *args)
    out = table.stdout
    assert "cases run per profile" in out
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 2}
    assert "1 of 1 run" in rows["openai"] and "not run" not in rows["openai"]
    for profile in ("anthropic", "bedrock", "openai-responses"):
        assert "0 of 1 run, 1 not run" in rows[profile], out


@pytest.mark.usefixtures("project")
def test_profile_filter(corpus: Path) -> None:
    both = corpus.parent / "both"
    shutil.copytree(corpus, both / "chat")
    shutil.copy(SEEDS / "bedrock-text-and-two-tools.json", both / "bedrock.json")
    result = run("diff", both, "--adapter", "user_adapters:as_tuples", "--profile", "bedrock",
                 "--format", "json")  # fmt: skip
    data = json.loads(result.stdout)
    assert data["cases_total"] == 1 and data["cases"][0]["profile"] == "bedrock"


# -- the persistent line protocol --------------------------------------------------------

LINES = """\
import json, sys
for line in sys.stdin:
    fixture = json.loads(line)
    if fixture["profile"] == "anthropic":
        print(json.dumps({"rejected": True, "reason": "chat only"}), flush=True)
        continue
    if fixture.get("request", {}).get("hang"):
        import time; time.sleep(30)
    if fixture.get("request", {}).get("die"):
        sys.exit(7)
    slots = {}
    for chunk in fixture["chunks"]:
        for choice in chunk.get("choices") or []:
            for e in (choice.get("delta") or {}).get("tool_calls") or []:
                s = slots.setdefault(e.get("index"), {"id": None, "name": None, "arguments": ""})
                f = e.get("function") or {}
                s["id"] = s["id"] or e.get("id")
                s["name"] = s["name"] or f.get("name")
                s["arguments"] += f.get("arguments") or ""
    print(json.dumps({"calls": list(slots.values())}), flush=True)
"""


def test_the_line_protocol_runs_one_process(tmp_path: Path) -> None:
    script = tmp_path / "lines.py"
    script.write_text(LINES.replace('{"calls": list(slots.values())}', '{"calls": [], "pid": 1}'))
    adapter = PersistentCommandAdapter(f"{sys.executable} {script}", timeout=5)
    try:
        with pytest.raises(AdapterOutputError, match=r"with keys \['calls', 'pid'\]"):
            adapter.run(PARALLEL)  # an answer with an extra member is not an answer
    finally:
        adapter.close()
    script.write_text(LINES)
    adapter = PersistentCommandAdapter(f"{sys.executable} {script}", timeout=5)
    try:
        first = adapter.run(PARALLEL)
        process = adapter._proc
        assert [c.id for c in first.calls] == ["call_1", "call_2"]
        assert adapter.run(REUSED_INDEX).calls and adapter._proc is process  # the same one
        refused = adapter.run({"profile": "anthropic", "events": []})
        assert refused.rejected and refused.reason == "chat only"
    finally:
        adapter.close()
    assert process is not None and process.poll() is not None  # closed with the run


def test_the_line_protocol_timeout_and_death_are_crashes(tmp_path: Path) -> None:
    script = tmp_path / "lines.py"
    script.write_text(LINES)
    adapter = PersistentCommandAdapter(f"{sys.executable} {script}", timeout=1)
    try:
        with pytest.raises(TimeoutError, match="no answer within 1 s"):
            adapter.run({**PARALLEL, "request": {"hang": True}})
        assert adapter.run(PARALLEL).calls  # started again
        with pytest.raises(RuntimeError, match="exited with status 7 before answering"):
            adapter.run({**PARALLEL, "request": {"die": True}})
        assert adapter.run(PARALLEL).calls
    finally:
        adapter.close()


def test_the_line_protocol_through_diff(corpus: Path, tmp_path: Path) -> None:
    script = tmp_path / "lines.py"
    script.write_text(LINES)
    command = f"{sys.executable} {script}"
    per_line = run("diff", corpus, "--adapter-command", command, "--protocol", "lines",
                   "--format", "json", "-j", "1")  # fmt: skip
    data = json.loads(per_line.stdout)
    assert data["adapters"][0]["name"] == f"lines:{command}"
    assert data["totals"][f"lines:{command}"]["unsafe_accept"] == 1
    assert data["totals"][f"lines:{command}"]["agree"] == 2
    assert per_line.exit_code == 1


def test_the_diff_package_draws_no_console() -> None:
    """Issue 12: console rendering lives under ``toolstream/cli/`` only."""
    import subprocess

    code = "import sys, toolstream.diff, toolstream.diff.render; print('rich' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "False"


def test_the_line_protocol_with_workers(tmp_path: Path) -> None:
    script = tmp_path / "lines.py"
    script.write_text(LINES)
    folder = tmp_path / "many"
    for position in range(90):
        write_case(folder, f"case{position:02d}", (PARALLEL, REUSED_INDEX, TEXT_ONLY)[position % 3])
    args = ["diff", folder, "--adapter-command", f"{sys.executable} {script}",
            "--protocol", "lines", "--format", "json"]  # fmt: skip
    serial, parallel = run(*args), run(*args, "-j", "2")
    assert serial.exit_code == parallel.exit_code == 1
    assert serial.stdout == parallel.stdout
    assert json.loads(serial.stdout)["totals"][f"lines:{sys.executable} {script}"]["agree"] == 60
