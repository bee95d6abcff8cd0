// The Queens Game page: a board drawn from the server's GameState, moves sent to the REST API
// (/api/game/...), the AI asked to move when it is its turn. Settings for the first game come
// from the address (?n=8&mode=hard&seed=3&opponent=ai&first=human&level=perfect&analysis=1,
// or joined by ";").
"use strict";

const $ = (id) => document.getElementById(id);

const page = {
  state: null,        // the last GameState from the server
  settings: null,     // {opponent: "ai"|"pvp", first: "human"|"ai", level}
  focus: [0, 0],      // the cell the keyboard is on
  busy: false,        // a request (your move, the AI's) is under way
  pending: null,      // what was pressed while busy (a cell, Undo): done as soon as the page is free
  analysis: null,     // {row,col -> "win"|"lose"} for the state shown, or null
  lastAi: null,       // [row, col] of the AI's last move
};

// --- talking to the server ---------------------------------------------------------------------

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function showError(error) {
  const box = $("error");
  box.textContent = error ? String(error.message || error) : "";
  box.hidden = !error;
}

// --- colours and names -------------------------------------------------------------------------

function regionColour(s, index) {
  return s.colours[index] || s.colours[0];  // chosen by the server (autosolve/web/colours.py)
}

/** Inset shadows as the practice page draws them: 1px cell lines inside a region, 3px lines
 * between regions (2px on this cell's right or bottom edge, 1px on the neighbour's side). */
function cellLines(s, r, c) {
  const n = s.n;
  const id = (rr, cc) => (s.regions.length ? s.regions[rr][cc] : 0);
  const here = id(r, c);
  const line = "var(--cell-line)";
  const thick = "var(--region-line)";
  const lines = [];
  if (c < n - 1) lines.push(id(r, c + 1) === here ? `inset -1px 0 0 ${line}` : `inset -2px 0 0 ${thick}`);
  if (c > 0 && id(r, c - 1) !== here) lines.push(`inset 1px 0 0 ${thick}`);
  if (r < n - 1) lines.push(id(r + 1, c) === here ? `inset 0 -1px 0 ${line}` : `inset 0 -2px 0 ${thick}`);
  if (r > 0 && id(r - 1, c) !== here) lines.push(`inset 0 1px 0 ${thick}`);
  return lines;
}

/** A region as a person names it: by its colour ("the violet region"), as the hints do. */
function regionLabel(s, index) {
  const name = s.colour_names && s.colour_names[index];
  if (name) return `the ${name} region`;
  return `region ${index < 26 ? String.fromCharCode(65 + index) : index + 1}`;
}

function playerName(player) {
  if (!page.settings || page.settings.opponent === "pvp") return `Player ${player}`;
  return isAi(player) ? `AI (${page.settings.level})` : "You";
}

function isAi(player) {
  if (!page.settings || page.settings.opponent !== "ai") return false;
  const aiPlayer = page.settings.first === "ai" ? 1 : 2;
  return player === aiPlayer;
}

// --- drawing ------------------------------------------------------------------------------------

function draw() {
  const s = page.state;
  if (!s) return;
  const board = $("board");
  const hadFocus = board.contains(document.activeElement);  // keep the keyboard on the board
  board.style.setProperty("--n", s.n);
  board.style.gridTemplateColumns = `repeat(${s.n}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${s.n}, 1fr)`;
  const queens = new Map(s.queens.map((q, i) => [`${q.row},${q.col}`, {...q, index: i}]));
  const legal = new Set(s.valid_moves.map((m) => `${m.row},${m.col}`));
  const cells = [];
  for (let r = 0; r < s.n; r++) {
    for (let c = 0; c < s.n; c++) cells.push(drawCell(s, r, c, queens, legal));
  }
  board.replaceChildren(...cells);
  drawStatus(s);
  focusCell(page.focus[0], page.focus[1], hadFocus);
}

function drawCell(s, r, c, queens, legal) {
  const key = `${r},${c}`;
  const region = s.regions.length ? s.regions[r][c] : 0;
  const cell = document.createElement("button");
  cell.type = "button";
  cell.className = "cell";
  cell.setAttribute("role", "gridcell");
  cell.dataset.row = r;
  cell.dataset.col = c;
  cell.tabIndex = -1;
  cell.style.backgroundColor = regionColour(s, region);
  const lines = cellLines(s, r, c);
  const queen = queens.get(key);
  let what;
  if (queen) {
    const mark = document.createElement("span");
    mark.className = `queen p${queen.player}`;
    mark.innerHTML = `&#9819;<small>${queen.player}</small>`;
    mark.setAttribute("aria-hidden", "true");
    cell.append(mark);
    what = `queen of ${playerName(queen.player)}`;
    if (queen.index === s.queens.length - 1) {
      cell.classList.add("last");
      lines.push("inset 0 0 0 4px var(--last-move)");
    }
  } else if (legal.has(key)) {
    cell.classList.add("legal");
    what = "empty, legal move";
    const result = page.analysis && page.analysis.get(key);
    if (result) {
      cell.classList.add(result);
      what += result === "win" ? ", wins with perfect play" : ", loses with perfect play";
    }
  } else {
    cell.classList.add("blocked");
    what = "empty, blocked";
  }
  cell.style.boxShadow = lines.join(", ") || "none";
  cell.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1}, ${regionLabel(s, region)}, ${what}`);
  cell.addEventListener("click", () => { page.focus = [r, c]; play(r, c); });
  return cell;
}

function drawStatus(s) {
  const turn = $("turn");
  const over = $("gameover");
  if (s.game_over) {
    turn.textContent = "Game over";
    over.hidden = false;
    over.textContent = `${playerName(s.winner)} ${playerName(s.winner) === "You" ? "win" : "wins"}! ${s.reason}.`;
    const last = s.queens[s.queens.length - 1];
    if (last) over.textContent += ` Last queen: ${playerName(last.player)}, row ${last.row + 1}, column ${last.col + 1}.`;
    $("ai-note").textContent = "";  // the last move is in the box: no older line beside it
  } else {
    over.hidden = true;
    const who = playerName(s.current_player);
    const thinking = isAi(s.current_player) ? " is thinking…" : (who === "You" ? ": your move" : " to move");
    turn.innerHTML = `<span class="p${s.current_player}">${who}</span>${thinking}`;
  }
  $("rule-diagonal").textContent = s.mode === "hard" ? "any diagonal (hard)" : "touch diagonally (easy)";
  $("undo").disabled = s.queens.length === 0;
}

function focusCell(r, c, move = true) {
  const s = page.state;
  if (!s) return;
  page.focus = [Math.max(0, Math.min(s.n - 1, r)), Math.max(0, Math.min(s.n - 1, c))];
  const board = $("board");
  for (const cell of board.children) cell.tabIndex = -1;
  const cell = board.children[page.focus[0] * s.n + page.focus[1]];
  if (!cell) return;
  cell.tabIndex = 0;
  if (move) cell.focus();
}

// --- playing ------------------------------------------------------------------------------------

async function play(r, c) {
  if (page.busy) {
    page.pending = () => play(r, c);  // the AI's answer is on its way: this press is for after it
    return;
  }
  const s = page.state;
  if (!s || s.game_over || isAi(s.current_player)) return;
  page.focus = [r, c];
  page.busy = true;  // until the move is in: an Undo pressed meanwhile is for after it
  try {
    const moved = api("/api/game/move", {game_id: s.game_id, row: r, col: c});
    $("ai-note").textContent = "";  // the AI's last move is no longer the last one
    await update(moved);
    showError(null);
  } catch (error) {
    showError(error);
  } finally {
    page.busy = false;
  }
  await aiTurn();
}

async function aiTurn() {
  while (page.state && !page.state.game_over && isAi(page.state.current_player)) {
    page.busy = true;
    try {
      const next = await api("/api/game/ai-move", {game_id: page.state.game_id, level: page.settings.level});
      const where = `row ${next.ai_move.row + 1}, column ${next.ai_move.col + 1}`;
      const fallback = next.fallback ? ` (too slow to solve exactly: played the ${next.fallback} move)` : "";
      $("ai-note").textContent = `AI (${next.level}) placed a queen on ${where} after ${next.thought_ms} ms${fallback}.`;
      await update(Promise.resolve(next));
    } catch (error) {
      showError(error);
      break;
    } finally {
      page.busy = false;
    }
  }
  draw();
  const pending = page.pending;
  page.pending = null;
  if (pending) await pending();
}

async function update(request) {
  page.state = await request;
  page.analysis = null;
  draw();
  await refreshAnalysis();
}

async function refreshAnalysis() {
  const note = $("analysis-note");
  const s = page.state;
  if (!$("analysis").checked || !s || s.game_over) {
    note.textContent = "";
    return;
  }
  note.textContent = "Analysing…";
  try {
    const result = await api(`/api/game/analysis?game_id=${encodeURIComponent(s.game_id)}`);
    if (page.state !== s) return;  // the board moved on meanwhile
    if (result.status !== "solved") {
      note.textContent = result.message;
      return;
    }
    page.analysis = new Map(result.moves.map((m) => [`${m.row},${m.col}`, m.result]));
    const wins = result.moves.filter((m) => m.result === "win").length;
    note.textContent = `${wins} of ${result.moves.length} moves win for ${playerName(s.current_player)} with perfect play.`;
    draw();
  } catch (error) {
    note.textContent = String(error.message || error);
  }
}

async function undo() {
  const s = page.state;
  if (page.busy) {
    page.pending = undo;  // taken back once the AI's move has arrived: then it is your turn
    return;
  }
  if (!s || !s.queens.length) return;
  // Against the AI, take back its reply too, so it is your turn again.
  const last = s.queens[s.queens.length - 1];
  const count = isAi(last.player) && s.queens.length >= 2 ? 2 : 1;
  try {
    await update(api("/api/game/undo", {game_id: s.game_id, count}));
    $("ai-note").textContent = "";
    showError(null);
  } catch (error) {
    showError(error);
  }
  await aiTurn();
}

async function reset() {
  const s = page.state;
  if (!s || page.busy) return;
  try {
    await update(api("/api/game/reset", {game_id: s.game_id}));
    $("ai-note").textContent = "";
    showError(null);
  } catch (error) {
    showError(error);
  }
  await aiTurn();
}

// --- new games -----------------------------------------------------------------------------------

function readForm() {
  const form = $("new-game");
  const data = new FormData(form);
  const body = {n: Number(data.get("n")), mode: data.get("mode")};
  if (data.get("source") === "text") {
    body.regions = String(data.get("regions") || "");
  } else if (String(data.get("seed") || "").trim() !== "") {
    body.seed = Number(data.get("seed"));
  }
  const settings = {opponent: data.get("opponent"), first: data.get("first"), level: data.get("level")};
  return {body, settings};
}

async function newGame(event) {
  if (event) event.preventDefault();
  if (page.busy) return;
  const {body, settings} = readForm();
  try {
    const state = await api("/api/game/init", body);
    page.settings = settings;
    page.focus = [0, 0];
    page.pending = null;
    $("ai-note").textContent = "";
    showError(null);
    await update(Promise.resolve(state));
    if (state.seed !== null) $("opt-seed").placeholder = `any (last: ${state.seed})`;
    rememberSettings(body, settings);
  } catch (error) {
    showError(error);
    return;
  }
  await aiTurn();
}

/** The address shows the game now on the board (a reload or a shared link starts the same
 * kind of game), not the settings the page was first opened with. */
function rememberSettings(body, settings) {
  const query = new URLSearchParams({n: String(body.n), mode: body.mode});
  if (body.seed !== undefined) query.set("seed", String(body.seed));
  query.set("opponent", settings.opponent);
  if (settings.opponent === "ai") {
    query.set("first", settings.first);
    query.set("level", settings.level);
  }
  if ($("analysis").checked) query.set("analysis", "1");
  history.replaceState(null, "", `${location.pathname}?${query}`);
}

function pageSettings() {
  // Settings may be joined by ";" as well as "&" (some launchers cut an address at its first
  // "&"), and arrive escaped once more.
  let text = location.search.slice(1);
  try { text = decodeURIComponent(text); } catch (error) { /* keep it as it came */ }
  return new URLSearchParams(text.replace(/;/g, "&"));
}

function fillForm() {
  const select = $("opt-n");
  for (let n = 4; n <= 12; n++) select.add(new Option(`${n} x ${n}`, String(n)));
  // What an address without settings plays: the defaults of `play queens`, set by the server.
  const defaults = document.body.dataset;
  const query = pageSettings();
  for (const [name, value] of [["n", defaults.size], ["mode", defaults.mode], ["level", defaults.level]]) {
    if (!query.get(name)) query.set(name, value);
  }
  select.value = query.get("n");
  const form = $("new-game");
  for (const name of ["mode", "opponent"]) {
    const value = query.get(name);
    const input = value && form.querySelector(`input[name=${name}][value="${CSS.escape(value)}"]`);
    if (input) input.checked = true;
  }
  if (query.get("seed")) $("opt-seed").value = query.get("seed");
  if (query.get("first")) $("opt-first").value = query.get("first");
  $("opt-level").value = query.get("level");
  if (query.get("analysis") === "1") $("analysis").checked = true;
}

function onKey(event) {
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  const [r, c] = page.focus;
  if (moves[event.key]) {
    event.preventDefault();
    focusCell(r + moves[event.key][0], c + moves[event.key][1]);
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    play(r, c);
  }
}

function start() {
  fillForm();
  $("new-game").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("reset").addEventListener("click", reset);
  $("analysis").addEventListener("change", () => { page.analysis = null; draw(); refreshAnalysis(); });
  $("board").addEventListener("keydown", onKey);
  newGame();
}

start();
