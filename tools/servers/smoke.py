#!/usr/bin/env python3
"""Starts each installed language server and checks that it answers LSP `initialize`.

Usage: python3 tools/servers/smoke.py [NAME...]        (or `make servers-smoke`)

For each server (all of them, or the NAMEs given, as in SERVERS) whose command is in
TOOLS/bin (LSPSEAM_TOOLS, default <repo>/.tools), it runs the command with its LSP
arguments in an empty scratch workspace, sends `initialize` over stdio with
Content-Length framing, waits for the response (20 s), sends `shutdown` and `exit`, and
prints one line: the server's `serverInfo` name and version from the response (or
"(no serverInfo)") and how many capabilities it announced. Servers not installed are
listed as such. The exit status is 1 if any installed server did not answer with
capabilities. Needs only Python 3 (no Go, no lspseam).
"""
import json
import os
import pathlib
import select
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
TOOLS = pathlib.Path(os.environ.get("LSPSEAM_TOOLS") or HERE.parent.parent / ".tools")

# name in SERVERS -> (command path relative to TOOLS, LSP arguments)
SERVERS = {
    "gopls": ("bin/gopls", ["serve"]),
    "terraform": ("bin/terraform-ls", ["serve"]),
    "proto": ("bin/buf", ["lsp", "serve"]),
    "prisma": ("bin/prisma-language-server", ["--stdio"]),
    "typescript": ("bin/typescript-language-server", ["--stdio"]),
    "pyright": ("bin/pyright-langserver", ["--stdio"]),
    "clangd": ("bin/clangd", []),
    "bash": ("bin/bash-language-server", ["start"]),
    "yaml": ("bin/yaml-language-server", ["--stdio"]),
    "json": ("bin/vscode-json-language-server", ["--stdio"]),
    "html": ("bin/vscode-html-language-server", ["--stdio"]),
    "css": ("bin/vscode-css-language-server", ["--stdio"]),
    "php": ("bin/intelephense", ["--stdio"]),
    "dockerfile": ("bin/docker-langserver", ["--stdio"]),
    "vue": ("bin/vue-language-server", ["--stdio"]),
    "svelte": ("bin/svelteserver", ["--stdio"]),
    "fortran": ("bin/fortls", []),
    "cmake": ("bin/cmake-language-server", []),
    "basedpyright": ("bin/basedpyright-langserver", ["--stdio"]),
    "ruff": ("bin/ruff", ["server"]),
    "toml": ("bin/tombi", ["lsp"]),
    "clangd22": ("clangd-22/bin/clangd", []),
}

TIMEOUT = 20.0


def frame(msg):
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Reader:
    def __init__(self, fd):
        self.fd = fd
        self.buf = b""

    def _fill(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([self.fd], [], [], left)[0]:
            raise TimeoutError
        chunk = os.read(self.fd, 65536)
        if not chunk:
            raise EOFError
        self.buf += chunk

    def message(self, deadline):
        while True:
            head_end = self.buf.find(b"\r\n\r\n")
            if head_end >= 0:
                length = None
                for line in self.buf[:head_end].split(b"\r\n"):
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v.strip())
                if length is None:
                    raise ValueError("header without Content-Length: %r" % self.buf[:head_end])
                start = head_end + 4
                if len(self.buf) >= start + length:
                    body = self.buf[start : start + length]
                    self.buf = self.buf[start + length :]
                    return json.loads(body)
            self._fill(deadline)


def check(cmd, workspace):
    """Returns (ok, text)."""
    root = pathlib.Path(workspace).as_uri()
    proc = subprocess.Popen(
        cmd,
        cwd=workspace,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    reader = Reader(proc.stdout.fileno())
    try:
        proc.stdin.write(
            frame(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "processId": os.getpid(),
                        "clientInfo": {"name": "lspseam-smoke"},
                        "rootUri": root,
                        "workspaceFolders": [{"uri": root, "name": "smoke"}],
                        "capabilities": {},
                        "initializationOptions": {},
                    },
                }
            )
        )
        proc.stdin.flush()
        deadline = time.monotonic() + TIMEOUT
        while True:
            msg = reader.message(deadline)
            if msg.get("id") == 1 and "method" not in msg:
                break
            if "id" in msg and "method" in msg:  # a request from the server: answer null
                proc.stdin.write(frame({"jsonrpc": "2.0", "id": msg["id"], "result": None}))
                proc.stdin.flush()
        if "error" in msg:
            return False, "initialize error: %s" % json.dumps(msg["error"])[:200]
        result = msg.get("result") or {}
        caps = result.get("capabilities")
        if not isinstance(caps, dict) or not caps:
            return False, "no capabilities in the initialize response"
        info = result.get("serverInfo")
        if info:
            version = str(info.get("version", "(no version)"))
            if version.startswith("{"):  # gopls: its build info as JSON
                try:
                    version = json.loads(version).get("Version") or version
                except ValueError:
                    pass
            if len(version) > 80:
                version = version[:77] + "..."
            who = "serverInfo %r %s" % (info.get("name"), version)
        else:
            who = "(no serverInfo)"
        try:
            proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
            proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None}))
            proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
            proc.stdin.flush()
        except OSError:
            pass
        return True, "%s, %d capabilities" % (who, len(caps))
    except TimeoutError:
        return False, "no initialize response within %.0f s" % TIMEOUT
    except EOFError:
        return False, "exited (status %s) before answering initialize" % proc.wait()
    except Exception as e:  # noqa: BLE001 - report whatever went wrong
        return False, "%s: %s" % (type(e).__name__, e)
    finally:
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv):
    names = argv or list(SERVERS)
    bad = [n for n in names if n not in SERVERS]
    if bad:
        print("smoke: unknown server(s) %s (use %s)" % (" ".join(bad), " ".join(SERVERS)), file=sys.stderr)
        return 2
    failed = 0
    for name in names:
        rel, args = SERVERS[name]
        path = TOOLS / rel
        if not os.access(path, os.X_OK):
            print("%-13s %-32s not installed" % (name, rel))
            continue
        with tempfile.TemporaryDirectory(prefix="lspseam-smoke-") as ws:
            started = time.monotonic()
            ok, text = check([str(path)] + args, ws)
            took = time.monotonic() - started
        print("%-13s %-32s %s %s (%.1f s)" % (name, rel, "ok  " if ok else "FAIL", text, took))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
