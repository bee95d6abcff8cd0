"""The Queens Game's REST API against the real server over HTTP: every endpoint, every bad
input, whole games, the AIs' moves, perfect play, games side by side, and the command."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.pages import two_player as web_game
from queens_autosolve.pages.two_player import MAX_BODY, GameServer
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.twoplayer.queens_game import QueensBoard, QueensGame
from queens_autosolve.twoplayer.queens_players import QUEENS_AIS

# A 4x4 map (4 connected regions) on which hard mode ends quickly.
FOUR = ["AABB", "AABB", "CCDD", "CCDD"]


@pytest.fixture(scope="module")
def server() -> Iterator[GameServer]:
    with GameServer() as running:
        yield running


def call(server: GameServer, path: str, body: object = None, *, raw: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict]:
    """POST `body` as JSON (or `raw` bytes) to `path`, or GET it when both are None."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json"} if data is not None else {}
    request = urllib.request.Request(server.url + path.lstrip("/"), data=data,
                                     headers={**sent, **(headers or {})},
                                     method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def ok(server: GameServer, path: str, body: object = None) -> dict:
    status, answer = call(server, path, body)
    assert status == 200, answer
    return answer


def new_game(server: GameServer, n: int = 6, mode: str = "easy", **extra: object) -> dict:
    return ok(server, "/api/game/init", {"n": n, "mode": mode, **extra})


def cells(moves: list[dict]) -> set[tuple[int, int]]:
    return {(m["row"], m["col"]) for m in moves}


def engine_game(state: dict) -> QueensGame:
    """The engine's own game for a GameState, to check the server against."""
    board = QueensBoard.from_rows(state["labels"], state["mode"])
    game = QueensGame(board)
    for queen in state["queens"]:
        game.push((queen["row"], queen["col"]))
    return game


# --- every endpoint ------------------------------------------------------------------------------


def test_init_answers_a_game_state_and_a_seed_gives_the_same_map(server):
    first = new_game(server, 8, "hard", seed=42)
    again = new_game(server, 8, "hard", seed=42)
    assert set(first) >= {"game_id", "n", "mode", "regions", "queens", "current_player", "game_over",
                          "winner", "valid_moves"}
    assert first["n"] == 8 and first["mode"] == "hard" and first["queens"] == []
    assert first["current_player"] == 1 and first["game_over"] is False and first["winner"] is None
    assert len(first["valid_moves"]) == 64 and first["regions"] == again["regions"]
    assert first["game_id"] != again["game_id"]
    assert len({v for row in first["regions"] for v in row}) == 8


@pytest.mark.parametrize("regions", [FOUR, "\n".join(FOUR), "# four n=4\n" + "\n".join(FOUR) + "\n"])
def test_init_loads_a_map_in_the_puzzle_text_format(server, regions):
    state = new_game(server, 4, "hard", regions=regions)
    assert state["labels"] == FOUR and state["seed"] is None


def test_move_places_a_queen_for_the_player_to_move(server):
    state = new_game(server, 6, "easy", seed=1)
    after = ok(server, "/api/game/move", {"game_id": state["game_id"], "row": 2, "col": 3})
    assert after["queens"] == [{"row": 2, "col": 3, "player": 1}] and after["current_player"] == 2
    assert cells(after["valid_moves"]) == set(engine_game(after).legal_moves())
    second = ok(server, "/api/game/move", {"game_id": state["game_id"], **after["valid_moves"][0]})
    assert second["queens"][1]["player"] == 2 and second["current_player"] == 1


@pytest.mark.parametrize("level", QUEENS_AIS.names)
def test_ai_move_plays_a_legal_move_and_says_how_long_it_thought(server, level):
    state = new_game(server, 6, "hard", seed=5)
    after = ok(server, "/api/game/ai-move", {"game_id": state["game_id"], "level": level})
    move = (after["ai_move"]["row"], after["ai_move"]["col"])
    assert move in cells(state["valid_moves"])
    assert after["queens"] == [{"row": move[0], "col": move[1], "player": 1}]
    assert after["level"] == level and 0 <= after["thought_ms"] < 60_000 and after["fallback"] is None


def test_valid_moves_undo_and_reset(server):
    state = new_game(server, 5, "easy", seed=3)
    game_id = state["game_id"]
    ok(server, "/api/game/move", {"game_id": game_id, "row": 0, "col": 0})
    after = ok(server, "/api/game/ai-move", {"game_id": game_id, "level": "greedy"})
    valid = ok(server, "/api/game/valid-moves", {"game_id": game_id})
    assert valid == {"game_id": game_id, "valid_moves": after["valid_moves"]}
    undone = ok(server, "/api/game/undo", {"game_id": game_id})
    assert undone["queens"] == [{"row": 0, "col": 0, "player": 1}] and undone["current_player"] == 2
    ok(server, "/api/game/ai-move", {"game_id": game_id, "level": "random"})
    both = ok(server, "/api/game/undo", {"game_id": game_id, "count": 2})
    assert both["queens"] == [] and both["valid_moves"] == state["valid_moves"]
    ok(server, "/api/game/move", {"game_id": game_id, "row": 4, "col": 4})
    reset = ok(server, "/api/game/reset", {"game_id": game_id})
    assert {k: v for k, v in reset.items()} == state


def test_analysis_marks_each_legal_move_win_or_lose_as_the_engine_does(server):
    state = new_game(server, 6, "easy", seed=11)
    ok(server, "/api/game/move", {"game_id": state["game_id"], "row": 1, "col": 1})
    answer = ok(server, f"/api/game/analysis?game_id={state['game_id']}")
    assert answer["status"] == "solved" and answer["to_move"] == 2
    game = engine_game(ok(server, "/api/game/valid-moves", {"game_id": state["game_id"]}) | state)
    game.push((1, 1))
    from queens_autosolve.twoplayer.queens_solver import analyse

    winning = set(analyse(game).winning_moves)
    assert {(m["row"], m["col"]) for m in answer["moves"] if m["result"] == "win"} == winning
    assert cells(answer["moves"]) == set(game.legal_moves())
    assert answer["perfect_winner"] == (2 if winning else 1)


def test_analysis_of_a_board_too_large_says_so_instead_of_hanging(server, monkeypatch):
    # 12x12 takes far longer than the page's 2 s; a shorter limit shows the same answer sooner
    monkeypatch.setattr(web_game, "ANALYSIS_SECONDS", 0.3)
    state = new_game(server, 12, "easy", seed=2)
    answer = ok(server, f"/api/game/analysis?game_id={state['game_id']}")
    assert answer["status"] == "too_large"
    assert "too large" in answer["message"] and "0.3 s" in answer["message"]


def test_the_page_and_its_files_are_served(server):
    with urllib.request.urlopen(server.url, timeout=5) as response:
        page = response.read().decode()
        assert response.headers["Content-Type"].startswith("text/html")
    assert "<title>Queens Game</title>" in page and "game.js" in page and 'role="grid"' in page
    for name, kind in (("game.js", "text/javascript"), ("game.css", "text/css")):
        with urllib.request.urlopen(server.url + name, timeout=5) as response:
            assert response.headers["Content-Type"].startswith(kind)
    assert "function cellLines" in urllib.request.urlopen(server.url + "game.js", timeout=5).read().decode()


# --- bad input: a 400 with a one-line error naming what is wrong --------------------------------


def assert_refused(answer: tuple[int, dict], status: int, *words: str) -> None:
    code, body = answer
    assert code == status, body
    assert set(body) == {"error"} and "\n" not in body["error"]
    for word in words:
        assert word in body["error"], body["error"]


@pytest.mark.parametrize(
    ("mode", "queen", "cell", "rule"),
    [
        ("hard", (0, 0), (0, 3), "same row"),
        ("hard", (0, 0), (3, 0), "same column"),
        ("hard", (0, 0), (1, 1), "same region"),
        ("hard", (0, 0), (2, 2), "diagonal"),
        ("easy", (0, 1), (1, 2), "diagonal neighbour"),
        ("easy", (0, 0), (0, 0), "already holds a queen"),
    ],
)
def test_an_illegal_move_names_the_rule_it_breaks(server, mode, queen, cell, rule):
    state = new_game(server, 4, mode, regions=FOUR)
    ok(server, "/api/game/move", {"game_id": state["game_id"], "row": queen[0], "col": queen[1]})
    answer = call(server, "/api/game/move", {"game_id": state["game_id"], "row": cell[0], "col": cell[1]})
    assert_refused(answer, 400, "illegal move", rule)


def finished_game(server: GameServer) -> dict:
    state = new_game(server, 4, "hard", regions=FOUR)
    while not state["game_over"]:
        state = ok(server, "/api/game/ai-move", {"game_id": state["game_id"], "level": "random"})
    return state


def test_moves_after_the_game_is_over_are_refused(server):
    state = finished_game(server)
    game_id = state["game_id"]
    move = {"game_id": game_id, "row": 3, "col": 3}
    assert_refused(call(server, "/api/game/move", move), 400, "game is over")
    assert_refused(call(server, "/api/game/ai-move", {"game_id": game_id, "level": "perfect"}), 400,
                   "game is over")


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"row": -1, "col": 0}, ["off the 6x6 board"]),
        ({"row": 0, "col": 6}, ["off the 6x6 board"]),
        ({"row": 10**400, "col": 0}, ["off the 6x6 board"]),
        ({"row": "1", "col": 0}, ["row must be a whole number"]),
        ({"row": 1.0, "col": 0}, ["row must be a whole number"]),
        ({"row": True, "col": 0}, ["row must be a whole number"]),
        ({"row": 1}, ["col must be a whole number"]),
        ({"row": 1, "col": None}, ["col must be a whole number"]),
    ],
)
def test_out_of_range_cells_and_wrong_types_in_a_move_are_refused(server, fields, words):
    state = new_game(server, 6, "easy", seed=1)
    assert_refused(call(server, "/api/game/move", {"game_id": state["game_id"], **fields}), 400, *words)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"n": 3, "mode": "easy"}, ["n 3 is out of range 4..12"]),
        ({"n": 13, "mode": "easy"}, ["n 13 is out of range 4..12"]),
        ({"n": 10**400, "mode": "easy"}, ["out of range"]),
        ({"n": "8", "mode": "easy"}, ["n must be a whole number"]),
        ({"n": 8.0, "mode": "easy"}, ["n must be a whole number"]),
        ({"n": True, "mode": "easy"}, ["n must be a whole number"]),
        ({"mode": "easy"}, ["n is missing"]),
        ({"n": 8, "mode": "medium"}, ["mode must be 'easy' or 'hard'"]),
        ({"n": 8}, ["mode must be"]),
        ({"n": 8, "mode": "easy", "seed": "x"}, ["seed must be a whole number"]),
        ({"n": 8, "mode": "easy", "seed": -1}, ["seed -1 is out of range"]),
        ({"n": 8, "mode": "easy", "size": 8}, ["unknown field 'size'"]),
        ({"n": 4, "mode": "easy", "seed": 1, "regions": FOUR}, ["seed or regions, not both"]),
        ({"n": 4, "mode": "easy", "regions": 5}, ["regions must be"]),
        ({"n": 4, "mode": "easy", "regions": ["AABB", 5]}, ["regions must be"]),
        ({"n": 4, "mode": "easy", "regions": ["AABB", "AABB", "CCDD"]},
         ["region map has 3 lines", "4 lines of 4"]),
        ({"n": 4, "mode": "easy", "regions": ["AABB", "AABB", "CCCC", "CCCC"]}, ["has 3 regions"]),
        ({"n": 4, "mode": "easy", "regions": ["ABBB", "BBBB", "CCDD", "ACDD"]}, ["region A is in pieces"]),
        ({"n": 4, "mode": "easy", "regions": ["AABB", "AABB", "CCDD", "CCDDD"]},
         ["line 4 of the region map has 5 letters"]),
        ({"n": 5, "mode": "easy", "regions": FOUR}, ["region map has 4 lines; the board is 5x5"]),
        ({"n": 4, "mode": "easy", "regions": ""}, ["region map has 0 lines"]),
    ],
)
def test_bad_new_games_are_refused(server, body, words):
    assert_refused(call(server, "/api/game/init", body), 400, *words)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"{", ["Expecting"]),
        (b"[1, 2]", ["JSON object"]),
        (b'{"n": NaN, "mode": "easy"}', ["NaN"]),
        (b'{"n": 1e999, "mode": "easy"}', ["n must be a whole number"]),
        (b"[" * 30_000 + b"]" * 30_000, []),
        (b"\xff\xfe{}", []),
    ],
    ids=["truncated", "list", "NaN", "1e999", "deep", "not-utf8"],
)
def test_malformed_json_is_a_400_and_the_server_goes_on(server, raw, words, capsys):
    assert_refused(call(server, "/api/game/init", raw=raw), 400, *words)
    assert new_game(server)["game_id"]
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("path", ["/api/game/move", "/api/game/ai-move", "/api/game/valid-moves",
                                  "/api/game/undo", "/api/game/reset"])
def test_a_game_id_that_is_no_string_is_a_400_and_an_unknown_game_a_404(server, path):
    body = {"row": 0, "col": 0, "level": "random"}
    assert_refused(call(server, path, {"game_id": 7, **body}), 400, "game_id")
    assert_refused(call(server, path, body), 400, "game_id")
    assert_refused(call(server, path, {"game_id": "feedfacefeedface", **body}), 404, "no game")


def test_analysis_of_an_unknown_or_missing_game(server):
    assert_refused(call(server, "/api/game/analysis?game_id=nope"), 404, "no game 'nope'")
    assert_refused(call(server, "/api/game/analysis"), 400, "game_id")


def test_other_bad_requests(server):
    game_id = new_game(server)["game_id"]
    assert_refused(call(server, "/api/game/ai-move", {"game_id": game_id, "level": "genius"}), 400,
                   "level must be one of random, greedy, search, perfect")
    assert_refused(call(server, "/api/game/undo", {"game_id": game_id}), 400, "nothing to undo")
    assert_refused(call(server, "/api/game/undo", {"game_id": game_id, "count": 3}), 400, "count 3")
    assert_refused(call(server, "/api/game/nothing", {"game_id": game_id}), 404)
    assert_refused(call(server, "/api/game/nothing"), 404, "no such page")


def test_request_bodies_are_capped(server):
    big = json.dumps({"n": 8, "mode": "easy", "regions": "A" * MAX_BODY}).encode()
    assert_refused(call(server, "/api/game/init", raw=big), 400, "too large")


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Content-Type": "text/plain"}, 415),
        ({"Origin": "https://evil.example"}, 403),
        ({"Origin": "http://127.0.0.1:1"}, 403),
    ],
)
def test_only_json_from_the_page_itself_is_taken(server, headers, status):
    raw = json.dumps({"n": 6, "mode": "easy"}).encode()
    assert_refused(call(server, "/api/game/init", raw=raw, headers=headers), status)


def test_the_page_own_origin_is_taken(server):
    raw = json.dumps({"n": 6, "mode": "easy"}).encode()
    origin = server.url.rstrip("/")
    status, answer = call(server, "/api/game/init", raw=raw, headers={"Origin": origin})
    assert status == 200 and answer["n"] == 6


# --- whole games ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "mode", "seed"),
                         [(4, "hard", 1), (6, "easy", 2), (8, "hard", 3), (8, "easy", 4), (12, "easy", 5)])
def test_a_whole_game_through_the_api_ends_with_the_last_mover_winning(server, n, mode, seed):
    rng = random.Random(seed)
    state = new_game(server, n, mode, seed=seed)
    placed = []
    while not state["game_over"]:
        move = rng.choice(state["valid_moves"])
        placed.append((move["row"], move["col"]))
        state = ok(server, "/api/game/move", {"game_id": state["game_id"], **move})
    last = 1 if len(placed) % 2 else 2
    assert state["winner"] == last and state["valid_moves"] == []
    assert [(q["row"], q["col"]) for q in state["queens"]] == placed
    assert f"Player {last} wins" in state["reason"]
    assert ("board is full" in state["reason"]) == (len(placed) == n)
    assert engine_game(state).is_over()


@pytest.mark.parametrize("level", QUEENS_AIS.names)
def test_ai_moves_are_always_legal(server, level):
    for seed in range(6):
        n, mode = 5 + seed % 3, ("easy", "hard")[seed % 2]
        state = new_game(server, n, mode, seed=seed)
        while not state["game_over"]:
            legal = cells(state["valid_moves"])
            state = ok(server, "/api/game/ai-move", {"game_id": state["game_id"], "level": level})
            assert (state["ai_move"]["row"], state["ai_move"]["col"]) in legal
        assert engine_game(state).is_over()


def test_perfect_play_never_loses_a_position_the_engine_calls_won(server):
    """Random plays until the perfect AI is to move in a position the analysis calls won for it;
    from there the perfect AI must win, over many maps."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        n, mode = 4 + seed % 4, ("easy", "hard")[seed % 2]
        state = new_game(server, n, mode, seed=seed)
        game_id = state["game_id"]
        perfect = 1 + seed % 2  # who the perfect AI is this game
        won = False
        while not state["game_over"]:
            if state["current_player"] == perfect:
                if not won:
                    analysis = ok(server, f"/api/game/analysis?game_id={game_id}")
                    won = analysis["perfect_winner"] == perfect
                state = ok(server, "/api/game/ai-move", {"game_id": game_id, "level": "perfect"})
            else:
                state = ok(server, "/api/game/move", {"game_id": game_id, **rng.choice(state["valid_moves"])})
        if won:
            checked += 1
            assert state["winner"] == perfect, f"seed {seed}: perfect lost a won game"
    assert checked >= 20


# --- games side by side, the store's bound, loopback only ----------------------------------------


def test_two_games_at_once_stay_separate(server):
    first = new_game(server, 6, "easy", seed=7)
    second = new_game(server, 8, "hard", seed=8)
    errors: list[BaseException] = []

    def play(state: dict, rng: random.Random) -> None:
        try:
            while not state["game_over"]:
                move = rng.choice(state["valid_moves"])
                state = ok(server, "/api/game/move", {"game_id": state["game_id"], **move})
                for queen in state["queens"]:
                    assert queen["row"] < state["n"] and queen["col"] < state["n"]
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(state, random.Random(i)))
               for i, state in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    ends = [ok(server, "/api/game/valid-moves", {"game_id": s["game_id"]}) for s in (first, second)]
    assert all(end["valid_moves"] == [] for end in ends)
    one = ok(server, "/api/game/reset", {"game_id": first["game_id"]})
    other = ok(server, "/api/game/undo", {"game_id": second["game_id"]})
    assert one["queens"] == [] and one["n"] == 6 and other["n"] == 8 and other["queens"]


def test_the_oldest_games_are_dropped_past_the_bound():
    with GameServer(max_games=3) as small:
        ids = [new_game(small)["game_id"] for _ in range(3)]
        ok(small, "/api/game/valid-moves", {"game_id": ids[0]})  # used: now the newest
        ids.append(new_game(small)["game_id"])
        assert len(small.store) == 3
        assert call(small, "/api/game/valid-moves", {"game_id": ids[1]})[0] == 404
        for kept in (ids[0], ids[2], ids[3]):
            assert call(small, "/api/game/valid-moves", {"game_id": kept})[0] == 200


def test_the_server_listens_on_loopback_only(server):
    assert server.url.startswith("http://127.0.0.1:")
    with pytest.raises(QueensError, match="not a loopback address"):
        GameServer(host="0.0.0.0")


# --- the command ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "70000"], "argument --port: '70000' is not a whole number from 0 to 65535"),
        (["--size", "13"], "--size 13"),
        (["--p1", "greedy", "--p2", "perfect"], "a person plays"),
        (["--plain", "6"], "random map"),
    ],
)
def test_the_web_command_refuses_bad_options_in_one_line(args, message, capsys):
    status = main(["play", "queens", "--web", "--no-open", *args])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err


def test_the_web_command_serves_the_game_and_prints_its_url():
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "queens_autosolve", "play", "queens", "--web", "--no-open", "--size", "6",
         "--mode", "easy", "--seed", "3", "--p1", "greedy", "--p2", "human"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # Ctrl-C reaches it as from a terminal (tests/conftest.py pytest_configure)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line.startswith("Queens Game at http://127.0.0.1:"), line
        url = line.split(" at ", 1)[1].strip()
        assert url.endswith("?n=6&mode=easy&seed=3&opponent=ai&first=ai&level=greedy")
        with urllib.request.urlopen(url, timeout=5) as response:
            assert b"Queens Game" in response.read()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)  # faulthandler prints where every thread hangs
            out, err = process.communicate(timeout=10)
            raise AssertionError(f"Ctrl-C did not stop the server within 30 s:\n{err}") from None
    assert process.returncode == 0 and "stopped" in out and "Traceback" not in err


def test_state_reads_the_game_as_it_stands(server):
    state = new_game(server, 5, "hard", seed=9)
    after = ok(server, "/api/game/move", {"game_id": state["game_id"], "row": 0, "col": 0})
    assert ok(server, f"/api/game/state?game_id={state['game_id']}") == after
    assert_refused(call(server, "/api/game/state?game_id=nope"), 404, "no game")
