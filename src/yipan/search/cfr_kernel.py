"""The numba kernel of tabular CFR: iterations over a game tree laid out in arrays.

The tree (``yipan.search.cfr.GameTree``) lists its nodes breadth first, so a parent's number is
below its children's and the children of a node are consecutive::

    node n:  kind[n]         TERMINAL, CHANCE or DECISION
             player[n]       0 or 1 at a decision
             infoset[n]      the information set's number at a decision, else -1
             first_child[n]  children first_child[n] .. first_child[n] + child_count[n] - 1,
             child_count[n]  in the order of the information set's moves
             edge_prob[n]    the probability of the chance draw that led to n (else 1)
             payoff[n]       at a terminal, what player 0 wins (the game is zero-sum)

    information set i: its moves' slots offset[i] .. offset[i] + size[i] - 1 in ``regrets``
                       and ``strategy_sum`` (one float per move)

One iteration is *alternating*: for the updating player p = 0, then 1, the current strategies
come from the regrets (regret matching), a forward pass gives each node the reach of p and of
everyone else (chance included), a backward pass gives each node its value for p, and at p's
decisions the counterfactual regret of each move is added,
``reach_others * (value(child) - value(node))``, and p's strategy, weighted by p's reach, to the
average. The variants differ in three knobs (Brown & Sandholm's discounted CFR, 2019):

    clamp          regrets floored at 0 after each update (regret matching+, CFR+)
    alpha, beta    after iteration t, positive regrets times t^a/(t^a+1), negative ones times
                   t^b/(t^b+1) (a negative knob: no discount)
    gamma          after iteration t, the average strategy's sum times (t/(t+1))^gamma
    average_power  iteration t adds to the average with weight t^average_power (CFR+: 1)
"""

from __future__ import annotations

import numpy as np
from numba import njit

TERMINAL, CHANCE, DECISION = 0, 1, 2


@njit(cache=True)
def current_strategy(regrets, offset, size, out):
    """Regret matching: each set's positive regrets, normalised (uniform when none is)."""
    for i in range(offset.shape[0]):
        start = offset[i]
        count = size[i]
        total = 0.0
        for k in range(start, start + count):
            if regrets[k] > 0.0:
                total += regrets[k]
        for k in range(start, start + count):
            if total > 0.0:
                out[k] = regrets[k] / total if regrets[k] > 0.0 else 0.0
            else:
                out[k] = 1.0 / count


@njit(cache=True)
def cfr_iterations(kind, player, infoset, first_child, child_count, edge_prob, payoff,
                   offset, size, set_player, regrets, strategy_sum, first_iteration, iterations,
                   clamp, alpha, beta, gamma, average_power):
    """Run ``iterations`` alternating iterations, numbered from ``first_iteration`` (1-based),
    updating ``regrets`` and ``strategy_sum`` in place (module docstring)."""
    nodes = kind.shape[0]
    sigma = np.empty(regrets.shape[0])
    reach_mine = np.empty(nodes)
    reach_others = np.empty(nodes)
    value = np.empty(nodes)
    for t in range(first_iteration, first_iteration + iterations):
        weight = float(t) ** average_power
        for p in range(2):
            current_strategy(regrets, offset, size, sigma)
            reach_mine[0] = 1.0
            reach_others[0] = 1.0
            for n in range(nodes):
                start = first_child[n]
                for a in range(child_count[n]):
                    c = start + a
                    if kind[n] == CHANCE:
                        reach_mine[c] = reach_mine[n]
                        reach_others[c] = reach_others[n] * edge_prob[c]
                    else:
                        probability = sigma[offset[infoset[n]] + a]
                        if player[n] == p:
                            reach_mine[c] = reach_mine[n] * probability
                            reach_others[c] = reach_others[n]
                        else:
                            reach_mine[c] = reach_mine[n]
                            reach_others[c] = reach_others[n] * probability
            sign = 1.0 if p == 0 else -1.0
            for n in range(nodes - 1, -1, -1):
                if kind[n] == TERMINAL:
                    value[n] = sign * payoff[n]
                    continue
                start = first_child[n]
                total = 0.0
                if kind[n] == CHANCE:
                    for a in range(child_count[n]):
                        total += edge_prob[start + a] * value[start + a]
                    value[n] = total
                    continue
                base = offset[infoset[n]]
                for a in range(child_count[n]):
                    total += sigma[base + a] * value[start + a]
                value[n] = total
                if player[n] != p:
                    continue
                for a in range(child_count[n]):
                    regrets[base + a] += reach_others[n] * (value[start + a] - total)
                    strategy_sum[base + a] += weight * reach_mine[n] * sigma[base + a]
            discount_positive = t ** alpha / (t ** alpha + 1.0) if alpha >= 0.0 else 1.0
            discount_negative = t ** beta / (t ** beta + 1.0) if beta >= 0.0 else 1.0
            discount_average = (t / (t + 1.0)) ** gamma if gamma >= 0.0 else 1.0
            for i in range(offset.shape[0]):
                if set_player[i] != p:
                    continue
                for k in range(offset[i], offset[i] + size[i]):
                    if regrets[k] > 0.0:
                        regrets[k] *= discount_positive
                    elif clamp:
                        regrets[k] = 0.0
                    else:
                        regrets[k] *= discount_negative
                    strategy_sum[k] *= discount_average


@njit(cache=True)
def profile_values(kind, player, infoset, first_child, child_count, edge_prob, payoff, offset,
                   policy, reach, value):
    """Under a fixed profile (``policy``: one probability a slot): every node's reach (chance
    and both players) and its value for player 0."""
    nodes = kind.shape[0]
    reach[0] = 1.0
    for n in range(nodes):
        start = first_child[n]
        for a in range(child_count[n]):
            c = start + a
            if kind[n] == CHANCE:
                reach[c] = reach[n] * edge_prob[c]
            else:
                reach[c] = reach[n] * policy[offset[infoset[n]] + a]
    for n in range(nodes - 1, -1, -1):
        if kind[n] == TERMINAL:
            value[n] = payoff[n]
            continue
        start = first_child[n]
        total = 0.0
        for a in range(child_count[n]):
            c = start + a
            if kind[n] == CHANCE:
                total += edge_prob[c] * value[c]
            else:
                total += policy[offset[infoset[n]] + a] * value[c]
        value[n] = total


@njit(cache=True)
def _responder_values(kind, player, infoset, first_child, child_count, edge_prob, payoff,
                      offset, policy, responder, choice, value):
    """One backward pass: each node's value for ``responder``, who plays ``choice`` at the
    sets decided so far (an undecided set's nodes get 0, read by no decided set)."""
    sign = 1.0 if responder == 0 else -1.0
    for n in range(kind.shape[0] - 1, -1, -1):
        start = first_child[n]
        if kind[n] == TERMINAL:
            value[n] = sign * payoff[n]
        elif kind[n] == CHANCE:
            total = 0.0
            for a in range(child_count[n]):
                total += edge_prob[start + a] * value[start + a]
            value[n] = total
        elif player[n] != responder:
            total = 0.0
            base = offset[infoset[n]]
            for a in range(child_count[n]):
                total += policy[base + a] * value[start + a]
            value[n] = total
        else:
            best = choice[infoset[n]]
            value[n] = value[start + best] if best >= 0 else 0.0


@njit(cache=True)
def best_response_value(kind, player, infoset, first_child, child_count, edge_prob, payoff,
                        offset, size, set_player, set_depth, policy, responder):
    """What ``responder`` wins, at best, against the other's ``policy``: the exact best
    response, decided one information set at a time, deepest first.

    ``set_depth[i]`` counts the moves its player made before reaching set i: the same at every
    node of the set (perfect recall), and larger at every set of theirs below it. So once the
    sets of depth d + 1 and more are decided, the value of each move at a set of depth d is
    known, and the best move is the one of highest value summed over the set's nodes, each
    weighted by the reach of chance and the other player.
    """
    nodes = kind.shape[0]
    others = np.empty(nodes)  # reach of chance and the other player
    others[0] = 1.0
    for n in range(nodes):
        start = first_child[n]
        for a in range(child_count[n]):
            c = start + a
            if kind[n] == CHANCE:
                others[c] = others[n] * edge_prob[c]
            elif player[n] == responder:
                others[c] = others[n]
            else:
                others[c] = others[n] * policy[offset[infoset[n]] + a]
    sets = offset.shape[0]
    choice = np.full(sets, -1, np.int64)
    value = np.zeros(nodes)
    deepest = -1
    for i in range(sets):
        if set_player[i] == responder and set_depth[i] > deepest:
            deepest = set_depth[i]
    for level in range(deepest, -1, -1):
        _responder_values(kind, player, infoset, first_child, child_count, edge_prob, payoff,
                          offset, policy, responder, choice, value)
        action_value = np.zeros(policy.shape[0])
        for n in range(nodes):
            if kind[n] == DECISION and player[n] == responder \
                    and set_depth[infoset[n]] == level:
                base = offset[infoset[n]]
                for a in range(child_count[n]):
                    action_value[base + a] += others[n] * value[first_child[n] + a]
        for i in range(sets):
            if set_player[i] == responder and set_depth[i] == level:
                best = 0
                for a in range(1, size[i]):
                    if action_value[offset[i] + a] > action_value[offset[i] + best]:
                        best = a
                choice[i] = best
    _responder_values(kind, player, infoset, first_child, child_count, edge_prob, payoff,
                      offset, policy, responder, choice, value)
    return value[0]
