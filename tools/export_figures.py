"""Write every figure of the notebooks as an SVG file for slides (``make figures``).

Each notebook is executed afresh (a copy, under ``OUTPUT_DIR/_run``; the committed notebooks are not touched) with
one cell added after its first code cell: it wraps ``plt.show()``, which every plot cell ends with (a tested rule
of the notebooks), so that every figure shown is also saved as SVG, vector graphics that stay sharp at any slide
size, at 16:9 proportions when the figure is a single panel (panels side by side keep their width). The files are
named ``NN-k.svg`` (notebook, k-th figure) and ``OUTPUT_DIR/index.md`` lists each file with its title (the figure's
own: the paper figure it reproduces) and the cell that draws it. Explorers' snapshots are not figures the notebook
shows, so they are skipped.

Usage: python tools/export_figures.py OUTPUT_DIR NOTEBOOK [NOTEBOOK ...]
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HOOK = """\
# added by tools/export_figures.py: every figure shown is also saved as SVG for slides
import json as _json
import pathlib as _pathlib

import matplotlib.figure as _mfig

_apples_out = _pathlib.Path({out!r})
_apples_count = [0]


def _apples_save(fig):
    _apples_count[0] += 1
    name = f"{number}-{{_apples_count[0]}}.svg"
    titles = [fig.get_suptitle()] + [ax.get_title() for ax in fig.axes]
    title = next((t for t in titles if t), "(untitled)")
    width, height = fig.get_size_inches()
    if len(fig.axes) == 1:  # one panel: slide proportions (16:9), the fonts keep their size
        fig.set_size_inches(max(width, 16 / 9 * height), height)
    fig.savefig(_apples_out / name, format="svg", bbox_inches="tight")
    fig.set_size_inches(width, height)
    with open(_apples_out / "figures.jsonl", "a", encoding="utf-8") as f:
        f.write(_json.dumps({{"file": name, "title": title, "cell": get_ipython().execution_count}}) + "\\n")


import matplotlib.pyplot as _apples_plt

_apples_pyplot_show = _apples_plt.show


def _apples_show(*args, **kwargs):
    for number in _apples_plt.get_fignums():
        _apples_save(_apples_plt.figure(number))
    return _apples_pyplot_show(*args, **kwargs)


_apples_plt.show = _apples_show
"""


def export(path: Path, out: Path) -> int:
    """Execute a copy of ``path`` and save its figures into ``out``; return how many it saved."""
    book = nbformat.read(path, as_version=4)
    run = out / "_run"
    run.mkdir(parents=True, exist_ok=True)
    first = next(i for i, c in enumerate(book.cells) if c.cell_type == "code")
    book.cells.insert(first + 1, nbformat.v4.new_code_cell(HOOK.format(out=str(out.resolve()), number=path.name[:2])))
    before = _count(out)
    NotebookClient(book, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(run)}}).execute()
    return _count(out) - before


def _count(out: Path) -> int:
    index = out / "figures.jsonl"
    return len(index.read_text(encoding="utf-8").splitlines()) if index.exists() else 0


def write_index(out: Path, sources: dict[str, str]) -> None:
    """``index.md``: each SVG with its title and the notebook cell that draws it."""
    rows = ["# Figures for slides", "", "| File | Title | Notebook, cell |", "|---|---|---|"]
    for line in (out / "figures.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        title = entry["title"].replace("\n", " ").replace("|", "\\|")
        # IPython's counter already names the next cell while one runs, and counts the added hook cell: the
        # notebook's own In [n] is two less
        rows.append(f"| {entry['file']} | {title} | {sources[entry['file'][:2]]}, In [{entry['cell'] - 2}] |")
    (out / "index.md").write_text("\n".join(rows) + "\n", encoding="utf-8")


def main(output: str, *paths: str) -> None:
    out = Path(output)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    sources = {}
    for p in map(Path, paths):
        sources[p.name[:2]] = p.name
        print(f"{p}: {export(p, out)} figures", flush=True)
    write_index(out, sources)
    shutil.rmtree(out / "_run")
    print(f"wrote {_count(out)} SVG files and {out / 'index.md'}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], *sys.argv[2:])
