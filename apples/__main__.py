"""``python -m apples report ...``: the ``apples`` command (:mod:`apples.cli`)."""

from apples.cli import main

raise SystemExit(main())
