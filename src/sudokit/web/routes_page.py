"""The routes of pages: the play page and its assets, and the API's docs page (made from the
OpenAPI schema, no scripts from elsewhere). None of them is in the schema."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from . import page
from .refusals import error

__all__ = ["PAGE_POLICY", "docs_page", "add_routes"]

PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


async def play_page() -> HTMLResponse:
    return HTMLResponse(
        page.served_page(),
        headers={"Content-Security-Policy": PAGE_POLICY, "Cache-Control": "no-cache"},
    )


async def asset(name: str) -> Response:
    if name not in page.ASSETS:
        return error(404, f"no such file {name!r:.40}")
    return Response(
        page.asset(name), media_type=page.ASSETS[name], headers={"Cache-Control": "no-cache"}
    )


async def docs(request: Request) -> HTMLResponse:
    return docs_page(request.app.openapi())


def docs_page(schema: dict[str, Any]) -> HTMLResponse:
    """The API's docs: every path, its parameters and body, from the OpenAPI schema, as one
    self-contained page (no scripts from elsewhere)."""
    from html import escape

    def text(s: str) -> str:
        """``s`` escaped, with its `inline code` as code."""
        pieces = escape(s).split("`")
        if len(pieces) % 2 == 0:  # an odd backtick: no code
            return escape(s)
        return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(pieces))

    parts = [
        "<!doctype html><meta charset='utf-8'><title>sudokit API</title>",
        "<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
        "padding:0 1rem}code,pre{background:#f4f4f8;padding:0 .2em}h2{margin-top:2rem}"
        ".m{font-weight:bold;color:#4f46e5}</style>",
        f"<h1>{escape(schema['info']['title'])}</h1>",
        f"<p>{text(schema['info'].get('description', ''))}</p>",
        "<p>Machine-readable: <a href='/api/v1/openapi.json'>/api/v1/openapi.json</a> "
        "(OpenAPI 3.1).</p>",
    ]
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            parts.append(
                f"<h2><span class='m'>{method.upper()}</span> <code>{escape(path)}</code></h2>"
            )
            parts.append(f"<p>{text(op.get('description') or op.get('summary') or '')}</p>")
            params = op.get("parameters", [])
            if params:
                parts.append("<ul>")
                for p in params:
                    desc = p.get("description") or p.get("schema", {}).get("description", "")
                    parts.append(
                        f"<li><code>{escape(p['name'])}</code> ({escape(p['in'])}): "
                        f"{text(desc)}</li>"
                    )
                parts.append("</ul>")
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                ref = body["schema"].get("$ref", "").rsplit("/", 1)[-1]
                model = schema["components"]["schemas"].get(ref, {})
                parts.append(f"<p>JSON body <code>{escape(ref)}</code>:</p><ul>")
                for name, prop in model.get("properties", {}).items():
                    desc = prop.get("description", "")
                    parts.append(f"<li><code>{escape(name)}</code>: {text(desc)}</li>")
                parts.append("</ul>")
    return HTMLResponse("\n".join(parts))


def add_routes(app: FastAPI) -> None:
    """Serve these routes on ``app`` (in this order: the schema lists them so)."""
    app.get("/", include_in_schema=False)(play_page)
    app.get("/static/{name}", include_in_schema=False)(asset)
    app.get("/api/v1/docs", include_in_schema=False)(docs)
