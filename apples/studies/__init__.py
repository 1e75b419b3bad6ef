"""One package per paper's reproduction: ``forman_scholz``, ``van_asch``, ``parker``.

Import them by name, e.g. ``from apples.studies import forman_scholz as fs``.
"""
