"""MkDocs hook: the command-line reference page is written from yipan's own parsers at build
time (``yipan.cli.reference``), so it cannot drift from the code. A page asks for it with the
line ``<!-- yipan-cli-reference -->``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

MARKER = "<!-- yipan-cli-reference -->"
SRC = Path(__file__).resolve().parents[2] / "src"  # this checkout's yipan, not an installed one


def on_page_markdown(markdown: str, **_: Any) -> str:
    if MARKER not in markdown:
        return markdown
    if str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    from yipan.cli.reference import markdown as reference

    return markdown.replace(MARKER, reference())
