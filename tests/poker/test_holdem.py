"""Hold'em: the seven-card evaluator against pokerkit, the equity tables, and the push-or-fold
equilibrium and charts (``yipan poker pushfold``)."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

from yipan.cli.main import main
from yipan.poker import cards, equity, evaluator, pushfold
from yipan.poker.cards import CLASS_NAMES, card, card_text, class_of

# -- cards -----------------------------------------------------------------------------------------


def test_the_169_classes_and_their_combinations():
    pairs = cards.combos()
    classes = cards.combo_classes(pairs)
    counts = np.bincount(classes, minlength=169)
    for number, name in enumerate(CLASS_NAMES):
        assert counts[number] == (6 if len(name) == 2 else 4 if name.endswith("s") else 12)
    assert CLASS_NAMES[0] == "AA" and CLASS_NAMES[1] == "AKs" and CLASS_NAMES[13] == "AKo"
    assert CLASS_NAMES[class_of(card("7c"), card("2d"))] == "72o"
    assert card_text(card("Ts")) == "Ts" and card("As") == 51


def test_card_removal_counts_the_deals():
    weights = cards.pair_weights()
    assert weights.sum() == 1326 * 1225
    assert weights[CLASS_NAMES.index("AA"), CLASS_NAMES.index("AA")] == 6  # the other two aces
    assert weights[CLASS_NAMES.index("AA"), CLASS_NAMES.index("KK")] == 36
    assert weights[CLASS_NAMES.index("AKs"), CLASS_NAMES.index("AKo")] == 4 * 6


# -- the evaluator against the reference -----------------------------------------------------------
pokerkit = pytest.importorskip("pokerkit", reason="the evaluator's referee (test extra)")


def reference_order(first: list[int], second: list[int]) -> int:
    def hand(seven: list[int]):
        text = [card_text(c) for c in seven]
        return pokerkit.StandardHighHand.from_game("".join(text[:2]), "".join(text[2:]))

    a, b = hand(first), hand(second)
    return (a > b) - (a < b)


@pytest.mark.parametrize("deck", ["full", "few ranks", "two suits"])
def test_the_evaluator_orders_hands_as_pokerkit_does(deck):
    """Random showdowns (two hands, one board); the small decks make the rare hands common."""
    rng = random.Random(hash(deck) % 1000)
    cards_in = {"full": list(range(52)),
                "few ranks": [c for c in range(52) if c // 4 in (0, 1, 2, 3, 11, 12)],
                "two suits": [c for c in range(52) if c % 4 in (1, 2)]}[deck]
    seen = set()
    for _ in range(250):
        dealt = rng.sample(cards_in, 9)
        first, second = dealt[:2] + dealt[4:], dealt[2:4] + dealt[4:]
        mine, theirs = evaluator.strength(np.array(first)), evaluator.strength(np.array(second))
        assert (mine > theirs) - (mine < theirs) == reference_order(first, second), \
            ([card_text(c) for c in first], [card_text(c) for c in second])
        seen.add(mine >> 20)
    assert len(seen) >= 5


@pytest.mark.parametrize(("hand", "name"), [
    ("As 2d 3c 4h 5s Kd Kc", "straight"), ("9h Th Jh Qh Kh 2c 2d", "straight flush"),
    ("Ah 2h 3h 4h 5h Kh Qh", "straight flush"), ("7c 7d 7h 2s 2d 2c Kd", "full house"),
    ("Ac Ad Kc Kd Qc Qd 2s", "two pair"), ("5c 5d 5h 5s Ac Ad Ah", "four of a kind"),
])
def test_the_evaluator_names_hard_hands(hand, name):
    assert evaluator.category(evaluator.strength(np.array([card(t) for t in hand.split()]))) \
        == name


def test_the_wheel_is_the_lowest_straight_and_kickers_count():
    def strength(text):
        return evaluator.strength(np.array([card(t) for t in text.split()]))

    assert strength("As 2d 3c 4h 5s") < strength("2d 3c 4h 5s 6h")
    assert strength("Ac Ad Kc 9d 2s 3h 4h") > strength("Ac Ad Qc Jd 2s 3h 4h")
    assert strength("Ac Ad Kc Kd Qc Qd 2s") == strength("Ac Ad Kc Kd Qs 2s 3h")


# -- equities --------------------------------------------------------------------------------------
def test_settling_boards_agrees_with_valuing_each_deal():
    """A few boards settled by the kernel, against every deal valued one by one."""
    rng = random.Random(8)
    pairs = cards.combos()
    classes = cards.combo_classes(pairs)
    masks = (np.uint64(1) << pairs[:, 0].astype(np.uint64)) | \
        (np.uint64(1) << pairs[:, 1].astype(np.uint64))
    chosen = [CLASS_NAMES.index(n) for n in ("AA", "KQs", "72o", "T9o")]
    for _ in range(2):
        board = np.array(rng.sample(range(52), 5))
        wins = np.zeros((169, 169), np.int64)
        deals = np.zeros((169, 169), np.int64)
        equity.settle_board(board, pairs, masks, classes, wins, deals,
                            np.empty(len(pairs), np.int64), 1)
        expected = np.zeros((169, 169), np.int64)
        counted = np.zeros((169, 169), np.int64)
        hands = [h for h in range(len(pairs)) if classes[h] in chosen
                 and not set(pairs[h]) & set(board)]
        for a, b in itertools.permutations(hands, 2):
            if set(pairs[a]) & set(pairs[b]):
                continue
            mine = evaluator.strength(np.concatenate([pairs[a], board]))
            theirs = evaluator.strength(np.concatenate([pairs[b], board]))
            expected[classes[a], classes[b]] += 2 if mine > theirs else 1 if mine == theirs else 0
            counted[classes[a], classes[b]] += 1
        grid = np.ix_(chosen, chosen)
        assert (wins[grid] == expected[grid]).all() and (deals[grid] == counted[grid]).all()


@pytest.fixture(scope="module")
def exact() -> equity.EquityTable:
    return pushfold.equity_table()


@pytest.mark.parametrize(("first", "second", "known", "within"), [
    ("AA", "KK", 0.8195, 1e-3), ("AKs", "QQ", 0.4605, 1e-3), ("22", "AKs", 0.50, 0.01),
    ("72o", "AA", 0.12, 0.005),
])
def test_the_exact_table_knows_the_famous_equities(exact, first, second, known, within):
    i, j = CLASS_NAMES.index(first), CLASS_NAMES.index(second)
    assert exact.exact and exact.boards == 2_598_960
    assert (exact.deals == equity.deal_counts()).all()
    assert exact.equity[i, j] == pytest.approx(known, abs=within)
    assert exact.equity[i, j] + exact.equity[j, i] == pytest.approx(1.0)


def test_sampled_boards_agree_with_the_exact_table_within_their_error(exact):
    sampled = equity.sampled_boards(300, random.Random(2))
    error = np.abs(sampled.equity - exact.equity)
    assert (error <= 5 * sampled.standard_errors() + 1e-9).all()


def test_an_equity_file_round_trips_and_damage_is_refused(tmp_path, exact):
    path = tmp_path / "equities.table"
    equity.save_table(path, exact)
    again = equity.load_table(path)
    assert (again.wins == exact.wins).all() and (again.deals == exact.deals).all()
    data = bytearray(path.read_bytes())
    data[300] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(equity.CorruptEquityTableError):
        equity.load_table(path)


# -- push or fold ----------------------------------------------------------------------------------
@pytest.mark.parametrize("stack", [2.0, 10.0, 17.5])
def test_each_side_best_responds_to_the_other(stack):
    """Tolerance: 1e-4 big blinds of exploitability (NashConv / 2)."""
    solution = pushfold.solve(stack)
    game = pushfold.PushFoldGame(stack)
    assert solution.exploitability < pushfold.DEFAULT_TOLERANCE
    fold, shove = game.small_blind_values(solution.call)
    chosen = np.where(solution.push > 0.5, shove, fold)
    assert (chosen >= np.maximum(fold, shove) - 1e-3).all()


def test_ten_big_blinds_ranges_are_the_known_ones():
    solution = pushfold.solve(10.0)
    held = pushfold.PushFoldGame(10.0).held
    push_share = (solution.push * held).sum()
    call_share = (solution.call * held).sum()
    assert push_share == pytest.approx(0.58, abs=0.02)
    assert call_share == pytest.approx(0.37, abs=0.02)
    ranges = solution.push_range()
    assert ranges["AA"] == 1.0 and ranges["72o"] < 0.01 and ranges["K2s"] > 0.99


def test_an_ante_widens_the_shoves():
    plain = pushfold.solve(10.0)
    anted = pushfold.solve(10.0, ante=0.125)
    held = pushfold.PushFoldGame(10.0).held
    assert (anted.push * held).sum() > (plain.push * held).sum()


def test_the_chart_in_json(capsys):
    assert main(["poker", "pushfold", "--chart", "--json"]) == 0
    chart = json.loads(capsys.readouterr().out)
    assert set(chart["push"]) == set(CLASS_NAMES) == set(chart["call"])
    assert chart["push"]["AA"] == 20.0 and chart["call"]["AA"] == 20.0
    assert chart["push"]["72o"] < chart["push"]["K2s"] <= 20.0
    assert chart["worst_exploitability"] < pushfold.DEFAULT_TOLERANCE
    packaged = pushfold.load_charts(pushfold.PACKAGED_CHARTS)  # what the web page serves
    assert set(packaged) == set(pushfold.CHART_ANTES)
    assert packaged[0.0].push == chart["push"] and packaged[0.0].call == chart["call"]


def test_the_grid_and_bad_input(capsys):
    assert main(["poker", "pushfold", "--stack", "10"]) == 0
    out = capsys.readouterr().out
    assert "Small blind shoves 10 bb" in out and "  A    100" in out
    assert main(["poker", "pushfold", "--stack", "-1"]) == 2
    assert main(["poker", "pushfold", "--stack", "1e999"]) == 2
    assert main(["poker"]) == 2
    assert "error" in capsys.readouterr().err


def test_the_web_api_serves_the_ranges():
    pytest.importorskip("fastapi", reason="the web app needs the web extra")
    from fastapi.testclient import TestClient

    from yipan.web import create_app

    with TestClient(create_app(max_running=1)) as client:
        answer = client.get("/api/poker/pushfold", params={"stack": 10})
        assert answer.status_code == 200
        assert answer.json()["push"]["AA"] == 1.0
        assert client.get("/api/poker/pushfold", params={"stack": 0}).status_code == 422
        assert client.get("/api/poker/pushfold", params={"stack": "x"}).status_code == 422
        assert client.get("/pushfold").status_code == 200
        chart = client.get("/api/poker/pushfold/chart", params={"ante": "0.125"})
        assert chart.status_code == 200 and chart.json()["push"]["AA"] == 20.0
        assert client.get("/api/poker/pushfold/chart", params={"ante": "0.3"}).status_code \
            == 422
