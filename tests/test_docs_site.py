"""The documentation site opens from disk as well as from a server: `make docs` (which
`make test` runs before the pytest suites) builds each page as a file, and every link inside
the site names a file that is there, and an anchor that its page has. A link to a folder
(`page/`, as directory URLs make) shows a folder listing when opened from disk."""

from __future__ import annotations

import json
import os
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from helpers.support import REPO

SITE = REPO / "site"

# `make test` builds the site before these tests, so CI never skips them; a bare pytest run
# without a site does.
pytestmark = pytest.mark.skipif(
    not (SITE / "index.html").is_file() and not os.environ.get("CI"), reason="no site/: `make docs` builds it"
)


class Page(HTMLParser):
    """A page's links (href and src) and the ids it has."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.feed(path.read_text())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is not None and (name == "id" or (tag == "a" and name == "name")):
                self.ids.add(value)
            if value is not None and name in ("href", "src"):
                self.links.append(value)


@cache
def parse(path: Path) -> Page:
    return Page(path)


def pages() -> list[Path]:
    """The site's own pages (the Scaladoc, copied in whole, has its own links), without the
    404 page, whose links start at the server's root."""
    return sorted(path for path in SITE.glob("*.html") if path.name != "404.html")


def nav_files() -> list[str]:
    """The Markdown files that mkdocs.yml's navigation lists (`  - Title: file.md`)."""
    nav = (REPO / "mkdocs.yml").read_text().partition("\nnav:\n")[2]
    files = re.findall(r"^  - [^:\n]+: (\S+\.md)$", nav, re.M)
    assert files, "mkdocs.yml lists no page"
    return files


def target(page: Path, link: str) -> tuple[Path, str] | None:
    """The file and the anchor that a link inside the site opens, or None for a link out of it."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        return None
    path = (page.parent / unquote(parts.path)).resolve() if parts.path else page
    return path, unquote(parts.fragment)


def test_every_page_of_the_navigation_is_a_file() -> None:
    for file in nav_files():
        assert (SITE / file.removesuffix(".md")).with_suffix(".html").is_file(), file


@pytest.mark.parametrize("page", pages(), ids=lambda path: path.name)
def test_each_link_inside_a_page_opens_a_file_and_its_anchor(page: Path) -> None:
    for link in parse(page).links:
        opened = target(page, link)
        if opened is None:
            continue
        path, anchor = opened
        assert path.is_relative_to(SITE), f"{link} leaves site/"
        assert path.is_file(), f"{link} opens no file ({'a folder' if path.is_dir() else 'nothing'})"
        if anchor and path.suffix == ".html" and path.parent == SITE:
            assert anchor in parse(path).ids, f"{link}: {path.name} has no #{anchor}"


def test_each_search_result_opens_a_page_file() -> None:
    index = json.loads((SITE / "search" / "search_index.json").read_text())
    for doc in index["docs"]:
        location = doc["location"].partition("#")[0]
        assert (SITE / (location or "index.html")).is_file(), doc["location"]
