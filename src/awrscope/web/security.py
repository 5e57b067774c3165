"""What keeps the web app to its own users: allowed host names, cross-site request checks, the token's
throttle, safe download headers. Pure functions and small classes; the app wires them in (app.py)."""
from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote, urlsplit

#: Headers on every response, the 413 written by BodyLimit included (CSP is added per request: it holds a nonce)
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}

#: Host names served when no other is configured: a DNS-rebinding page names its own host, not these
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})

#: A token shorter than this is refused at start: it could be guessed
MIN_TOKEN_LENGTH = 16

#: Wrong tokens tolerated from one client within the window; past that, every request from it that needs the
#: token is answered 429 until the window has passed (right guesses too: otherwise the limit would not slow a search)
AUTH_FAILURES_ALLOWED, AUTH_WINDOW_S = 10, 30.0

SESSION_COOKIE, CSRF_FIELD = "awrscope_session", "csrf"


class AuthThrottle:
    """Failed authentications per client address, in a sliding window."""

    def __init__(self, allowed: int = AUTH_FAILURES_ALLOWED, window_s: float = AUTH_WINDOW_S):
        self.allowed, self.window_s = allowed, window_s
        self.failures: dict[str, list[float]] = {}

    def _recent(self, client: str, now: float) -> list[float]:
        times = [t for t in self.failures.get(client, ()) if now - t < self.window_s]
        if times:
            self.failures[client] = times
        else:
            self.failures.pop(client, None)
        return times

    def retry_after(self, client: str) -> int:
        """Seconds until this client may try again (0: now)."""
        now = time.monotonic()
        times = self._recent(client, now)
        return int(times[0] + self.window_s - now) + 1 if len(times) >= self.allowed else 0

    def failed(self, client: str) -> None:
        now = time.monotonic()
        self._recent(client, now)
        self.failures.setdefault(client, []).append(now)
        if len(self.failures) > 10_000:  # many addresses: forget the oldest rather than grow without bound
            self.failures.pop(next(iter(self.failures)))


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
