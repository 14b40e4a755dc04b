"""The LiteLLM proxy recipe: ``gateway-check --gateway-recipe litellm``.

The run writes a LiteLLM proxy config whose model routes all point at the
``serve`` instance playing the cases, starts ``litellm --config ... --host
127.0.0.1 --port N`` as a subprocess (its own process group, a random master
key, the bundled model cost map so it never reaches the network), waits for
``/health/liveliness`` within the startup bound, and stops it (SIGTERM, then
SIGKILL) when the run ends.

Routes (wildcards: the part after the route's prefix is passed on as the
provider's model, so ``anthropic/case:<id>`` reaches ``serve`` as the
Anthropic model ``case:<id>``, which selects the case):

============================  ===================================  ============================
upstream profile              route (request ``model``)            LiteLLM provider model
============================  ===================================  ============================
``anthropic``                 ``anthropic/case:<id>``              ``anthropic/*``
``openai``                    ``chat/case:<id>``                   ``hosted_vllm/*``
``openai-responses``          ``responses/case:<id>``              ``openai/responses/*``
``bedrock``                   ``bedrock/case:<id>``                ``bedrock/converse/*``
============================  ===================================  ============================

Needs the ``gateways`` extra (``pip install 'toolstream[gateways]'``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
import shutil
import socket
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolstream.adapters.base import package_version
from toolstream.gateway.gateways import Gateway
from toolstream.gateway.process import started

__all__ = ["ROUTES", "LiteLLMGateway", "config_text", "missing"]

ROUTES: Final[dict[str, tuple[str, str]]] = {
    "anthropic": ("anthropic", "anthropic/*"),
    "openai": ("chat", "hosted_vllm/*"),
    "openai-responses": ("responses", "openai/responses/*"),
    "bedrock": ("bedrock", "bedrock/converse/*"),
}
"""Upstream profile -> (route prefix a request names, LiteLLM provider model)."""

STARTUP: Final = 300.0
"""Seconds the proxy may take to answer its health check (about a minute
on a busy 2-core machine: it imports the whole SDK)."""

_MODULES: Final = ("litellm", "fastapi", "uvicorn", "backoff", "orjson", "apscheduler")


def executable() -> str | None:
    """The ``litellm`` command beside this interpreter, else on PATH."""
    beside = Path(sys.executable).with_name("litellm")
    if beside.is_file():
        return str(beside)
    return shutil.which("litellm")


def missing() -> str | None:
    """Why the recipe cannot run here, or ``None``."""
    absent = [name for name in _MODULES if importlib.util.find_spec(name) is None]
    if absent or executable() is None:
        what = ", ".join(absent) if absent else "the litellm command"
        return (
            f"--gateway-recipe litellm needs the LiteLLM proxy ({what} missing); install it"
            " with: pip install 'toolstream[gateways]'"
        )
    return None


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def config_text(upstream: str, master_key: str) -> str:
    """The proxy config (YAML; JSON-quoted scalars) for ``upstream``."""
    base = upstream.rstrip("/")
    rows = [
        ("anthropic/*", {"model": "anthropic/*", "api_base": base, "api_key": "unused"}, None),
        # hosted_vllm: an OpenAI-compatible Chat Completions provider; LiteLLM's
        # own openai/* provider answers /v1/messages through the Responses API
        (
            "chat/*",
            {"model": "hosted_vllm/*", "api_base": f"{base}/v1", "api_key": "unused"},
            None,
        ),
        (
            "responses/*",
            {"model": "openai/responses/*", "api_base": f"{base}/v1", "api_key": "unused"},
            None,
        ),
        (
            "bedrock/*",
            {
                "model": "bedrock/converse/*",
                "aws_bedrock_runtime_endpoint": base,
                "aws_access_key_id": "unused",
                "aws_secret_access_key": "unused",
                "aws_region_name": "us-east-1",
            },
            None,
        ),
    ]
    lines = ["model_list:"]
    for name, params, mode in rows:
        lines.append(f"  - model_name: {_quote(name)}")
        lines.append("    litellm_params:")
        lines.extend(f"      {key}: {_quote(value)}" for key, value in params.items())
        if name == "bedrock/*":
            # LiteLLM does not know the model 'case:...' takes tools; let them through
            lines.append('      allowed_openai_params: ["tools", "tool_choice"]')
        if mode is not None:
            lines.append("    model_info:")
            lines.append(f"      mode: {_quote(mode)}")
    lines += [
        "general_settings:",
        f"  master_key: {_quote(master_key)}",
        "litellm_settings:",
        "  num_retries: 0",
        "  request_timeout: 60",
        "  telemetry: false",
        "",
    ]
    return "\n".join(lines)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiteLLMGateway(Gateway):
    """The LiteLLM proxy, configured, started and stopped by the run."""

    kind = "litellm"

    def __init__(self, startup: float = STARTUP) -> None:
        self.startup = startup
        self.master_key = "sk-" + secrets.token_hex(32)

    def model(self, case: str, upstream_profile: str) -> str:
        prefix = ROUTES.get(upstream_profile, (upstream_profile, ""))[0]
        return f"{prefix}/case:{case}"

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.master_key}", "x-api-key": self.master_key}

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "litellm": package_version("litellm")}

    @contextlib.contextmanager
    def running(self, upstream: str) -> Iterator[str]:
        command = executable()
        if command is None:  # pragma: no cover - missing() is checked first
            raise RuntimeError("no litellm command")
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        with tempfile.TemporaryDirectory(prefix="toolstream-litellm-") as folder:
            config = Path(folder) / "litellm.yaml"
            config.write_text(config_text(upstream, self.master_key), encoding="utf-8")
            os.chmod(config, 0o600)  # it holds the master key
            env = {
                **os.environ,
                "LITELLM_LOCAL_MODEL_COST_MAP": "True",
                "LITELLM_TELEMETRY": "False",
                "NO_PROXY": "127.0.0.1,localhost",
            }
            argv = [command, "--config", str(config), "--host", "127.0.0.1", "--port", str(port)]

            def ready() -> str | None:
                try:
                    with urllib.request.urlopen(f"{url}/health/liveliness", timeout=2):
                        return url
                except (OSError, urllib.error.URLError):
                    return None

            with started(argv, startup=self.startup, url_line=False, ready=ready, env=env):
                yield url
