"""BucketRanking: the ranking measures of scores cut into buckets (sorted in memory one by one, or summarised
apart and merged in order) equal those of one sort: counts bit for bit, sums of weights to 1e-12."""

from __future__ import annotations

import numpy as np
import pytest

from apples._kernels import ranking
from apples._kernels.rank_buckets import BucketRanking, rank_totals
from apples._kernels.ranking import fold_ranking, scaled_weights

_PRIOR = (2.0, 3.0)
_FIELDS = (
    "auc",
    "ap",
    "auc_merge",
    "ap_merge",
    "other_auc_merge",
    "h",
    "h_merge",
    "auc_merge_without",
    "ap_merge_without",
    "h_merge_without",
)


def _data(seed: int, n: int, ties: str, k: int):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = {
        "none": rng.standard_normal(n) + y,
        "few": rng.integers(0, 5, n).astype(float),
        "int": rng.integers(-(2**62), 2**62, n) // 2**58 * 2**58 + y,
        "f32": (rng.standard_normal(n) + y).astype(np.float32),
    }[ties]
    fold = rng.integers(0, k, n)
    if k > 2:
        fold[fold == 2] = 0  # an empty fold
    return y, s, fold, rng.random(n) < 0.4, rng


def _cuts(s_sorted: np.ndarray, rng, n_buckets: int) -> list[tuple[int, int]]:
    """Random cut points of the sorted scores, each moved to the end of its tie group, some on tie boundaries."""
    n = s_sorted.size
    cuts = np.unique(np.r_[0, rng.integers(1, n, n_buckets - 1), n])
    cuts = np.unique([np.searchsorted(s_sorted, s_sorted[c - 1], side="right") if 0 < c < n else c for c in cuts])
    return list(zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True))


def _buckets(y, s, fold, k, w, other, rng, n_buckets, apart):
    order = np.argsort(s, kind="stable")
    ss, ys, fs, os_ = s[order], y[order], fold[order], other[order]
    ws = None if w is None else scaled_weights(w)[order]
    wt = np.ones(s.size, dtype=np.int64) if w is None else scaled_weights(w)
    pos = np.bincount(fold, weights=np.where(y, wt, 0), minlength=k)
    neg = np.bincount(fold, weights=np.where(y, 0, wt), minlength=k)
    if w is None:
        pos, neg = pos.astype(np.int64), neg.astype(np.int64)
    totals = rank_totals(pos, neg)
    opts = {"weighted": w is not None, "other": True, "h_prior": _PRIOR, "jackknife": True}
    acc = BucketRanking(k, totals, **opts)
    for lo, hi in _cuts(ss, rng, n_buckets):
        part = slice(lo, hi)
        wb = None if ws is None else ws[part]
        if not apart:
            acc.add(ss[part], ys[part], fs[part], wb, os_[part])
            continue
        one = BucketRanking(k, totals, **opts)
        one.start_at(acc.below_pos, acc.below_neg, float(acc.other_below_neg[0]))
        one.add(ss[part], ys[part], fs[part], wb, os_[part])
        acc.merge(one)
    return acc.result()


@pytest.mark.parametrize("ties", ["none", "few", "int", "f32"])
@pytest.mark.parametrize("k", [1, 4])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("apart", [False, True])
def test_buckets_equal_one_sort(ties, k, weighted, apart):
    y, s, fold, other, rng = _data(3 + k, 700, ties, k)
    w = None
    if weighted:
        w = rng.random(s.size) * 3
        w[rng.random(s.size) < 0.1] = 0.0
    one = fold_ranking(y, s, fold, k, weights=w, other=other, h_prior=_PRIOR, jackknife=True)
    many = _buckets(y, s, fold, k, w, other, rng, 9, apart)
    for name in _FIELDS:
        a, b = np.asarray(getattr(one, name), dtype=float), np.asarray(many[name], dtype=float)
        if not weighted and not apart and name not in ("other_auc_merge",):
            assert a.tobytes() == b.tobytes(), name  # counts in order: the same bits
        else:
            np.testing.assert_allclose(b, a, rtol=1e-12, atol=0, err_msg=name)


def test_in_memory_chunks_are_one_sort_bit_for_bit(monkeypatch):
    y, s, fold, other, _ = _data(1, 5000, "few", 5)
    whole = fold_ranking(y, s, fold, 5, other=other, h_prior=_PRIOR, jackknife=True)
    monkeypatch.setattr(ranking, "CHUNK", 97)  # chunks of about 97 cases, cut at tie ends (groups of ~1000 here)
    chunked = fold_ranking(y, s, fold, 5, other=other, h_prior=_PRIOR, jackknife=True)
    for name in _FIELDS:
        assert np.asarray(getattr(whole, name)).tobytes() == np.asarray(getattr(chunked, name)).tobytes(), name
    y, s, fold, other, _ = _data(2, 5000, "none", 5)
    whole = fold_ranking(y, s, fold, 5, other=other, h_prior=_PRIOR, jackknife=True)
    monkeypatch.setattr(ranking, "CHUNK", 10**9)
    single = fold_ranking(y, s, fold, 5, other=other, h_prior=_PRIOR, jackknife=True)
    for name in _FIELDS:
        assert np.asarray(getattr(whole, name)).tobytes() == np.asarray(getattr(single, name)).tobytes(), name


def test_tie_chunks_never_split_a_tie_group():
    s = np.repeat([0.1, 0.2, 0.3], [5, 300, 2])
    chunks = list(ranking.tie_chunks(s, np.argsort(s), 4))
    assert chunks == [(0, 5), (5, 305), (305, 307)]


@pytest.mark.parametrize("weighted", [False, True])
def test_a_bucket_of_one_score_given_by_its_counts_equals_its_cases(weighted):
    """add_group (a tie group from each fold's positives and negatives) adds what add of its cases adds."""
    rng = np.random.default_rng(9)
    n, k = 900, 3
    y = rng.random(n) < 0.3
    s = rng.integers(0, 6, n).astype(float)  # six tie groups, each a bucket
    fold = rng.integers(0, k, n)
    other = rng.random(n) < 0.5
    w = rng.random(n) if weighted else None
    one = fold_ranking(y, s, fold, k, weights=w, other=other, h_prior=_PRIOR, jackknife=True)
    wt = np.ones(n, dtype=np.int64) if w is None else scaled_weights(w)
    pos = np.bincount(fold, weights=np.where(y, wt, 0), minlength=k)
    neg = np.bincount(fold, weights=np.where(y, 0, wt), minlength=k)
    if w is None:
        pos, neg = pos.astype(np.int64), neg.astype(np.int64)
    acc = BucketRanking(k, rank_totals(pos, neg), weighted=weighted, other=True, hull=True, jackknife=True)
    for v in np.unique(s):
        m = s == v
        gp = np.bincount(fold[m], weights=np.where(y[m], wt[m], 0), minlength=k)
        gn = np.bincount(fold[m], weights=np.where(y[m], 0, wt[m]), minlength=k)
        op, on = np.sum(np.where(other[m], wt[m], 0)), np.sum(np.where(other[m], 0, wt[m]))
        if w is None:
            gp, gn, op, on = gp.astype(np.int64), gn.astype(np.int64), int(op), int(on)
        acc.add_group(gp, gn, op, on)
    acc.compact()
    many = acc.result(h_prior=_PRIOR)
    # sums of weights rounded in another order: a hull on the diagonal (H = 0) may gain a corner of 1e-16
    atol = 1e-15 if weighted else 0
    for name in _FIELDS:
        a, b = np.asarray(getattr(one, name), dtype=float), np.asarray(many[name], dtype=float)
        np.testing.assert_allclose(b, a, rtol=1e-12, atol=atol, err_msg=name)
