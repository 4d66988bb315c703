"""The local web app (``yipan serve``): play every game in the browser and watch the AI think.

``create_app()`` builds the FastAPI app (FastAPI and uvicorn come with the ``web`` extra).
The modules below it know nothing of the web: ``positions`` (moves to boards), ``engines``
(which searches run and how), ``workers`` (searches in their own processes).
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def create_app(**settings: Any) -> Any:
    """The app (imported here lazily, so that importing ``yipan.web`` needs no FastAPI)."""
    from .app import create_app as build

    return build(**settings)
