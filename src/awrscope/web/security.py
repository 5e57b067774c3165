"""What keeps the web app to its own users: allowed host names, cross-site request checks, the token's
throttle, safe download headers. Pure functions and small classes; the app wires them in (app.py)."""
from __future__ import annotations

import hashlib
import ipaddress
import math
import secrets
import time
from collections import OrderedDict
from pathlib import Path
from typing import Iterable
from urllib.parse import quote, urlsplit

#: Headers on every response, the 413 written by BodyLimit included (CSP is added per request: it holds a nonce)
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}

#: Host names served when no other is configured: a DNS-rebinding page names its own host, not these
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})

#: A token shorter than this is refused at start: it could be guessed
MIN_TOKEN_LENGTH = 16

#: Wrong tokens tolerated from one client before it must wait; then each further one doubles the wait, from
#: AUTH_FIRST_WAIT_S up to AUTH_MAX_WAIT_S. While it waits every request from it that needs the token is answered
#: 429, right guesses too (otherwise the wait would not slow a search). Failures are forgotten after AUTH_FORGET_S.
AUTH_FAILURES_ALLOWED, AUTH_FIRST_WAIT_S, AUTH_MAX_WAIT_S, AUTH_FORGET_S = 10, 5.0, 30.0, 600.0

SESSION_COOKIE, CSRF_FIELD = "awrscope_session", "csrf"
#: The login: a random id naming a server-side session, never the token (a stolen cookie expires and can be
#: logged out; the token cannot be read from it)
AUTH_COOKIE, AUTH_TTL_S = "awrscope_auth", 12 * 3600.0


class AuthThrottle:
    """Failed authentications per client address: a wait that grows with each failure past the allowed
    ones and ends by itself. Never a lockout: clients behind the same address that already hold a session
    are not asked for the token, so they do not wait (app.py)."""

    def __init__(self, allowed: int = AUTH_FAILURES_ALLOWED, first_wait_s: float = AUTH_FIRST_WAIT_S,
                 max_wait_s: float = AUTH_MAX_WAIT_S, forget_s: float = AUTH_FORGET_S):
        self.allowed, self.first_wait_s, self.max_wait_s, self.forget_s = allowed, first_wait_s, max_wait_s, forget_s
        self.failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # client -> (count, last failure)

    def _state(self, client: str, now: float) -> tuple[int, float]:
        count, last = self.failures.get(client, (0, 0.0))
        if count and now - last > self.forget_s:
            self.failures.pop(client, None)
            return 0, 0.0
        return count, last

    def retry_after(self, client: str) -> int:
        """Seconds until this client may try again (0: now)."""
        now = time.monotonic()
        count, last = self._state(client, now)
        if count < self.allowed:
            return 0
        wait = min(self.max_wait_s, self.first_wait_s * 2 ** (count - self.allowed))
        left = last + wait - now
        return math.ceil(left) if left > 0 else 0

    def failed(self, client: str) -> None:
        now = time.monotonic()
        count, _ = self._state(client, now)
        self.failures[client] = (count + 1, now)
        self.failures.move_to_end(client)
        if len(self.failures) > 10_000:  # many addresses: forget the oldest rather than grow without bound
            self.failures.popitem(last=False)


class Sessions:
    """Logged-in browsers: random ids, kept here as digests (a memory dump shows no usable cookie), each
    valid for ``ttl_s`` from its login or until logged out. A restart logs everyone out."""

    def __init__(self, ttl_s: float = AUTH_TTL_S, max_sessions: int = 10_000):
        self.ttl_s, self.max_sessions = ttl_s, max_sessions
        self._expiry: OrderedDict[bytes, float] = OrderedDict()

    @staticmethod
    def _key(sid: str) -> bytes:
        return hashlib.sha256(sid.encode()).digest()

    def create(self) -> str:
        now = time.monotonic()
        while self._expiry and next(iter(self._expiry.values())) < now:  # oldest first: expiries are in order
            self._expiry.popitem(last=False)
        if len(self._expiry) >= self.max_sessions:
            self._expiry.popitem(last=False)
        sid = secrets.token_urlsafe(32)
        self._expiry[self._key(sid)] = now + self.ttl_s
        return sid

    def valid(self, sid: str) -> bool:
        if not sid or len(sid) > 100:
            return False
        key = self._key(sid)
        expiry = self._expiry.get(key)
        if expiry is None:
            return False
        if expiry < time.monotonic():
            self._expiry.pop(key, None)
            return False
        return True

    def end(self, sid: str) -> None:
        self._expiry.pop(self._key(sid), None)


class Proxies:
    """The --trusted-proxy addresses (or networks). A request's client is its peer address, unless the peer
    is a trusted proxy: then the last address in X-Forwarded-For that is not itself a trusted proxy (what the
    nearest proxy saw; whatever a client wrote before it is its own claim)."""

    def __init__(self, specs: Iterable[str] = ()):
        self.networks = [ipaddress.ip_network(s.strip(), strict=False) for s in specs if s.strip()]

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusted(self, host: str) -> bool:
        if not self.networks or not host:
            return False
        try:
            addr = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        if getattr(addr, "ipv4_mapped", None):
            addr = addr.ipv4_mapped
        return any(addr in net for net in self.networks)

    def client(self, peer: str, forwarded_for: list[str]) -> str:
        if not self.trusted(peer):
            return peer
        hops = [h.strip() for value in forwarded_for for h in value.split(",") if h.strip()]
        for hop in reversed(hops):
            if not self.trusted(hop):
                return hop[:64]
        return peer

    def scheme(self, peer: str, scheme: str, forwarded_proto: str | None) -> str:
        if forwarded_proto and self.trusted(peer):
            last = forwarded_proto.split(",")[-1].strip().lower()
            if last in ("http", "https"):
                return last
        return scheme


def host_name(host_header: str) -> str:
    """'127.0.0.1:8000' -> '127.0.0.1'; '[::1]:8000' -> '::1'."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1:h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


def content_disposition(stored_name: str) -> str:
    """An attachment header for a stored name ('a.zip:dir/member'): its last part, with an ASCII fallback
    of safe characters and the exact name in RFC 5987 form. A CR, LF or quote from a zip member's name
    must not reach the header (it would end it, or drop the connection)."""
    at = stored_name.lower().find(".zip:")
    member = stored_name[at + 5:] if at >= 0 else stored_name
    name = Path(member.replace("\\", "/")).name or "report"
    ascii_name = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "._-") else "_" for ch in name)[:120]
    return f"attachment; filename=\"{ascii_name or 'report'}\"; filename*=UTF-8''{quote(name[:200], safe='')}"


def cross_site(method: str, headers, host_header: str, path: str = "/") -> str | None:
    """Why a state-changing request looks forged by another site, or None. Browsers send
    Sec-Fetch-Site on every request: only same-origin (or a user-typed navigation) may write.
    Without it (an old browser) a foreign Origin is refused; 'Origin: null' is what a same-origin
    form sends under Referrer-Policy no-referrer, so it is not evidence by itself. Clients sending
    neither (curl, scripts) are not browsers and cannot be made to send a user's cookie by a page. A browser
    from before 2020 that sends neither on a cross-site form POST is stopped on the HTML forms by their token;
    on the API only by the token's SameSite cookie (a team server with --token)."""
    if method in ("GET", "HEAD", "OPTIONS"):
        return None
    site = headers.get("sec-fetch-site")
    if site:
        return None if site in ("same-origin", "none") else f"Sec-Fetch-Site: {site}"
    origin = headers.get("origin")
    if origin == "null" and path.startswith("/api/"):
        # a form on another host posting under no-referrer (Chromium sends no Sec-Fetch-Site to a plain-http
        # LAN name): the API has no form token to stop it, and its own clients send a real Origin or none
        return "Origin: null on an API write"
    if origin and origin != "null" and urlsplit(origin).netloc.lower() != host_header.strip().lower():
        return f"Origin {origin} is not this server"
    return None
