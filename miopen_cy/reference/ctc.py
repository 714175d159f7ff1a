"""CTC loss (Graves et al., ICML 2006) in float64 with MIOpen's conventions, written from the
definitions in NumPy: probs [max time steps, batch, classes]; labels concatenated with their
lengths per batch item; apply_softmax_layer: probs are activations under a log-softmax over the
classes (the gradient is with respect to the activations), else probs are log probabilities (the
gradient is with respect to the probabilities exp(probs), as MIOpen defines it). Gradients past
an item's input length are 0."""
import numpy as np


def _lse(a, axis=None):
    m = np.max(a, axis=axis, keepdims=True)
    safe = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(a - safe), axis=axis, keepdims=True)) + safe
    return np.squeeze(out, axis=axis) if axis is not None else out.item()


def _shift(a, k, fill=-np.inf):
    """a moved k places later (k > 0: out[s] = a[s - k]) or earlier (k < 0), filled."""
    out = np.full_like(a, fill)
    if k > 0 and k < a.size:
        out[k:] = a[:-k]
    elif k < 0 and -k < a.size:
        out[:k] = a[-k:]
    return out


def _item(lp, label, blank):
    """(log P, d(-log P)/d lp as the occupancy sum over states / P) for one item:
    lp [T, C] log probabilities, label a list of class ids."""
    T, C = lp.shape
    ext = np.full(2 * len(label) + 1, blank)
    ext[1::2] = label
    S = ext.size
    skip = np.zeros(S, bool)          # state s may be entered from s - 2
    for s in range(3, S, 2):
        skip[s] = ext[s] != ext[s - 2]
    neg = -np.inf
    alpha = np.full((T, S), neg)
    beta = np.full((T, S), neg)
    alpha[0, :min(2, S)] = lp[0, ext[:min(2, S)]]
    with np.errstate(divide="ignore", invalid="ignore"):
        for t in range(1, T):
            prev = alpha[t - 1]
            terms = [prev, _shift(prev, 1), np.where(skip, _shift(prev, 2), neg)]
            alpha[t] = np.logaddexp.reduce(terms, axis=0) + lp[t, ext]
        beta[T - 1, max(0, S - 2):] = lp[T - 1, ext[max(0, S - 2):]]
        for t in range(T - 2, -1, -1):
            nxt = beta[t + 1]
            skip_from = _shift(skip, -2, False)             # s + 2 may be entered from s
            terms = [nxt, _shift(nxt, -1), np.where(skip_from, _shift(nxt, -2), neg)]
            beta[t] = np.logaddexp.reduce(terms, axis=0) + lp[t, ext]
    logp = _lse(alpha[T - 1, max(0, S - 2):])
    # occupancy of class k at t: sum over its states of alpha * beta / y (both include y once)
    occ = np.full((T, C), neg)
    ab = alpha + beta - lp[:, ext]
    for k in np.unique(ext):
        occ[:, k] = _lse(ab[:, ext == k], axis=1)
    return logp, occ


def ctc_loss(probs, labels, label_lengths, input_lengths, blank=0, apply_softmax_layer=True):
    """(losses [batch], gradients [T, batch, classes]) in float64."""
    x = np.asarray(probs, np.float64)
    T, N, C = x.shape
    losses = np.zeros(N)
    grads = np.zeros_like(x)
    off = 0
    for b in range(N):
        L, Tb = int(label_lengths[b]), int(input_lengths[b])
        label = [int(v) for v in labels[off:off + L]]
        off += L
        if Tb == 0:
            continue
        xb = x[:Tb, b, :]
        lp = xb - _lse(xb, axis=1)[:, None] if apply_softmax_layer else xb
        logp, occ = _item(lp, label, blank)
        losses[b] = -logp
        post = np.exp(occ - logp)                   # d(-log P)/d lp = -post
        if apply_softmax_layer:
            grads[:Tb, b, :] = np.exp(lp) - post
        else:
            grads[:Tb, b, :] = -post * np.exp(-lp)
    return losses, grads


def min_input_length(label):
    """The fewest time steps a label fits in: its length plus its repeats (a blank between)."""
    label = list(label)
    return len(label) + sum(1 for a, b in zip(label, label[1:]) if a == b)
