"""Sphinx configuration of the apples book (``make book``).

The book renders the notebooks that ``make book`` has just executed under
``build/notebooks``: myst-nb reads their stored outputs and never executes them a
second time. The theme gives a sidebar in reading order, previous/next links and
full-text search; sphinx-mathjax-offline ships MathJax with the build, so the
formulas render without a network connection.
"""

project = "apples"
author = "the apples authors"
copyright = "the apples authors"  # noqa: A001 (Sphinx's name)

extensions = ["myst_nb", "sphinx-mathjax-offline"]  # the package's own (hyphenated) module name
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

nb_execution_mode = "off"  # render the outputs make book stored; never execute again
nb_merge_streams = True
# no widget JavaScript from a CDN: the book is read offline, and an explorer needs a running kernel anyway
nb_ipywidgets_js: dict = {}
# an explorer's stored output carries a PNG snapshot beside the widget: the book shows the snapshot
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type"]

html_theme = "sphinx_book_theme"
html_title = "apples: measuring classifiers under cross-validation"
html_theme_options = {
    "show_navbar_depth": 1,
    "home_page_in_toc": True,
    "use_download_button": True,
}
html_last_updated_fmt = None
