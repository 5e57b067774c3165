"""What keeps slow or numerous clients from holding the server, below the app (uvicorn's h11 protocol).

uvicorn bounds an idle keep-alive connection (``timeout_keep_alive``) but nothing else: a connection that
sends half a request line, a header every few seconds (slowloris), or a Content-Length longer than its body,
is held for good, and each holds a file descriptor until ``accept`` fails for everyone. Authentication
cannot help: the token is in the headers those clients never finish. So each connection here has

- a deadline for its request headers, counted from the connection (or the previous response): a dribble of
  header lines does not extend it;
- a longest pause while its body arrives, and while it leaves a response unread (only while the server
  is waiting for it: a paused read, because the app is busy, is not the client's fault);
- a place under two caps: connections in all (kept below the process's file descriptor limit) and
  connections from one address (so one client cannot take every place; a trusted proxy is exempt, it
  carries everyone).

- a total deadline for each request: its headers within the timeout, its whole body within twice the timeout
  plus what its size takes at MIN_BODY_RATE (a byte every 10 s, each pause short of the limit, held a place for
  good);
- at the server's cap, the place of the slowest incomplete request (headers or body still arriving, or an
  idle keep-alive connection) goes to the new connection: clients that dribble
  from many addresses cannot keep a prompt one out (300 such connections from 10 addresses failed 47 % and
  83 % of health probes).

A connection past a cap is answered 503 at once and closed; one past a deadline, or evicted, gets a 408 if
nothing of a response was sent yet, and is closed.
"""
from __future__ import annotations

import asyncio
from msgspec import Struct, field
from typing import Callable

#: File descriptors kept out of the connection budget: the store, worker pipes, the forkserver, logs
FD_RESERVE = 64
#: Connections asyncio accepts in one go (it is also the listen backlog): all are open before the first is
#: refused, so a burst needs this many descriptors beyond the cap, up to three bursts in flight
ACCEPT_BATCH = 128
#: Slowest average rate, bytes per second, a request body may arrive at (beyond twice --client-timeout)
MIN_BODY_RATE = 32 * 1024
#: An incomplete request younger than this is never evicted (0: any; only the address holding the most loses one)
EVICT_AFTER_S = 0.0


class ConnectionLimits(Struct):
    client_timeout_s: float = 20.0
    max_connections: int = 256
    per_peer: int = 32
    trusted: Callable[[str], bool] = field(default=lambda host: False)

    def effective_max(self) -> int:
        """max_connections, lowered to what the process may open: past its descriptor limit, accept() fails
        and the event loop stops accepting anyone for a while."""
        try:
            import resource

            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        except (ImportError, ValueError, OSError):
            return self.max_connections
        if soft == resource.RLIM_INFINITY:
            return self.max_connections
        return max(8, min(self.max_connections, soft - FD_RESERVE - 3 * ACCEPT_BATCH))


def _raw_response(status: str, message: str, extra: str = "") -> bytes:
    body = (message + "\n").encode()
    return (f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n{extra}\r\n").encode() + body


def guarded_protocol(limits: ConnectionLimits) -> type:
    """uvicorn's h11 protocol class with the deadlines and caps of ``limits`` (one set per server)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    cap = limits.effective_max()
    timeout = limits.client_timeout_s
    tick = max(0.05, min(1.0, timeout / 4))
    by_peer: dict[str, int] = {}
    counted = [0]
    live: set = set()  # the counted connections, for the eviction at the cap

    class GuardedH11Protocol(H11Protocol):
        _refused = False
        _counted = False
        _watcher: asyncio.TimerHandle | None = None
        _write_stalled_at: float | None = None
        _phase_bytes = 0
        _phase_start = 0.0

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            peer = self.client[0] if self.client else ""
            self._peer = peer
            if by_peer.get(peer, 0) >= limits.per_peer and not limits.trusted(peer):
                return self._refuse("too many open connections from your address; retry in a few seconds")
            if counted[0] >= cap and not self._evict_slowest(peer):
                return self._refuse("the server has too many open connections; retry in a few seconds")
            self._counted = True
            counted[0] += 1
            live.add(self)
            by_peer[peer] = by_peer.get(peer, 0) + 1
            self._phase_start = self._last_read = self.loop.time()
            self._phase_bytes = 0
            self._watcher = self.loop.call_later(tick, self._watch)

        def _incomplete_since(self) -> float | None:
            """When this connection's request began to arrive (or it went idle), when it is one a new connection
            may take the place of: waiting for headers or a body, with no response being written."""
            if self.transport.is_closing() or self._write_stalled_at is not None:
                return None
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete and self.conn.their_state is not h11.SEND_BODY:
                return None  # the app is answering it
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                return None
            return self._phase_start

        def _evict_slowest(self, peer: str) -> bool:
            """Free a place for this connection, when its address holds less than its share of the cap: the
            longest-incomplete request of the address holding the most. True when one was freed. (An address
            at its share is refused: its reconnections would otherwise evict each other without end.)"""
            holders = len(by_peer) + (0 if peer in by_peer else 1)
            if by_peer.get(peer, 0) >= max(1, cap // holders):
                return False
            most = max(by_peer.values(), default=0)
            now = self.loop.time()
            victim, oldest = None, now - EVICT_AFTER_S
            for other in live:
                if by_peer.get(other._peer, 0) < most:
                    continue
                since = other._incomplete_since()
                if since is not None and since <= oldest:
                    victim, oldest = other, since
            if victim is None:
                return False
            victim._release()
            victim.connections.discard(victim)
            victim._drop("the server is full and this request was the slowest to arrive; retry")
            return True

        def _release(self) -> None:
            if self._counted:
                self._counted = False
                live.discard(self)
                counted[0] -= 1
                left = by_peer.get(self._peer, 1) - 1
                if left > 0:
                    by_peer[self._peer] = left
                else:
                    by_peer.pop(self._peer, None)

        def _refuse(self, message: str) -> None:
            self._refused = True
            # not a connection uvicorn should count: its limit_concurrency would answer 503 to the next
            # legitimate request while a burst of refused ones is still closing
            self.connections.discard(self)
            self.transport.write(_raw_response("503 Service Unavailable", message, "retry-after: 5\r\n"))
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            self._last_read = self.loop.time()
            self._phase_bytes += len(data)
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # the next request's headers have their own deadline, from now
            self._phase_start = self._last_read = self.loop.time()
            self._phase_bytes = 0

        def pause_writing(self) -> None:
            self._write_stalled_at = self.loop.time()
            super().pause_writing()

        def resume_writing(self) -> None:
            self._write_stalled_at = None
            super().resume_writing()

        def connection_lost(self, exc) -> None:
            if self._watcher is not None:
                self._watcher.cancel()
                self._watcher = None
            self._release()
            super().connection_lost(exc)

        def _watch(self) -> None:
            self._watcher = None
            if self.transport.is_closing():
                return
            now = self.loop.time()
            theirs = self.conn.their_state
            if self._write_stalled_at is not None and now - self._write_stalled_at > timeout:
                self.transport.abort()  # a reader that stopped reading: closing would wait on its buffer
                return
            if theirs is h11.IDLE and now - self._phase_start > timeout:
                return self._drop("the request headers did not arrive in time")
            if theirs is h11.SEND_BODY and not self.flow.read_paused:
                if now - self._last_read > timeout:
                    return self._drop("the request body stopped arriving")
                if now - self._phase_start > 2 * timeout + self._phase_bytes / MIN_BODY_RATE:
                    return self._drop("the request is arriving too slowly")
            self._watcher = self.loop.call_later(tick, self._watch)

        def _drop(self, message: str) -> None:
            cycle = self.cycle
            started = cycle is not None and cycle.response_started
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True  # the app's later writes go nowhere, after our 408
            if not started:
                self.transport.write(_raw_response("408 Request Timeout", message))
            self.transport.close()

    GuardedH11Protocol.cap = cap
    return GuardedH11Protocol


def run(app, host: str, port: int, limits: ConnectionLimits, ssl_keyfile: str | None = None,
        ssl_certfile: str | None = None) -> None:
    import uvicorn

    protocol = guarded_protocol(limits)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", server_header=False,
        # X-Forwarded-For is read by the app, from --trusted-proxy only: uvicorn's default trusts it from
        # 127.0.0.1, which is any local client, and would let one rename itself past the token throttle
        proxy_headers=False,
        http=protocol, timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024,
        # requests in progress at once: past this one is answered 503 rather than queued without bound. Twice
        # the connection cap: a request evicted at the cap ends a moment after the connection that took its
        # place starts its own (at cap + 1 that new request was answered 503)
        limit_concurrency=2 * protocol.cap + 1,
        backlog=ACCEPT_BATCH, ssl_keyfile=ssl_keyfile, ssl_certfile=ssl_certfile)
    uvicorn.Server(config).run()
