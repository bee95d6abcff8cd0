"""Two-player games around the queen, with AIs and terminal play.

One interface for every game (`twoplayer.game`): a state with `legal_moves()`, `push(move)`,
`pop()`, `peek()`, `is_over()`, `winner()`, a move notation (`parse_move` / `move_name`) and a
position string (`position()` / `from_position`). Search is written once (`twoplayer.game_search`:
alpha-beta with a transposition table, exact solving); players, the terminal loop and the arena
work with any game.

Games, one per module:

- `queens_game`: place queens in turn on a region map; the last to place one wins. Split by
  idea: `queens_board` (what a queen rules out), `queens_solver` (perfect play: a win/loss
  search over free-cell masks, cut short by counting the rows, columns and regions left) and
  `queens_players` (the AIs).
- `corner`: Corner the Queen, i.e. Wythoff's game with exact integer safe fields.
- `amazons`: Amazons on 6x6 with two queens a side.
- `superqueen`: shortest queen-or-knight path to capture a king (a one-player puzzle).

Nothing here imports the screen stack (vision, capture, actuator).
"""
