"""Release check: no test needs the network.  Sockets are blocked for every
release test (``ReleaseCase``); these tests show the block holds, that the
runner never even imports ``socket``, and that the release suite imports
nothing outside the standard library and this repository."""

from __future__ import annotations

import socket
import subprocess
import sys

from tests.support.release import REPO, ReleaseCase, SocketsBlocked, block_sockets

RELEASE_MODULES = (
    "tests.test_release_valid",
    "tests.test_release_collision",
    "tests.test_release_text_only",
    "tests.test_release_fail_closed",
    "tests.test_release_network",
)


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-S", "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


class NoNetwork(ReleaseCase):
    def test_loopback_connect_is_blocked(self) -> None:
        with self.assertRaises(SocketsBlocked):
            socket.create_connection(("127.0.0.1", 9), timeout=1)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            with self.assertRaises(SocketsBlocked):
                sock.connect(("127.0.0.1", 9))
            with self.assertRaises(SocketsBlocked):
                sock.connect_ex(("127.0.0.1", 9))
            with self.assertRaises(SocketsBlocked):
                sock.bind(("127.0.0.1", 0))

    def test_name_lookups_are_blocked(self) -> None:
        with self.assertRaises(SocketsBlocked):
            socket.getaddrinfo("localhost", 80)
        with self.assertRaises(SocketsBlocked):
            socket.gethostbyname("localhost")

    def test_block_is_undone_when_it_ends(self) -> None:
        # Entered twice: on leaving the inner block, the outer one still holds.
        outer = socket.socket.connect
        with block_sockets():
            self.assertIsNot(socket.socket.connect, outer)
        self.assertIs(socket.socket.connect, outer)
        with self.assertRaises(SocketsBlocked):
            socket.getaddrinfo("localhost", 80)

    def test_runner_never_imports_socket(self) -> None:
        done = _python(
            "import sys, toolstream.reference\n"
            "print(sorted(m for m in ('socket', '_socket', 'ssl', 'http', 'urllib.request')"
            " if m in sys.modules))"
        )
        self.assertEqual((done.returncode, done.stderr), (0, ""))
        self.assertEqual(done.stdout.strip(), "[]")

    def test_release_suite_imports_only_the_standard_library(self) -> None:
        done = _python(
            "import sys\n"
            f"for name in {RELEASE_MODULES!r}: __import__(name)\n"
            "own = ('tests', 'toolstream', '__main__')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] not in"
            " sys.stdlib_module_names and m.split('.')[0] not in own))"
        )
        self.assertEqual((done.returncode, done.stderr), (0, ""))
        self.assertEqual(done.stdout.strip(), "[]")
