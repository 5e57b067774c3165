"""The stdin side of the stdio transport, bounded and answering what the SDK would drop.

The SDK's stdio transport reads stdin a whole line at a time, however long (a 100 MB line is held whole,
then validated), and a line that is not JSON-RPC is logged and dropped: the client waits forever for a reply.
Here stdin is read in chunks with a cap on one message; every line that cannot be a message gets the
JSON-RPC 2.0 error a client can match: -32700 for what is not JSON, -32600 for JSON that is not a request
(with the request's id when it has a usable one, else null), -32600 for a line over the cap, whose bytes are
discarded as they come, never kept. Only lines that are valid messages reach the SDK.
"""
from __future__ import annotations

import json
import os
from contextlib import suppress
from typing import Any

import anyio
import anyio.to_thread

#: The longest message read from the client: tool arguments are paths and filters, a few KiB at most
MAX_MESSAGE_BYTES = 1 << 20
_CHUNK = 1 << 16
#: Seconds the end of stdin waits for the replies still owed (a tool call running when the client closed)
DRAIN_S = 600.0

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


class BoundedLines:
    """The async iterable of text lines ``stdio_server(stdin=...)`` reads, over a raw descriptor.

    ``reply`` (set once the transport's write stream exists) sends an error response; until then errors wait
    for it, so one sent before the server is up is still answered."""

    def __init__(self, fd: int, max_bytes: int = MAX_MESSAGE_BYTES, drain_s: float = DRAIN_S):
        self.fd = fd
        self.max_bytes = max_bytes
        self.drain_s = drain_s
        self._ready = anyio.Event()
        self._send = None
        # requests read and not yet answered: at the end of stdin the SDK would stop the server at once and drop
        # their replies (initialize + tools/list piped in: tools/list unanswered 6 runs in 10); the end is held
        # back until each is answered (or cancelled by the client, or DRAIN_S has passed)
        self.pending: set[tuple[str, Any]] = set()

    @staticmethod
    def _key(rid: Any) -> tuple[str, Any]:
        return (type(rid).__name__, rid)

    def answered(self, rid: Any) -> None:
        self.pending.discard(self._key(rid))

    def wrap(self, write_stream: Any) -> "AnsweringStream":
        """``write_stream`` noting each response sent, for :meth:`answered`."""
        return AnsweringStream(write_stream, self)

    def attach(self, write_stream: Any) -> None:
        self._send = write_stream
        self._ready.set()

    async def _error(self, code: int, message: str, rid: Any = None) -> None:
        from mcp.shared.message import SessionMessage
        from mcp_types import ErrorData, JSONRPCError

        await self._ready.wait()
        with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await self._send.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=rid,
                                                              error=ErrorData(code=code, message=message))))

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        buf = bytearray()
        discarding = False  # inside a line already refused as too long: its bytes are dropped until its end
        while True:
            chunk = await anyio.to_thread.run_sync(os.read, self.fd, _CHUNK, abandon_on_cancel=True)
            if not chunk:
                break
            start = 0
            while True:
                nl = chunk.find(b"\n", start)
                piece = chunk[start:] if nl < 0 else chunk[start:nl]
                if not discarding:
                    if len(buf) + len(piece) > self.max_bytes:
                        buf.clear()
                        discarding = True
                        await self._error(INVALID_REQUEST, f"Invalid Request: a message of more than "
                                                           f"{self.max_bytes:,} bytes, not read")
                    else:
                        buf += piece
                if nl < 0:
                    break
                start = nl + 1
                if discarding:
                    discarding = False
                    continue
                line = bytes(buf)
                buf.clear()
                checked = await self._checked(line)
                if checked is not None:
                    yield checked
        if buf and not discarding:  # a last message without its newline
            checked = await self._checked(bytes(buf))
            if checked is not None:
                yield checked
        with anyio.move_on_after(self.drain_s):  # every request read is answered before the end is told
            while self.pending:
                await anyio.sleep(0.02)

    async def _checked(self, line: bytes) -> str | None:
        """The line as text when it is a JSON-RPC message, else None once the client has its error."""
        from mcp_types import jsonrpc_message_adapter

        line = line.strip()
        if not line:
            return None  # a blank line between messages is no message
        try:
            obj = json.loads(line)
        except (UnicodeDecodeError, ValueError) as e:
            where = f" at character {e.pos}" if isinstance(e, json.JSONDecodeError) else ""
            await self._error(PARSE_ERROR, f"Parse error: not JSON{where}")
            return None
        except RecursionError:
            await self._error(PARSE_ERROR, "Parse error: nested too deeply")
            return None
        if isinstance(obj, list):
            await self._error(INVALID_REQUEST, "Invalid Request: batches are not supported (send one message "
                                               "per line)")
            return None
        if not isinstance(obj, dict):
            await self._error(INVALID_REQUEST, "Invalid Request: a message is a JSON object")
            return None
        rid = obj.get("id")
        usable = isinstance(rid, (str, int)) and not isinstance(rid, bool)
        try:
            if "method" in obj and "id" in obj and not usable:
                # the models would take it for a notification with an extra field, and nothing would answer
                raise ValueError("a request's id is a string or an integer")
            jsonrpc_message_adapter.validate_python(obj, by_name=False)
        except Exception:  # noqa: BLE001 - pydantic's message would quote the input back: ours names the fault
            await self._error(INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request, notification or "
                                               "response (jsonrpc \"2.0\", a string method, an id that is a "
                                               "string or an integer)", rid if usable else None)
            return None
        if "method" in obj and usable:
            self.pending.add(self._key(rid))
        elif obj.get("method") == "notifications/cancelled" and isinstance(obj.get("params"), dict):
            self.answered(obj["params"].get("requestId"))  # a cancelled request may never be answered
        return line.decode("utf-8")


class AnsweringStream:
    """The server's write stream, telling :class:`BoundedLines` which requests have their response."""

    def __init__(self, inner: Any, lines: BoundedLines):
        self._inner = inner
        self._lines = lines

    async def send(self, item: Any) -> None:
        await self._inner.send(item)
        msg = getattr(item, "message", None)
        rid = getattr(msg, "id", None)
        if rid is not None and (hasattr(msg, "result") or hasattr(msg, "error")) and not hasattr(msg, "method"):
            self._lines.answered(rid)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def __aenter__(self) -> "AnsweringStream":
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)


def claim_stdin() -> int:
    """A private descriptor on the client's stream; fd 0 then reads /dev/null, so nothing run by a tool (a
    worker process, a library) can take bytes of a message."""
    private = os.dup(0)
    with suppress(OSError):
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    return private
