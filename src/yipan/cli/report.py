"""How the CLI shows an ``Analysis`` to a person: the board, each move's value in words, the
best move and its line, the figures; and the same as one JSON object with ``--json``.

Every game's report is drawn here from the documented fields, so a game never prints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import Analysis, Game, describe_centipawns, describe_value
from .common import print_json

Write = Callable[[str], None]
SHOWN_FIGURES = ("score", "max_tile", "bounds")  # a game's figures that the text report shows
LISTED_MOVES = 20  # winning moves written out one a line; --json has every one


def show(game: Game, state: Any, moves: list[str], analysis: Analysis, *, as_json: bool,
         board: bool = True, write: Write = print) -> None:
    """Print the analysis: one JSON object, or the report for a person."""
    if as_json:
        print_json(analysis.to_json(game, state, moves))
        return
    names = game.player_names
    if board:
        write(game.render(state))
    outcome = game.outcome(state)
    if outcome is not None:
        result = "a draw" if outcome.winner is None else f"{names[outcome.winner]} has won"
        write(f"The game is over: {result}.")
        return
    mover = game.to_move(state)
    write(f"{names[mover]} to move." if game.info.players == 2 else "")
    _move_table(game, analysis, write)
    if analysis.value is None and analysis.outcome is not None:
        _verdict(game, state, analysis, write)
    elif analysis.move is not None:
        described = analysis.description if analysis.value is None else \
            _value_words(analysis, analysis.value)
        best = analysis.extra.get("san") or game.format_move(analysis.move)
        write(f"best move: {best} ({described})")
    else:
        write(f"value: {analysis.description} for {names[mover]}")
    if _in_pawns(analysis):
        write(f"(values in pawns for {names[mover]}, the side to move)")
    if len(analysis.pv) > 1:
        line = analysis.extra.get("pv_san") or [game.format_move(m) for m in analysis.pv]
        write("principal variation: " + " ".join(line))
    _extra(game, state, analysis, write)
    figures = f"{analysis.nodes:,} nodes in {analysis.seconds:.3f} s" if analysis.nodes else \
        f"{analysis.seconds:.3f} s"
    depth = "" if analysis.exact or not analysis.depth else f", depth {analysis.depth}"
    write(f"{figures}{depth} ({analysis.engine})")


def _move_table(game: Game, analysis: Analysis, write: Write) -> None:
    """Each move with its value in words, best first (and the game's own score, if any)."""
    if analysis.value is None or not analysis.move_values:
        return
    scores = analysis.extra.get("benchmark_scores") or {}
    ranked = sorted(analysis.move_values.items(),
                    key=lambda item: -(item[1] if item[1] is not None else float("-inf")))
    san = analysis.extra.get("san")  # chess: the best move as players write it

    def named(move: Any) -> str:
        return san if san and move == analysis.move else game.format_move(move)

    width = max(len(named(m)) for m, _ in ranked)
    for move, value in ranked:
        text = named(move)
        words = "unknown" if value is None else _value_words(analysis, value)
        score = scores.get(game.format_move(move))
        write(f"  {text:>{width}}  {words}" + (f"  (score {score:+d})" if score else ""))


def _in_pawns(analysis: Analysis) -> bool:
    """Whether the engine's values are centipawns (chess, xiangqi: ``score_cp`` in extra)."""
    return "score_cp" in analysis.extra


def _value_words(analysis: Analysis, value: float) -> str:
    """A value in words; a chess engine's in the players' terms: pawns for the side to move
    (``+0.24``) and ``mate in 4`` / ``mated in 3`` (moves, not plies)."""
    if _in_pawns(analysis):
        return describe_centipawns(value, analysis.exact)
    return describe_value(value, analysis.exact, analysis.scale, analysis.bounded)


def _verdict(game: Game, state: Any, analysis: Analysis, write: Write) -> None:
    """Who wins, when the engine knows the outcome but not in how many moves (theory)."""
    names = game.player_names
    mover = game.to_move(state)
    reason = ""
    if analysis.extra.get("rule") == "misere":
        reason = "misère rule: "
    elif analysis.extra.get("grundy") is not None:
        reason = f"Grundy value {analysis.extra['grundy']}: "
    if analysis.outcome == 1:
        winning = [m for m, o in analysis.move_outcomes.items() if o == 1]
        count = "this move" if len(winning) == 1 else f"any of these {len(winning)} moves"
        write(f"{reason}{names[mover]} wins with {count}:")
        for move in winning[:LISTED_MOVES]:
            text, words = game.format_move(move), game.describe_move(state, move)
            write(f"  {text}" + (f"  = {words}" if words != text else ""))
        if len(winning) > LISTED_MOVES:
            write(f"  ... and {len(winning) - LISTED_MOVES} more (--json lists them all)")
    elif analysis.outcome == -1:
        write(f"{reason}{names[1 - mover]} wins; every move of {names[mover]} loses against "
              "best play.")
    else:
        write(f"{reason}a draw with best play.")


def _extra(game: Game, state: Any, analysis: Analysis, write: Write) -> None:
    """The documented extra fields that a person reads (the others are in --json)."""
    extra = analysis.extra
    names = game.player_names
    if extra.get("forced_line"):
        write(f"forced win ({extra.get('forced_kind')}): " + " ".join(extra["forced_line"]))
    if extra.get("opponent_vcf"):
        write(f"{names[1 - game.to_move(state)]} threatens a VCF: "
              + " ".join(extra["opponent_vcf"]))
    verdict = extra.get("tablebase")
    if isinstance(verdict, dict) and verdict.get("table"):  # chess: an endgame table's word
        moves, outcome = verdict.get("moves_to_mate"), verdict.get("outcome")
        length = "" if moves is None else \
            f", {'mate' if outcome == 'win' else 'mated'} in {moves} moves"
        write(f"endgame table {verdict['table']}: {outcome} for "
              f"{names[game.to_move(state)]}{length}")
    if extra.get("reason") and extra["reason"] != "search":
        write(f"found by: {extra['reason']}")
    if extra.get("pv_chinese"):  # xiangqi: the main line in traditional notation
        write("in traditional notation: " + " ".join(extra["pv_chinese"])
              + (f"  ({' '.join(extra['pv_wxf'])})" if extra.get("pv_wxf") else ""))
    if extra.get("perpetual"):
        write("the score is the repetition rule's: perpetual check loses")
    if extra.get("best_moves"):  # MCTS engines: the most visited moves (Go)
        write("most visited: " + ", ".join(
            f"{entry['move']} {entry['win_rate']:.0%} ({entry['visits']:,})"
            for entry in extra["best_moves"]))
    if extra.get("policy"):  # puct and net: the network's view, beside the truth if known
        _network_table(extra, write)
    trace = extra.get("trace_search")
    if trace:
        write(f"plain search to depth {trace['depth']}: {trace['nodes']:,} nodes, "
              f"value {trace['value']:+g}")
    if extra.get("benchmark_score") is not None and "benchmark_scores" not in extra:
        write(f"benchmark score: {extra['benchmark_score']:+d}")
    if extra.get("exploitability") is not None:
        write(f"exploitability: {extra['exploitability']:.3e} after {extra['iterations']:,} "
              f"iterations of {extra['algorithm']}"
              + (f" (stopped {extra['stopped']})" if extra.get("stopped") else ""))
    if isinstance(extra.get("strategy"), dict):
        write("strategy here: " + ", ".join(
            f"{game.format_move(m) if not isinstance(m, str) else m} {p:.1%}"
            for m, p in extra["strategy"].items()))
    for key in SHOWN_FIGURES:
        if key in extra:
            write(f"{key.replace('_', ' ')}: {extra[key]}")


POLICY_ROWS = 20  # moves listed in the network's table, most likely first


def _network_table(extra: Any, write: Write) -> None:
    truth, visits = extra.get("truth") or {}, extra.get("visits") or {}
    line = f"network value: {extra['network_value']:+.2f} for the side to move"
    if extra.get("truth_value"):
        line += f" (solved: {extra['truth_value']})"
    write(line)
    header = "  move  policy" + ("  visits" if visits else "") + ("  solved" if truth else "")
    write(header)
    ranked = sorted(extra["policy"].items(), key=lambda item: -item[1])
    for move, prior in ranked[:POLICY_ROWS]:
        row = f"  {move:>4}  {prior:6.1%}"
        if visits:
            row += f"  {visits.get(move, 0):>6,}"
        if truth:
            row += f"  {truth.get(move, '?')}"
        write(row)
    if len(ranked) > POLICY_ROWS:  # (a Gomoku board: hundreds of moves; --json has them all)
        rest = sum(prior for _, prior in ranked[POLICY_ROWS:])
        write(f"  ({len(ranked) - POLICY_ROWS} more moves, {rest:.1%} of the policy in all)")


def show_solution(game: Game, state: Any, moves: list[str], analysis: Analysis, *,
                  as_json: bool, write: Write = print) -> None:
    """``yipan solve``'s report: the value and the figures, compact (it doubles as a
    benchmark's output), or the JSON object."""
    if as_json:
        print_json(analysis.to_json(game, state, moves))
        return
    outcome = game.outcome(state)
    if outcome is not None:
        names = game.player_names
        result = "a draw" if outcome.winner is None else f"{names[outcome.winner]} has won"
        write(f"The game is over: {result}.")
        return
    number = "" if analysis.value is None else f"{analysis.value:g} "
    write(f"value: {number}({analysis.description} for the side to move)")
    if analysis.move is not None:
        write(f"best move: {game.format_move(analysis.move)}")
    if len(analysis.pv) > 1:
        write("principal variation: " + " ".join(game.format_move(m) for m in analysis.pv))
    _extra(game, state, analysis, write)
    write(f"nodes: {analysis.nodes}")
    write(f"time: {analysis.seconds * 1000:.2f} ms")
