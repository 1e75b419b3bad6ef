"""End to end in a real browser: JupyterLab runs notebook 01 and the explorers, and the HTML book renders.

Debian's ``chromium`` (``/usr/bin/chromium``, or the path in ``APPLES_CHROMIUM``) is driven through the
Python ``playwright`` package; playwright's own browser download is never used. ``make test`` installs
both when missing (tools/ensure_browser.sh: chromium with apt as root, playwright with pip at its
constraints.txt pin); without either, every test here is skipped with a reason naming what is missing.
Deselect with ``-m "not browser"``.

JupyterLab is started from the virtualenv running the tests (``.venv``) on a free loopback port with a
random token, in a temporary copy of the notebooks (it autosaves; the committed notebooks are never
touched), in a process group of its own that the fixture ends, kernels included, even on failure.
Every wait has an explicit bound; screenshots go to ``build/e2e/``.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import http.server
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SHOTS = ROOT / "build" / "e2e"
CHROMIUM = os.environ.get("APPLES_CHROMIUM", "/usr/bin/chromium")
JUPYTER = Path(sys.executable).with_name("jupyter")  # .venv/bin/jupyter under `make test`

NOTEBOOK_01 = "01_f_measure_under_cv.ipynb"
# notebook -> the explorer it shows; each explorer cell is copied into one small notebook and run there
EXPLORERS = {
    "02_auc_under_cv.ipynb": "fs.calibration_explorer",
    "03_f_measure_bias.ipynb": "fs.sim_explorer",
    "08_incoherence_of_integrated_measures.ipynb": "pk.incoherence_explorer",
}

# bounds (seconds); the whole module takes ~50 s on a busy 2-core machine, plus the book build it shares
LAB_START = 60
NOTEBOOK_OPEN = 60
RUN_ALL = 120
EXPLORER_UPDATE = 30
PAGE = 30

# every test is bounded: 240 s each (the lab ones take ~25 s), the book's 660 s (it may build the book first)
pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


# -- the browser -------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    """Headless Debian chromium through playwright (``--no-sandbox``: CI runs as root)."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(
            f"browser test: no chromium at {CHROMIUM} (Debian: `apt-get install chromium`, which `make "
            "test` runs as root via tools/ensure_browser.sh; or set APPLES_CHROMIUM to a chromium binary)"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser test: the playwright package is not installed (tools/ensure_browser.sh installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True, timeout=60_000)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(PAGE * 1000)
    try:
        yield context.new_page()
    finally:
        context.close()


def _shot(target, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SHOTS / name))


# -- JupyterLab --------------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (the server and its kernels, which run in sessions of their own)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group (the server shuts its kernels down), then SIGKILL what is left."""
    below = _descendants(proc.pid)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while (alive := [p for p in below if Path(f"/proc/{p}").exists()]) and time.monotonic() < deadline:
        time.sleep(0.2)
    for p in alive:  # a kernel the server did not end: its own session, so its own group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(p, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, signal.SIGKILL)


def _source_names(source: str) -> tuple[set[str], set[str]]:
    """(names a cell reads, names it binds), ignoring IPython magics."""
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
    reads, binds = set(), set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            (binds if isinstance(node.ctx, ast.Store) else reads).add(node.id)
        elif isinstance(node, ast.alias):
            binds.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            binds.add(node.name)
    return reads, binds


def _explorer_cells(name: str, call: str) -> list[str]:
    """Notebook ``name``'s first code cell, the explorer cell calling ``call``, and the earlier cells it needs."""
    cells = [c.source for c in nbformat.read(NOTEBOOKS / name, as_version=4).cells if c.cell_type == "code"]
    target = next((i for i, s in enumerate(cells) if f"{call}(" in s), None)
    assert target is not None, f"{name}: no cell calls {call}(...)"
    keep = {0, target}
    todo = [target]
    while todo:
        i = todo.pop()
        bound_before = set().union(*(_source_names(cells[j])[1] for j in keep if j < i))
        reads, binds = _source_names(cells[i])
        for missing in reads - binds - bound_before - set(dir(builtins)):
            source = next((j for j in range(i - 1, 0, -1) if missing in _source_names(cells[j])[1]), None)
            assert source is not None, f"{name}: {missing!r}, used by the explorer cell, is defined nowhere above it"
            if source not in keep:
                keep.add(source)
                todo.append(source)
    return [cells[i] for i in sorted(keep)]


def _explorers_notebook(path: Path) -> list[int]:
    """Write the explorers' notebook; return the index of each explorer cell in it."""
    sources, at = [], []
    for name, call in EXPLORERS.items():
        cells = _explorer_cells(name, call)
        sources += cells
        at.append(len(sources) - 1)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return at


LAB_SETTINGS = {  # no notification asking to fetch news, every cell in the DOM (no virtual scrolling)
    "@jupyterlab/apputils-extension/notification": '{"fetchNews": "false", "checkForUpdates": false}',
    "@jupyterlab/notebook-extension/tracker": '{"windowingMode": "none"}',
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory, browser):
    """JupyterLab on a temporary copy of the notebooks: yields (base URL, token, root dir, explorer cell indices)."""
    if not JUPYTER.exists():
        pytest.skip(f"browser test: no jupyter next to {sys.executable} (run it from .venv: make test)")
    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "notebooks"
    root.mkdir()
    shutil.copy(NOTEBOOKS / NOTEBOOK_01, root)
    explorer_cells = _explorers_notebook(root / "e2e_explorers.ipynb")
    for plugin, text in LAB_SETTINGS.items():
        (tmp / "settings" / plugin).parent.mkdir(parents=True, exist_ok=True)
        (tmp / "settings" / f"{plugin}.jupyterlab-settings").write_text(text)
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTER_DATA_DIR=str(tmp / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        IPYTHONDIR=str(tmp / "ipython"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
    )
    port, token = _free_port(), secrets.token_hex(24)
    cmd = [
        str(JUPYTER),
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
    ]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    log = tmp / "lab.log"
    with log.open("wb") as out:  # `timeout`: the server ends after 10 min even if this process is killed
        proc = subprocess.Popen(
            ["timeout", "-k", "10", "600", *cmd],
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + LAB_START
        while True:
            assert proc.poll() is None, f"JupyterLab exited ({proc.returncode}):\n{log.read_text()[-3000:]}"
            status = f"{base}/api/status?token={token}"
            with contextlib.suppress(OSError), urllib.request.urlopen(status, timeout=2) as r:
                if r.status == 200:
                    break
            assert time.monotonic() < deadline, f"JupyterLab not up after {LAB_START} s:\n{log.read_text()[-3000:]}"
            time.sleep(0.3)
        yield base, token, root, explorer_cells
    finally:
        _stop(proc)


# the open notebook's model (JupyterLab runs with --LabApp.expose_app_in_browser): the execution count of every
# code cell with source, hidden ones (solutions) included, and the error outputs
_COUNTS = """() => [...window.jupyterapp.shell.currentWidget.content.model.cells]
    .filter(c => c.type === 'code' && c.sharedModel.getSource().trim()).map(c => c.executionCount)"""
_ERRORS = """() => [...window.jupyterapp.shell.currentWidget.content.model.cells]
    .flatMap(c => c.type === 'code' ? c.outputs.toJSON() : []).filter(o => o.output_type === 'error')
    .map(o => `${o.ename}: ${o.evalue}`)"""


def _open_and_run_all(page, base: str, token: str, root: Path, name: str):
    """Open ``name`` in JupyterLab, Run > Run All Cells, wait until every code cell has run; return the panel."""
    cells = nbformat.read(root / name, as_version=4).cells
    n_code = sum(1 for c in cells if c.cell_type == "code" and c.source.strip())
    # reset: a fresh workspace, not the tabs an earlier page left open
    page.goto(f"{base}/lab/tree/{name}?token={token}&reset", timeout=NOTEBOOK_OPEN * 1000)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    # a click in the first cell's prompt area: the notebook is the current widget, which Run All acts on
    panel.locator(".jp-Cell .jp-InputPrompt").first.click()
    page.wait_for_function(  # ... its cells are all loaded and its kernel is up and idle
        f"""() => {{
            try {{
                const w = window.jupyterapp.shell.currentWidget, kernel = w.sessionContext.session.kernel;
                return w.context.path === {name!r} && kernel.connectionStatus === 'connected'
                    && kernel.status === 'idle' && ({_COUNTS})().length === {n_code};
            }} catch (e) {{
                return false;  // not there yet
            }}
        }}""",
        timeout=NOTEBOOK_OPEN * 1000,
        polling=250,
    )
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()
    # a fresh kernel numbers the cells 1, 2, ..., n in order: done when the model holds exactly that
    try:
        page.wait_for_function(
            f"""() => ({_COUNTS})().every((c, i) => c === i + 1)
                && !document.querySelector('.jp-Notebook-ExecutionIndicator[data-status="busy"]')""",
            timeout=RUN_ALL * 1000,
            polling=250,
        )
    except Exception:
        _shot(page, f"lab_{name[:-6]}_FAILED.png")
        raise AssertionError(
            f"{name}: not every cell ran within {RUN_ALL} s; execution counts "
            f"{page.evaluate(_COUNTS)}, errors {page.evaluate(_ERRORS)}"
        ) from None
    assert page.evaluate(_ERRORS) == [], f"{name}: a cell raised"
    tracebacks = panel.locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]', has_text="Traceback"
    )
    assert tracebacks.count() == 0, f"{name}: a cell failed:\n" + "\n---\n".join(tracebacks.all_inner_texts())[:3000]
    return panel


def _stored_figures() -> int:
    """How many figures the committed notebook 01 shows (solution cells' outputs are hidden)."""
    stored = nbformat.read(NOTEBOOKS / NOTEBOOK_01, as_version=4)
    return sum(
        "image/png" in o.get("data", {})
        for c in stored.cells
        if c.cell_type == "code" and not c.metadata.get("jupyter", {}).get("outputs_hidden")
        for o in c.outputs
    )


def test_notebook_01_runs_all_cells_without_error_in_jupyterlab(page, lab):
    base, token, root, _ = lab
    panel = _open_and_run_all(page, base, token, root, NOTEBOOK_01)
    assert panel.locator(".jp-OutputArea-output img").count() >= _stored_figures() > 0, "notebook 01 shows its figures"
    _shot(page, "lab_01_run_all.png")


# what an explorer shows: its figure(s), its result text (HTML table, status line) and the slider readouts
_STATE = """cell => JSON.stringify({
    images: [...cell.querySelectorAll('.jp-OutputArea-output img')].map(i => i.src),
    text: [...cell.querySelectorAll('.widget-html-content, .widget-label')].map(e => e.innerText).join(' | '),
    readouts: [...cell.querySelectorAll('.widget-readout')].map(e => e.innerText || e.value).join(' | '),
})"""


def test_each_explorer_slider_changes_what_it_shows(page, lab):
    base, token, root, explorer_cells = lab
    panel = _open_and_run_all(page, base, token, root, "e2e_explorers.ipynb")
    cells = panel.locator(".jp-Cell")
    for (name, call), at in zip(EXPLORERS.items(), explorer_cells, strict=True):
        label = call.split(".")[-1]
        cell = cells.nth(at)
        handle = cell.locator(".widget-slider .noUi-handle").first
        handle.wait_for(timeout=EXPLORER_UPDATE * 1000)  # the live widget, not the PNG snapshot
        cell.locator(".jp-OutputArea-output .widget-output img").first.wait_for(timeout=EXPLORER_UPDATE * 1000)
        cell.scroll_into_view_if_needed()
        before = cell.evaluate(_STATE)
        _shot(cell, f"lab_{label}_before.png")
        at_max = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        handle.focus()
        page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")
        # the new value reaches the kernel, which redraws: wait for a new figure and new text, both complete
        try:
            page.wait_for_function(
                """([cell, before]) => {
                    const now = JSON.parse((STATE)(cell)), was = JSON.parse(before);
                    return now.readouts !== was.readouts && now.images.length === was.images.length
                        && now.images.some((src, i) => src !== was.images[i]) && now.text !== was.text
                        && !document.querySelector('.jp-Notebook-ExecutionIndicator[data-status="busy"]');
                }""".replace("STATE", _STATE),
                arg=[cell.element_handle(), before],
                timeout=EXPLORER_UPDATE * 1000,
                polling=250,
            )
        except Exception:
            _shot(cell, f"lab_{label}_FAILED.png")
            now, was = json.loads(cell.evaluate(_STATE)), json.loads(before)
            raise AssertionError(
                f"{name}: {call} did not update within {EXPLORER_UPDATE} s of moving its first slider: readouts "
                f"{was['readouts']!r} -> {now['readouts']!r}, figure changed: {now['images'] != was['images']}, "
                f"text changed: {now['text'] != was['text']}"
            ) from None
        page.wait_for_timeout(500)  # the redraw settles (clear_output(wait=True) swaps the image once)
        after, was = json.loads(cell.evaluate(_STATE)), json.loads(before)
        assert after["images"] != was["images"] and after["text"] != was["text"], f"{name}: {call} did not update"
        _shot(cell, f"lab_{label}_after.png")


# -- the HTML book -----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def book_url(request, browser):
    """The book of tests/conftest.py served over HTTP on loopback (MathJax loads its fonts as from a site)."""
    # asked for here, after `browser`, so that the book is not built when the test is skipped
    book_html = request.getfixturevalue("book_html")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(book_html)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


_IMAGES_DONE = "() => [...document.images].every(i => i.complete)"
_BROKEN_IMAGES = "() => [...document.images].filter(i => i.naturalWidth === 0).map(i => i.src.slice(0, 100))"
# text outside code and outputs that still looks like TeX: MathJax left a formula untypeset
_RAW_TEX = r"""() => {
    const body = document.body.cloneNode(true);
    body.querySelectorAll('pre, code, script, style, .cell_output, mjx-container').forEach(e => e.remove());
    const text = body.textContent;
    return (text.match(/\\\(|\\\)|\\\[|\\\]|\$\$|\$[^$\s][^$]*\$/g) || []).slice(0, 5);
}"""


def _load_eagerly(page, url: str | None = None) -> None:
    """Open ``url`` (or wait for the page a click opened) and wait until every image has loaded or failed."""
    if url is None:
        page.wait_for_load_state("load", timeout=PAGE * 1000)
    else:
        page.goto(url, wait_until="load", timeout=PAGE * 1000)
    page.evaluate("() => document.querySelectorAll('img').forEach(i => { i.loading = 'eager'; })")
    page.wait_for_function(_IMAGES_DONE, timeout=PAGE * 1000)


@pytest.mark.timeout(660)  # builds the book when it runs first (about 15 s, bounded by 600 s)
def test_book_index_and_a_page_render_formulas_and_images(page, book_url):
    _load_eagerly(page, f"{book_url}/index.html")
    link = page.locator(f'a[href$="notebooks/{NOTEBOOK_01[:-6]}.html"]')
    assert link.count() > 0, "index.html links notebook 01"
    assert page.evaluate(_BROKEN_IMAGES) == [], "index.html: an image did not load"
    _shot(page, "book_index.png")

    link.first.click()  # the index's link leads to notebook 01's page
    page.wait_for_url(f"**/notebooks/{NOTEBOOK_01[:-6]}.html*", timeout=PAGE * 1000)
    _load_eagerly(page)
    assert page.locator("img").count() >= _stored_figures() > 0, "notebook 01's page shows its figures"
    assert page.evaluate(_BROKEN_IMAGES) == [], "notebook 01's page: an image did not load"
    formulas = page.locator(".math")
    assert formulas.count() >= 5, "notebook 01's page has formulas"
    page.wait_for_function(
        "() => [...document.querySelectorAll('.math')].every(m => m.querySelector('mjx-container'))",
        timeout=PAGE * 1000,
    )
    assert page.locator("mjx-merror, mjx-container [data-mjx-error]").count() == 0, "MathJax reports a TeX error"
    assert page.evaluate(_RAW_TEX) == [], "TeX left untypeset in the page's text"
    # the first formula of the text (a heading's formula is also in the page's contents sidebar, which may be hidden)
    page.locator("article.bd-article .math").first.scroll_into_view_if_needed()
    _shot(page, "book_notebook_01.png")
