"""Write the book's index page: the notebooks in reading order, one line each.

Usage: python tools/build_index.py NOTEBOOK_DIR OUTPUT_HTML

Each notebook's first markdown cell must begin with a level-1 heading (the
title) followed by a one-paragraph summary; both are taken from there.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import nbformat


def plain(text: str) -> str:
    """Markdown and inline TeX to plain text for the index page: $F_{tp,fp}$ -> F_tp,fp, *a* -> a."""
    text = re.sub(r"\\tilde\s*F", "F̃", text)
    text = re.sub(r"[$*{}]", "", text)
    return text


def title_and_summary(path: Path) -> tuple[str, str]:
    nb = nbformat.read(path, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "markdown")
    lines = first.source.strip().splitlines()
    if not lines or not lines[0].startswith("# "):
        raise SystemExit(f"{path.name}: the first markdown cell must start with '# Title'")
    title = lines[0][2:].strip()
    paragraph = []
    for line in lines[1:]:
        if line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            break
    return plain(title), plain(" ".join(paragraph))


def main(nb_dir: str, out: str) -> None:
    notebooks = sorted(Path(nb_dir).glob("[0-9][0-9]_*.ipynb"))
    if not notebooks:
        raise SystemExit(f"no notebooks found in {nb_dir}")
    items = []
    for path in notebooks:
        title, summary = title_and_summary(path)
        href = html.escape(path.with_suffix(".html").name)
        items.append(f'<li><a href="{href}">{html.escape(title)}</a><br><span>{html.escape(summary)}</span></li>')
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>apples: measuring classifiers under cross-validation</title>
<style>body{{font-family:sans-serif;max-width:46em;margin:2em auto;line-height:1.5}}li{{margin-bottom:1em}}span{{color:#444}}</style>
</head><body>
<h1>apples</h1>
<p>Measuring classifiers under cross-validation, apples to apples. Read the notebooks in this order.</p>
<ol>
{chr(10).join(items)}
</ol>
</body></html>
"""
    Path(out).write_text(page, encoding="utf-8")
    print(f"wrote {out} ({len(notebooks)} notebooks)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
