"""A guard in front of the service: pure ASGI middleware that refuses unexpected ``Host``
headers and bodies over the limit before the application sees them."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .state import Settings

__all__ = ["Guard", "send_error"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Guard:
    """Pure ASGI middleware (no BaseHTTPMiddleware: a client that hangs up must not turn
    into a traceback): refuses unexpected ``Host`` headers (403) and bodies over the limit
    (413, told by Content-Length or found while reading), then hands the body, read whole,
    to the application."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        allowed = self.settings.allowed_hosts
        if allowed is not None:
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.lower() not in allowed:
                await send_error(send, 403, f"unexpected Host header {host!r:.60}")
                return
        limit = self.settings.max_body
        length = headers.get("content-length")
        if length is not None:
            if not length.strip().isdecimal():
                await send_error(send, 400, f"bad Content-Length {length!r:.40}")
                return
            if int(length) > limit:
                await send_error(send, 413, f"body too large: {length} bytes, at most {limit}")
                return
        if scope["method"] in ("GET", "HEAD", "DELETE", "OPTIONS") and length is None:
            await self.app(scope, receive, send)
            return
        chunks = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client hung up: nothing to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await send_error(send, 413, f"body too large: over {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def send_error(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
