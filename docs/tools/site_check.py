"""Load every page of the built site in headless Chromium and fail on what a reader would see.

``make docs-check`` runs it after ``make docs``:

    python docs/tools/site_check.py [--site site] [--out site/_check]

It serves ``site/`` on 127.0.0.1 (a free port, this process only), opens every page with
Playwright driving Debian's ``/usr/bin/chromium`` (never a downloaded browser; flags
``--headless --no-sandbox --disable-gpu --disable-background-networking``) and reports:

* console errors and uncaught page errors;
* requests that fail or answer >= 400 (scripts, styles, images, the search index);
* images that did not render (``naturalWidth == 0``);
* internal links whose page does not exist or whose ``#anchor`` names no element of it.

It saves a screenshot of the landing page (``landing.png``) and of one API reference page
(``reference.png``) under ``--out``, prints one line per page and exits 1 on any problem.
Requests to other hosts are blocked (the site must work offline).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PAGE_TIMEOUT_MS = 30_000


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # one line per page is printed instead
        pass


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def page_urls(site: Path, base: str) -> list[str]:
    pages = sorted(site.rglob("index.html"))
    return [urljoin(base, str(p.parent.relative_to(site)).replace("\\", "/") + "/" if p.parent != site else "") for p in pages]


def check(site: Path, out: Path) -> int:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} not found: apt-get install chromium (make docs-check does it as root)", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    server, base = serve(site)
    problems: list[str] = []
    ids: dict[str, set[str]] = {}
    links: list[tuple[str, str]] = []  # (page, absolute href)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            # the site must not need the network: anything not on our server is refused
            context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base) else route.abort())
            urls = page_urls(site, base)
            for url in urls:
                page = context.new_page()
                found: list[str] = []
                page.on("console", lambda m, found=found: found.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
                page.on("pageerror", lambda e, found=found: found.append(f"page error: {e}"))
                page.on("requestfailed", lambda r, found=found: found.append(f"request failed: {r.url} ({r.failure})"))
                page.on("response", lambda r, found=found: found.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
                page.goto(url, wait_until="networkidle", timeout=PAGE_TIMEOUT_MS)
                broken = page.eval_on_selector_all(
                    "img", "els => els.filter(e => !(e.complete && e.naturalWidth > 0)).map(e => e.getAttribute('src'))")
                found += [f"image not rendered: {src}" for src in broken]
                ids[urldefrag(url)[0]] = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
                for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
                    if href.startswith(base):
                        links.append((url, href))
                if url == base:
                    page.screenshot(path=str(out / "landing.png"), full_page=False)
                if url == urljoin(base, "reference/engines/"):
                    # the first function's guarantee label in view
                    page.locator(".exactdp-guarantee").first.scroll_into_view_if_needed()
                    page.wait_for_timeout(600)  # the header's title animates on scroll
                    page.screenshot(path=str(out / "reference.png"), full_page=False)
                page.close()
                print(f"{'ok ' if not found else 'BAD'} {url[len(base) - 1:]}" + "".join(f"\n    {f}" for f in found))
                problems += [f"{url}: {f}" for f in found]
            browser.close()
        # links, after every page is known (a link to a page not yet visited is common)
        for page_url, href in links:
            target, anchor = urldefrag(href)
            path = urlparse(target).path
            if target not in ids:
                file = site / path.lstrip("/")
                if not (file.is_file() or (file / "index.html").is_file()):
                    problems.append(f"{page_url}: broken link {href}")
                continue
            if anchor and anchor not in ids[target]:
                problems.append(f"{page_url}: link {href}: no element with id {anchor!r}")
    finally:
        server.shutdown()
    n_links = len(links)
    for p in problems:
        print("PROBLEM", p)
    print(f"{len(ids)} pages, {n_links} internal links checked; {len(problems)} problems; screenshots in {out}")
    return 1 if problems else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default="site", help="the built site (default: site)")
    ap.add_argument("--out", default="site/_check", help="where the screenshots go (default: site/_check)")
    args = ap.parse_args(argv)
    site = Path(args.site)
    if not (site / "index.html").is_file():
        print(f"{site}/index.html not found: run `make docs` first", file=sys.stderr)
        return 2
    return check(site, Path(args.out))


if __name__ == "__main__":
    sys.exit(main())
