"""Kernels: one vectorised definition of each quantity, arrays in, arrays out, never a check.

The public functions of apples check their arguments once (:mod:`apples._params`) and call these.
A kernel marks a 0/0 as NaN, or applies the policy ``"zero"``, ``"nan"`` or ``"skip"`` it is given
(``"raise"`` is the caller's: it passes ``"nan"`` and raises where a NaN comes back). Kernels
import numpy and nothing of apples above them (``tests/test_layout.py``).

- :mod:`.counting`: integer codes of labels, confusion matrices of every fold from one ``bincount``;
- :mod:`.f_measure`: F_beta of counts, and the F aggregations of Forman & Scholz §2.3 over folds;
- :mod:`.averages`: Van Asch's macro, micro and label-frequency-based averages (§3);
- :mod:`.ranking`: cumulative counts over thresholds, ROC AUC and average precision of every fold and of
  the merged scores from one sort.
"""
