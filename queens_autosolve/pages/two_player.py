"""The two-player Queens Game in the browser: games kept in memory by id, served as a REST API and
a page on the loopback stack the practice page uses (`autosolve.web.http`).

HTTP API (JSON; players are 1 and 2, cells 0-based ``row``/``col`` from the top left):

- ``POST /api/game/init`` ``{n, mode, seed?, regions?}`` starts a game: n 4..12, mode ``easy`` or
  ``hard``, a random region map from `seed` (a random seed when absent) or `regions` in the
  puzzle text format (one string, or a list of N rows of labels). Answers a `GameState`.
- ``POST /api/game/move`` ``{game_id, row, col}``: the player to move places a queen.
- ``POST /api/game/ai-move`` ``{game_id, level}``: the AI (random, greedy, search, perfect)
  moves for the player to move; the state carries ``ai_move`` and ``thought_ms``.
- ``POST /api/game/valid-moves`` ``{game_id}``: ``{valid_moves}``.
- ``POST /api/game/undo`` ``{game_id, count?}``: take back the last 1 (or 2) queens.
- ``POST /api/game/reset`` ``{game_id}``: the same board, empty again.
- ``GET /api/game/state?game_id=...``: the `GameState` as it stands.
- ``GET /api/game/analysis?game_id=...``: each legal move ``win`` or ``lose`` under perfect
  play, or ``status: "too_large"`` when that takes longer than `ANALYSIS_SECONDS`.

A `GameState` is ``{game_id, n, mode, seed, regions, labels, queens: [{row, col, player}],
current_player, game_over, winner, reason, valid_moves: [{row, col}]}``. Bad input is a 400
with a one-line ``{error}`` (an illegal move names the rule it breaks), an unknown game a 404.
At most `GameStore.max_games` games are kept; starting one more drops the least recently used.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path

from queens_autosolve.pages.http import HttpError, LoopbackServer, Request, Response, Routes, json_response
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.formats import parse_puzzle
from queens_autosolve.solver.puzzle import Cell
from queens_autosolve.twoplayer.game_search import Limit
from queens_autosolve.twoplayer.players import Player
from queens_autosolve.twoplayer.queens_game import (
    DEFAULT_AI,
    DEFAULT_MODE,
    DEFAULT_SIZE,
    MODES,
    Mode,
    QueensBoard,
    QueensGame,
)
from queens_autosolve.twoplayer.queens_players import QUEENS_AIS, PerfectPlayer, QueensSearchPlayer
from queens_autosolve.twoplayer.queens_solver import SolveTimeout
from queens_autosolve.twoplayer.queens_split import prove_children

STATIC = Path(__file__).resolve().parent / "two_player_static"
PAGE_TITLE = "Queens Game"
MIN_SIZE, MAX_SIZE = 4, 12
MAX_GAMES = 64
MAX_BODY = 1 << 14  # a 12x12 map in the text format is under 200 bytes
MAX_SEED = (1 << 63) - 1
ANALYSIS_SECONDS = 2.0  # past this the analysis answers "too large" instead of making the page wait
PERFECT_SECONDS = 10.0  # past this the perfect AI plays the search AI's move (and says so)
SEARCH_LIMIT = Limit(time=0.5)
MAX_MEMO = 1_000_000  # positions a game's solver may remember (about 100 MB) before it starts over
INIT_FIELDS = frozenset({"n", "mode", "seed", "regions"})


@dataclass
class WebGame:
    """One game in memory: the engine's game (its move stack gives undo and reset), the seed of
    its map, and its AIs, kept so the perfect player's memo serves every move of the game.
    `lock` serialises the requests on one game."""

    game_id: str
    game: QueensGame
    seed: int | None
    ais: dict[str, Player[QueensGame, Cell]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    colours: list[str] = field(default_factory=list)
    colour_names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Loaded with the first game, not with the server: colour science needs numpy (0.3 s),
        # and the address should show as soon as the server listens.
        from queens_autosolve.pages.two_player_colours import PALETTE, region_colours
        from queens_autosolve.vision.colour_names import hex_rgb, region_colour_names

        regions = self.game.board.regions
        self.colours = region_colours(regions) if regions is not None else [PALETTE[0]]
        self.colour_names = list(region_colour_names([hex_rgb(c) for c in self.colours]) or ())

    def ai(self, level: str) -> Player[QueensGame, Cell]:
        if level not in self.ais:
            self.ais[level] = QUEENS_AIS.make(level, secrets.randbelow(1 << 32), SEARCH_LIMIT)
        return self.ais[level]

    def perfect(self) -> PerfectPlayer:
        player = self.ai("perfect")
        assert isinstance(player, PerfectPlayer)
        return player

    def state(self) -> dict[str, object]:
        """The GameState JSON."""
        game, board = self.game, self.game.board
        winner = game.winner()
        return {
            "game_id": self.game_id,
            "n": board.n,
            "mode": board.mode,
            "seed": self.seed,
            "regions": [list(row) for row in board.regions or ()],
            "colours": self.colours,
            "colour_names": self.colour_names,
            "labels": board.label_rows(),
            "queens": [{"row": r, "col": c, "player": i % 2 + 1} for i, (r, c) in enumerate(game.queens)],
            "current_player": game.turn + 1,
            "game_over": game.is_over(),
            "winner": None if winner is None else winner + 1,
            "reason": game_over_reason(game),
            "valid_moves": cells_json(game.legal_moves()),
        }


def cells_json(cells: list[Cell]) -> list[dict[str, int]]:
    return [{"row": r, "col": c} for r, c in cells]


def game_over_reason(game: QueensGame) -> str | None:
    """Why the game ended, naming the winner; None while it goes on.

    >>> game = QueensGame(QueensBoard.plain(1))
    >>> game.push((0, 0))
    >>> game_over_reason(game)
    'Player 1 wins: the board is full (all 1 queens placed) and Player 1 placed the last one'
    """
    winner = game.winner()
    if winner is None:
        return None
    n = game.board.n
    if len(game.queens) == n:
        return (f"Player {winner + 1} wins: the board is full (all {n} queens placed) "
                f"and Player {winner + 1} placed the last one")
    return f"Player {winner + 1} wins: Player {2 - winner} has no legal move left"


class GameStore:
    """The games in memory by id, least recently used first; thread-safe."""

    def __init__(self, max_games: int = MAX_GAMES) -> None:
        self.max_games = max_games
        self._games: OrderedDict[str, WebGame] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: QueensGame, seed: int | None) -> WebGame:
        web = WebGame(secrets.token_hex(8), game, seed)
        with self._lock:
            self._games[web.game_id] = web
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)
        return web

    def find(self, game_id: object) -> WebGame:
        """The game `game_id` names; 400 when it is no id, 404 when no such game is kept."""
        if not isinstance(game_id, str) or not game_id:
            raise ValueError("game_id must be the string /api/game/init answered")
        with self._lock:
            web = self._games.get(game_id)
            if web is None:
                raise HttpError(HTTPStatus.NOT_FOUND,
                                f"no game {game_id[:40]!r}: it ended or was never started")
            self._games.move_to_end(game_id)
            return web

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)

    def ids(self) -> list[str]:
        """The ids of the games kept, least recently used first (for tests and the log)."""
        with self._lock:
            return list(self._games)


# --- reading requests ----------------------------------------------------------------------------


def whole_number(body: dict[str, object], name: str, low: int, high: int) -> int:
    """`body[name]` as an int in low..high; ValueError (a 400) naming the field otherwise."""
    if name not in body:
        raise ValueError(f"{name} is missing")
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {type(value).__name__}")
    if not low <= value <= high:
        shown = value if abs(value) < 10**9 else "(a huge number)"
        raise ValueError(f"{name} {shown} is out of range {low}..{high}")
    return value


def new_game(body: dict[str, object]) -> tuple[QueensGame, int | None]:
    """The game an init request asks for, and the seed of its map (None for a loaded map)."""
    unknown = sorted(set(body) - INIT_FIELDS)
    if unknown:
        raise ValueError(f"unknown field {unknown[0][:40]!r}: use n, mode, seed, regions")
    n = whole_number(body, "n", MIN_SIZE, MAX_SIZE)
    mode = body.get("mode")
    if mode not in MODES:
        raise ValueError(f"mode must be 'easy' or 'hard', not {str(mode)[:20]!r}")
    regions, seed = body.get("regions"), body.get("seed")
    if regions is not None and seed is not None:
        raise ValueError("give seed or regions, not both")
    if regions is not None:
        return QueensGame(loaded_board(regions, n, mode)), None
    seed = secrets.randbelow(1 << 31) if seed is None else whole_number(body, "seed", 0, MAX_SEED)
    return QueensGame(QueensBoard.random(n, seed, mode)), seed


def loaded_board(regions: object, n: int, mode: Mode) -> QueensBoard:
    """A board from a region map in the puzzle text format (one string, or a list of rows)."""
    if isinstance(regions, list) and all(isinstance(row, str) for row in regions):
        text = "\n".join(regions)
    elif isinstance(regions, str):
        text = regions
    else:
        raise ValueError("regions must be the puzzle text (a string) or a list of N strings of labels")
    _check_square(text, n)
    try:
        puzzle = parse_puzzle(text, "regions")
        puzzle.validate()
    except QueensError as exc:
        raise ValueError(f"bad region map: {exc}") from None
    if puzzle.n != n:
        raise ValueError(f"the region map is {puzzle.n}x{puzzle.n} but n is {n}")
    board = QueensBoard.from_puzzle(puzzle, mode)
    split = board.split_region()
    if split is not None:
        raise ValueError(f"bad region map: region {split} is in pieces; it needs N connected regions")
    return board


def _check_square(text: str, n: int) -> None:
    """Refuse a region map that is not n lines of n letters, in the words of the page's form
    (the text format's own message names a file and line: "regions:1: ... 1 rows")."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    tokens = any(len(line.split()) > 1 for line in lines)
    widths = [len(line.split()) if tokens else len(line) for line in lines]
    if len(lines) != n:
        raise ValueError(f"the region map has {_count(len(lines), 'line')}; the board is {n}x{n}: "
                         f"give {n} lines of {n} region letters")
    for number, width in enumerate(widths, start=1):
        if width != n:
            raise ValueError(f"line {number} of the region map has {_count(width, 'letter')}; "
                             f"give {n} on every line (the board is {n}x{n})")


def _count(number: int, thing: str) -> str:
    """ "1 line", "3 lines"."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def requested_cell(body: dict[str, object], web: WebGame) -> Cell:
    """The cell of a move request, on the board, free and the game not over; ValueError naming
    what is wrong (an occupied or attacked cell: the rule it breaks)."""
    n, game = web.game.board.n, web.game
    row, col = (_line_number(body, name, n) for name in ("row", "col"))
    if not (0 <= row < n and 0 <= col < n):
        raise ValueError(f"cell (row {_short(row)}, col {_short(col)}) is off the {n}x{n} board "
                         f"(rows and columns 0..{n - 1})")
    cell = (row, col)
    refuse_if_over(game)
    why = game.illegal_reason(cell)
    if why is not None:
        raise ValueError(f"illegal move: {game.move_name(cell)} (row {row}, col {col}) {why}")
    return cell


def _line_number(body: dict[str, object], name: str, n: int) -> int:
    """`body[name]` (row or col) as an int, not yet checked against the board."""
    value = body.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number from 0 to {n - 1}")
    return value


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 12 else text[:12] + "..."


def refuse_if_over(game: QueensGame) -> None:
    if game.is_over():
        raise ValueError(f"the game is over ({game_over_reason(game)}); reset or start a new game")


# --- what the endpoints do -------------------------------------------------------------------------


class GameApi:
    """The endpoints' work on a `GameStore`, one method per endpoint."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def routes(self) -> Routes:
        routes = Routes()
        routes.page(STATIC, self.render_index)
        routes.post("/api/game/init", self.init)
        routes.post("/api/game/move", self.move)
        routes.post("/api/game/ai-move", self.ai_move)
        routes.post("/api/game/valid-moves", self.valid_moves)
        routes.post("/api/game/undo", self.undo)
        routes.post("/api/game/reset", self.reset)
        routes.get("/api/game/state", self.state)
        routes.get("/api/game/analysis", self.analysis)
        return routes

    def render_index(self) -> bytes:
        """The page with its title and the game's defaults filled in."""
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        for name, value in (("__TITLE__", PAGE_TITLE), ("__SIZE__", str(DEFAULT_SIZE)),
                            ("__MODE__", DEFAULT_MODE), ("__LEVEL__", DEFAULT_AI)):
            html = html.replace(name, value)
        return html.encode("utf-8")

    def init(self, request: Request) -> Response:
        game, seed = new_game(request.json())
        return json_response(self.store.add(game, seed).state())

    def move(self, request: Request) -> Response:
        body = request.json()
        web = self.store.find(body.get("game_id"))
        with web.lock:
            web.game.push(requested_cell(body, web))
            return json_response(web.state())

    def ai_move(self, request: Request) -> Response:
        body = request.json()
        web = self.store.find(body.get("game_id"))
        level = body.get("level")
        if level not in QUEENS_AIS.names:
            raise ValueError(f"level must be one of {', '.join(QUEENS_AIS.names)}, not {str(level)[:20]!r}")
        with web.lock:
            refuse_if_over(web.game)
            player = web.game.turn + 1
            start = time.perf_counter()
            cell, fallback = choose_move(web, level)
            thought = time.perf_counter() - start
            web.game.push(cell)
            state = web.state()
        state["ai_move"] = {"row": cell[0], "col": cell[1], "player": player}
        state["level"] = level
        state["thought_ms"] = round(thought * 1000, 1)
        state["fallback"] = fallback
        return json_response(state)

    def valid_moves(self, request: Request) -> Response:
        web = self.store.find(request.json().get("game_id"))
        with web.lock:
            return json_response({"game_id": web.game_id, "valid_moves": cells_json(web.game.legal_moves())})

    def undo(self, request: Request) -> Response:
        body = request.json()
        web = self.store.find(body.get("game_id"))
        count = whole_number(body, "count", 1, 2) if "count" in body else 1
        with web.lock:
            if len(web.game.queens) < count:
                raise ValueError(f"nothing to undo: {len(web.game.queens)} queen(s) on the board")
            for _ in range(count):
                web.game.pop()
            return json_response(web.state())

    def reset(self, request: Request) -> Response:
        web = self.store.find(request.json().get("game_id"))
        with web.lock:
            while web.game.stack:
                web.game.pop()
            return json_response(web.state())

    def state(self, request: Request) -> Response:
        web = self.store.find(request.query.get("game_id"))
        with web.lock:
            return json_response(web.state())

    def analysis(self, request: Request) -> Response:
        web = self.store.find(request.query.get("game_id"))
        with web.lock:
            return json_response({"game_id": web.game_id, **analyse_moves(web)})


def choose_move(web: WebGame, level: str) -> tuple[Cell, str | None]:
    """The AI's move, and the level it fell back to (None: it did not). The perfect AI plays
    the search AI's move when the exact answer takes longer than `PERFECT_SECONDS`."""
    if level != "perfect":
        return web.ai(level).choose(web.game), None
    player = web.perfect()
    solver = player.solver_for(web.game.board)
    try:
        with solver.budget(PERFECT_SECONDS):
            return player.choose(web.game), None
    except SolveTimeout:
        return QueensSearchPlayer(SEARCH_LIMIT).choose(web.game), "search"
    finally:
        _forget_if_huge(player, web)


def _forget_if_huge(player: PerfectPlayer, web: WebGame) -> None:
    """Start the memo over when it would hold more memory than one game deserves."""
    if player.solver_for(web.game.board).size() > MAX_MEMO:
        player.forget()


def analyse_moves(web: WebGame) -> dict[str, object]:
    """Each legal move ``win`` or ``lose`` for the player making it, under perfect play; or
    ``too_large`` when the exact search needs more than `ANALYSIS_SECONDS`."""
    game = web.game
    player = web.perfect()
    solver = player.solver_for(game.board)
    n, conflicts, free = game.board.n, game.board.conflicts, game.free
    moves = []
    try:
        with solver.budget(ANALYSIS_SECONDS):
            prove_children(solver, free, until_win=False)  # a big position: shared out between the cores
            for r, c in game.legal_moves():
                wins = solver.is_lost(free & ~conflicts[r * n + c])
                moves.append({"row": r, "col": c, "result": "win" if wins else "lose"})
    except SolveTimeout:
        return {"status": "too_large", "message": f"too large to solve within {ANALYSIS_SECONDS:g} s: "
                f"{free.bit_count()} free cells on a {n}x{n} board; place a few queens and try again"}
    finally:
        _forget_if_huge(player, web)
    winning = any(move["result"] == "win" for move in moves)
    to_move = game.turn + 1
    return {"status": "solved", "to_move": to_move, "moves": moves,
            "perfect_winner": None if game.is_over() else (to_move if winning else 3 - to_move)}


class GameServer(LoopbackServer):
    """Serve the Queens Game page and its API on loopback.

    >>> with GameServer() as server:
    ...     server.url.startswith("http://127.0.0.1:")  # open it in a browser and play
    True
    """

    max_body = MAX_BODY

    def __init__(self, *, port: int = 0, host: str = "127.0.0.1", max_games: int = MAX_GAMES) -> None:
        self.store = GameStore(max_games)
        super().__init__(GameApi(self.store).routes(), host=host, port=port, name="game-server",
                         server_version="QueensGame/1", noun="request")
