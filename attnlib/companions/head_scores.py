"""What a head does, measured: the scores that name a previous-token head, an induction head, a sink.

Every measure reads attention weights ``(batch, heads, n, n)`` (rows are queries, columns keys, each
row sums to 1, causal) and, where it needs them, the token ids ``(batch, n)``; each returns one number
per head, ``(heads,)``, averaged over the batch and the query positions it names:

- ``previous_token_score``: the mean weight from position ``i`` to ``i - 1`` (1 for a head that always
  looks one step back);
- ``first_token_share``: the mean weight from position ``i`` (``i >= 1``) to position 0, the first token
  (a large share is an *attention sink*);
- ``duplicate_token_score``: the mean weight from a token to its *earlier occurrences* (a head that finds
  where the current token was seen before);
- ``prefix_matching_score``: the mean weight from a token to the tokens that *followed its earlier
  occurrences* (1 for a head that always attends there: the induction head's signature);
- ``loss_by_position``: the cross-entropy at each position of the context ``(n,)``.

Chapters: "Two layers that compose" (induction heads) and "Attention on real text".
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def _check(weights: torch.Tensor, tokens: torch.Tensor | None = None) -> None:
    if not isinstance(weights, torch.Tensor) or weights.ndim != 4 or weights.shape[-1] != weights.shape[-2]:
        got = tuple(weights.shape) if isinstance(weights, torch.Tensor) else type(weights).__name__
        raise ValueError(f"weights must be a (batch, heads, n, n) tensor, got {got}")
    if weights.shape[-1] < 2:
        raise ValueError(f"a head score needs at least 2 positions, got n = {weights.shape[-1]}")
    if tokens is not None and (not isinstance(tokens, torch.Tensor) or tokens.dtype != torch.long
                               or tuple(tokens.shape) != (weights.shape[0], weights.shape[-1])):
        got = f"{tuple(tokens.shape)} {tokens.dtype}" if isinstance(tokens, torch.Tensor) else type(tokens).__name__
        raise ValueError(f"tokens must be int64 ids of shape (batch, n) = {(weights.shape[0], weights.shape[-1])}, "
                         f"got {got}")


def previous_token_score(weights: torch.Tensor) -> torch.Tensor:
    """Per head, the mean attention from each position ``i >= 1`` to ``i - 1``: ``(heads,)``."""
    _check(weights)
    return weights.diagonal(offset=-1, dim1=-2, dim2=-1).mean(dim=(0, -1))  # w[:, :, i, i-1], mean over batch, i


def first_token_share(weights: torch.Tensor) -> torch.Tensor:
    """Per head, the mean attention from each position ``i >= 1`` to position 0: ``(heads,)``."""
    _check(weights)
    return weights[..., 1:, 0].mean(dim=(0, -1))  # (heads,)


def induction_targets(tokens: torch.Tensor) -> torch.Tensor:
    """``(batch, n, n)`` booleans: ``[b, i, j]`` is True where key ``j`` follows an earlier occurrence of
    token ``i`` (``tokens[b, j-1] == tokens[b, i]``, ``1 <= j < i``): where an induction head looks."""
    n = tokens.shape[-1]
    i, j = torch.arange(n)[:, None], torch.arange(n)[None, :]  # query and key positions
    before = tokens[:, None, :-1] == tokens[:, :, None]  # (batch, n, n-1): tokens[j-1] == tokens[i]
    follows = F.pad(before, (1, 0), value=False)  # (batch, n, n): shifted one key to the right
    return follows & (j >= 1) & (j < i)


def prefix_matching_score(weights: torch.Tensor, tokens: torch.Tensor,
                          queries: torch.Tensor | None = None) -> torch.Tensor:
    """Per head, the mean over query positions that have an earlier occurrence of their token (and, if
    given, are True in ``queries`` ``(batch, n)``) of the attention they put on the tokens that followed
    those occurrences: ``(heads,)``. NaN-free: a batch without such a position is refused."""
    _check(weights, tokens)
    targets = induction_targets(tokens)  # (batch, n, n)
    counted = targets.any(dim=-1)  # (batch, n): the query has an earlier occurrence
    if queries is not None:
        counted = counted & queries
    if not counted.any():
        raise ValueError("no query position has an earlier occurrence of its token: nothing to score")
    mass = (weights * targets[:, None]).sum(dim=-1)  # (batch, heads, n)
    return (mass * counted[:, None]).sum(dim=(0, -1)) / counted.sum()  # (heads,)


def duplicate_token_score(weights: torch.Tensor, tokens: torch.Tensor,
                          queries: torch.Tensor | None = None) -> torch.Tensor:
    """Per head, the mean over query positions that have an earlier occurrence of their token (and, if
    given, are True in ``queries`` ``(batch, n)``) of the attention they put on those earlier occurrences
    (``tokens[b, j] == tokens[b, i]``, ``j < i``): ``(heads,)``. A batch without such a position is refused."""
    _check(weights, tokens)
    n = tokens.shape[-1]
    earlier = (tokens[:, None, :] == tokens[:, :, None]) & (torch.arange(n)[None, :] < torch.arange(n)[:, None])
    counted = earlier.any(dim=-1) if queries is None else earlier.any(dim=-1) & queries  # (batch, n)
    if not counted.any():
        raise ValueError("no query position has an earlier occurrence of its token: nothing to score")
    mass = (weights * earlier[:, None]).sum(dim=-1)  # (batch, heads, n)
    return (mass * counted[:, None]).sum(dim=(0, -1)) / counted.sum()  # (heads,)


def loss_by_position(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """The cross-entropy (nats) of each position's next-token prediction, averaged over the batch:
    ``logits`` ``(batch, n, vocab)``, ``targets`` ``(batch, n)`` -> ``(n,)``."""
    if logits.ndim != 3 or tuple(targets.shape) != tuple(logits.shape[:2]):
        raise ValueError(f"logits (batch, n, vocab) and targets (batch, n) must agree, got "
                         f"{tuple(logits.shape)} and {tuple(targets.shape)}")
    return F.cross_entropy(logits.transpose(1, 2), targets, reduction="none").mean(dim=0)  # (n,)
