"""A quiet ``toolstream diff`` prints no library warnings: the LangChain
integrations (and the langchain-core adapter) over a passing and a blocked
case of each profile they read, in a fresh process with every warning
turned on (``PYTHONWARNINGS=always``), so a warning that escapes the
silencing, at import or per case, reaches stderr and fails the test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.corpus_cases import ROOT

CORPUS = ROOT / "corpus" / "cases"
LANGCHAIN = "langchain-openai,langchain-anthropic,langchain-mistralai,langchain-google-genai"


def small_corpus(folder: Path) -> Path:
    """The first passing and the first blocked case of each profile."""
    wanted = {(p, s) for p in ("openai", "anthropic", "mistral", "gemini") for s in
              ("pass", "blocked")}  # fmt: skip
    for path in sorted(CORPUS.glob("*/*.json")):
        case = json.loads(path.read_text("utf-8"))
        key = (case["profile"], case["expect"]["status"])
        if key in wanted:
            wanted.discard(key)
            (folder / path.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, folder / path.parent.name / path.name)
    assert not wanted, wanted
    return folder


def test_a_quiet_diff_prints_no_library_warnings(tmp_path: Path) -> None:
    for module in ("langchain_openai", "langchain_anthropic", "langchain_mistralai"):
        pytest.importorskip(module, reason="the LangChain integrations are in the test extra")
    pytest.importorskip("langchain_google_genai", reason="in the test extra")
    corpus = small_corpus(tmp_path / "cases")
    done = subprocess.run(
        [sys.executable, "-c", "from toolstream.cli import main; main()", "diff", str(corpus),
         "--client", LANGCHAIN, "--adapter", "langchain-core", "-q", "--fail-on", "never",
         "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PYTHONPATH=str(ROOT), PYTHONWARNINGS="always"),
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr
    result = json.loads(done.stdout)
    ran = [name for name, totals in result["totals"].items() if "skipped" not in totals]
    assert sorted(ran) == sorted([*LANGCHAIN.split(","), "langchain-core"])
    assert all(result["totals"][name]["not_run"] < result["cases_total"] for name in ran)
