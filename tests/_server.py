"""Run ``awrscope serve`` in a subprocess on 127.0.0.1 and a free port, for tests
that talk HTTP to a real server."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

SRC = Path(__file__).resolve().parents[1] / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db_url: str, *args: str, preexec_fn=None):
        """preexec_fn runs in the server's process before it starts (e.g. a lower open-file limit, another user)."""
        self.port = free_port()
        tls = "--ssl-certfile" in args
        self.base = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("AWRSCOPE_TOKEN", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "awrscope", "serve", "--db", db_url, "--port",
                                      str(self.port), *args], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, preexec_fn=preexec_fn)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited: " + self.proc.stdout.read().decode(errors="replace"))
            try:
                httpx.get(self.base + "/robots.txt", timeout=1, verify=not tls)
                return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("server did not start within 60 s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
