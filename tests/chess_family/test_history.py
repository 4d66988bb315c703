"""The family search's history: counts bounded by gravity, a cut-off's quiet move rewarded and
the quiet moves searched before it at its node punished by as much, and late-move reductions
that read the record (more for a bad one only off the principal variation)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.chess_family.search import (
    HISTORY_MAX,
    HISTORY_REDUCTION_STEP,
    QUIET_TRIED,
    history_bonus,
    late_reduction,
    nudge_history,
    reward_quiet,
)
from yipan.games.chess.search import new_context


def chess_move(origin: int, target: int) -> int:
    return origin | target << 6


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.booleans()), max_size=200))
def test_gravity_keeps_every_count_within_its_bound(cut_offs):
    ctx = new_context(1)
    for depth, good in cut_offs:
        bonus = history_bonus(depth)
        nudge_history(ctx, 0, 12, 28, bonus if good else -bonus)
        assert -HISTORY_MAX <= ctx.history[0, 12, 28] <= HISTORY_MAX


def test_a_cut_off_rewards_its_move_and_punishes_the_quiet_moves_tried_before_it():
    ctx = new_context(1)
    ply, depth = 3, 5
    tried, skipped, cut = chess_move(12, 28), chess_move(6, 21), chess_move(11, 27)
    ctx.moves[ply, :3] = [tried, skipped, cut]
    ctx.keys_of_moves[ply, :3] = [QUIET_TRIED, 0, 0]  # the second was pruned, not searched
    reward_quiet(ctx, ply, 0, cut, depth, 2, 6)
    bonus = history_bonus(depth)
    assert ctx.history[0, 11, 27] == bonus
    assert ctx.history[0, 12, 28] == -bonus
    assert ctx.history[0, 6, 21] == 0
    assert ctx.killers[ply, 0] == cut
    assert ctx.history[1].sum() == 0  # the other side's record is its own


def test_reductions_read_the_record_and_spare_the_principal_variation_a_bad_one():
    ctx = new_context(1)
    depth, searched, move = 10, 20, chess_move(12, 28)
    plain = late_reduction(ctx, 0, depth, searched, move, False, 0)
    assert late_reduction(ctx, 0, depth, searched, move, False,
                          2 * HISTORY_REDUCTION_STEP) == plain - 2
    assert late_reduction(ctx, 0, depth, searched, move, False,
                          -2 * HISTORY_REDUCTION_STEP) == plain + 2
    on_pv = late_reduction(ctx, 0, depth, searched, move, True, 0)
    assert late_reduction(ctx, 0, depth, searched, move, True,
                          -2 * HISTORY_REDUCTION_STEP) == on_pv
    assert late_reduction(ctx, 0, depth, searched, move, True,
                          HISTORY_REDUCTION_STEP) == on_pv - 1
