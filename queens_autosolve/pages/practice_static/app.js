// The practice Queens page: draws the board, cycles a cell empty -> × -> queen on each press,
// judges the board by the rules (one queen per row, column and region; queens never touch) and
// reports every change to the server (POST /api/state) so tests can read the board back.
// `options` (server.py PageOptions) turn on what the real page does that a tool must survive:
// a win dialog over the board, dropped presses, thin borders, zoom, buttons under the board.
"use strict";

// The cell-state letters are the server's ("letters" in the puzzle data: solver/position.py).
const { empty: EMPTY, mark: MARK, queen: QUEEN, locked: LOCKED } =
  JSON.parse(document.getElementById("puzzle-data").textContent).letters;
const NEXT = { [EMPTY]: MARK, [MARK]: QUEEN, [QUEEN]: EMPTY };
const SVG_NS = "http://www.w3.org/2000/svg";

// ---- the rules (shared by the main board and the examples) --------------------------------

/** Units as lists of cell indices: rows, columns, then regions. */
function unitsOf(model) {
  const { n, regionIds } = model;
  const units = [];
  for (let r = 0; r < n; r++) units.push([...Array(n).keys()].map((c) => r * n + c));
  for (let c = 0; c < n; c++) units.push([...Array(n).keys()].map((r) => r * n + c));
  const regions = new Map();
  for (let i = 0; i < n * n; i++) {
    const id = regionIds[Math.floor(i / n)][i % n];
    if (!regions.has(id)) regions.set(id, []);
    regions.get(id).push(i);
  }
  return units.concat([...regions.values()]);
}

/** Two queen cells that may not both hold queens regardless of units. */
function attacks(model, a, b) {
  const n = model.n;
  const dr = Math.abs(Math.floor(a / n) - Math.floor(b / n)), dc = Math.abs((a % n) - (b % n));
  if (model.rule === "diagonal" && dr === dc) return true;
  return dr <= 1 && dc <= 1;
}

/** {conflicts: Set of cell indices to tint, solved: bool} for the cells' current states. */
function judge(model, cells) {
  const isQueen = (i) => cells[i] === QUEEN || cells[i] === LOCKED;
  const conflicts = new Set();
  let complete = true;
  for (const unit of model.units) {
    const count = unit.filter(isQueen).length;
    if (count > model.k) unit.forEach((i) => conflicts.add(i));
    if (count !== model.k) complete = false;
  }
  const queens = cells.map((_, i) => i).filter(isQueen);
  let touching = false;
  for (let x = 0; x < queens.length; x++) {
    for (let y = x + 1; y < queens.length; y++) {
      if (attacks(model, queens[x], queens[y])) {
        conflicts.add(queens[x]);
        conflicts.add(queens[y]);
        touching = true;
      }
    }
  }
  return { conflicts, solved: complete && !touching && conflicts.size === 0 };
}

// ---- drawing ------------------------------------------------------------------------------

function crownSvg(cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", "#crown");
  svg.appendChild(use);
  return svg;
}

/** Inset shadows that draw 1px cell lines inside a region and 3px lines between regions
 * (with `model.thinBorders`, 1px region lines in a darker shade than cell lines). */
function cellLines(model, r, c) {
  const { n, regionIds } = model;
  const id = regionIds[r][c];
  const line = "var(--cell-line)";
  if (model.thinBorders) {
    const right = c < n - 1 && (regionIds[r][c + 1] === id ? line : "var(--region-line-thin)");
    const below = r < n - 1 && (regionIds[r + 1][c] === id ? line : "var(--region-line-thin)");
    const thinLines = [];
    if (right) thinLines.push(`inset -1px 0 0 ${right}`);
    if (below) thinLines.push(`inset 0 -1px 0 ${below}`);
    return thinLines.join(", ") || "none";
  }
  const thick = "var(--region-line)";
  const lines = [];
  if (c < n - 1) lines.push(regionIds[r][c + 1] === id ? `inset -1px 0 0 ${line}` : `inset -2px 0 0 ${thick}`);
  if (c > 0 && regionIds[r][c - 1] !== id) lines.push(`inset 1px 0 0 ${thick}`);
  if (r < n - 1) lines.push(regionIds[r + 1][c] === id ? `inset 0 -1px 0 ${line}` : `inset 0 -2px 0 ${thick}`);
  if (r > 0 && regionIds[r - 1][c] !== id) lines.push(`inset 0 1px 0 ${thick}`);
  return lines.join(", ") || "none";
}

/** Build the cells of `model` into `boardEl`; returns the cell elements in reading order. */
function drawBoard(model, boardEl) {
  const { n, regionIds, colours } = model;
  boardEl.textContent = "";
  boardEl.style.setProperty("--n", n);
  boardEl.classList.toggle("thin", Boolean(model.thinBorders));
  const cellEls = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const el = document.createElement("div");
      el.className = "cell";
      el.dataset.index = r * n + c;
      el.dataset.row = r;
      el.dataset.col = c;
      el.setAttribute("role", "gridcell");
      el.style.backgroundColor = colours[regionIds[r][c]];
      el.style.boxShadow = cellLines(model, r, c);
      el.appendChild(document.createElement("i")).className = "xmark";
      el.appendChild(crownSvg("crown"));
      el.appendChild(document.createElement("i")).className = "disc";
      if (model.letters) {  // the accessibility option: the region's letter in its empty cells
        const letter = el.appendChild(document.createElement("span"));
        letter.className = "letter";
        letter.textContent = String.fromCharCode(65 + regionIds[r][c] % 26);
      }
      boardEl.appendChild(el);
      cellEls.push(el);
    }
  }
  return cellEls;
}

function paintCell(el, state, conflict) {
  if (el.dataset.state !== state) el.dataset.state = state;
  el.classList.toggle("conflict", conflict);
}

function paintAll(model, cellEls, cells) {
  const verdict = judge(model, cells);
  cellEls.forEach((el, i) => paintCell(el, cells[i], verdict.conflicts.has(i)));
  return verdict;
}

function makeModel(data) {
  const model = {
    n: data.n,
    k: data.k || 1,
    rule: data.rule || "touch",
    regionIds: data.region_ids,
    colours: data.colours,
    thinBorders: Boolean(data.options && data.options.thin_borders),
    letters: Boolean(data.options && data.options.letters),
  };
  model.units = unitsOf(model);
  return model;
}

// ---- the game -----------------------------------------------------------------------------

// The options as server.py's PageOptions defaults them (a page opened as a file has none).
const DEFAULT_OPTIONS = {
  win_screen: "dialog", win_delay_ms: 0, drop_gap_ms: 0, busy_ms: 0, thin_borders: false, zoom: 1,
  buttons: false, input_mode: "pointer", tooltip_ms: 0, letters: false, strict_clicks: false,
  start_screen: false,
};

class Game {
  constructor(data, boardEl) {
    this.options = { ...DEFAULT_OPTIONS, ...(data.options || {}) };
    this.model = makeModel(data);
    this.cells = data.initial.join("").split("");
    this.cellEls = drawBoard(this.model, boardEl);
    this.boardEl = boardEl;
    this.history = []; // each entry: [[index, before, after], ...], one per press or drag
    this.moves = 0;
    this.solved = false;
    this.startedAt = performance.now();
    this.frozenElapsed = undefined; // the time shown while solved (the clock stops)
    this.drag = null; // {group}: while a press that placed × is held, passing over empty cells marks them
    this.dropped = 0; // presses ignored because they came too soon after the last (drop_gap_ms)
    this.pending = []; // strict_clicks: presses down, not yet up: [{cell, seen}], oldest first
    this.lastPressAt = -Infinity; // event time of the last press taken
    this.boardNumber = data.board || 0; // +1 per "Next puzzle" (start_screen)
    this.started = !this.options.start_screen; // the board shows (start_screen: once Start is pressed)
    this.shownAt = null; // performance.now() when the board was first painted (start_screen)
    this.solvedAt = null; // the event time of the press that solved it
    this.win = new WinScreen(this, this.options);
    this.reporter = new Reporter(this);
    this.tooltip = new Tooltip(this);
    this.listen();
    this.refresh();
    this.playing = true; // from now on a solve is the player's: it brings up the win screen
  }

  listen() {
    const board = this.boardEl;
    if (this.options.strict_clicks) {
      board.addEventListener("pointerdown", (e) => this.onStrictDown(e));
      document.addEventListener("pointerup", (e) => this.onStrictUp(e));
    } else if (this.options.input_mode === "click") {
      // Like a React onClick page: every click acts, its second of a double click included
      // (detail 2; the dblclick event that follows is not a press).
      board.addEventListener("click", (e) => { if (e.button === 0) this.pressAt(e.target, e.timeStamp); });
    } else {
      board.addEventListener("pointerdown", (e) => this.onPointerDown(e));
      board.addEventListener("click", (e) => {
        // Real presses were handled on pointerdown; a click with detail 0 comes from the keyboard
        // or from script (element.click()), which sends no pointer events.
        if (e.detail === 0) this.pressAt(e.target, e.timeStamp);
      });
    }
    board.addEventListener("contextmenu", (e) => e.preventDefault());
    document.addEventListener("pointermove", (e) => this.onPointerMove(e));
    const endDrag = () => { this.drag = null; };
    document.addEventListener("pointerup", endDrag);
    document.addEventListener("pointercancel", endDrag);
    document.getElementById("undo").addEventListener("click", () => this.undo());
    document.getElementById("clear").addEventListener("click", () => this.clear());
    document.addEventListener("keydown", (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); this.undo(); }
    });
  }

  onPointerDown(e) {
    if (e.button !== 0) return;
    e.preventDefault(); // no text selection, no focus change: the press is the whole action
    const group = this.pressAt(e.target, e.timeStamp);
    if (group && group[0][2] === MARK) {
      this.drag = { group, last: group[0][0] };
      if (e.target.releasePointerCapture && e.pointerId !== undefined) {
        try { e.target.releasePointerCapture(e.pointerId); } catch (_) { /* not captured */ }
      }
    }
  }

  /** strict_clicks: a press is taken at pointerdown as what it sees of its cell (the committed
   * state); presses wait in order for their pointerup. */
  onStrictDown(e) {
    if (e.button !== 0) return;
    e.preventDefault();
    const cell = e.target && e.target.closest ? e.target.closest(".cell") : null;
    if (!cell || !this.boardEl.contains(cell)) return;
    this.pending.push({ cell, seen: this.cells[Number(cell.dataset.index)] });
  }

  /** strict_clicks: at its pointerup a press acts only when its cell still shows the state its
   * pointerdown saw; when another press has changed the cell meanwhile (a pair whose second
   * pointerdown came before the first pointerup) it is dropped. */
  onStrictUp(e) {
    if (e.button !== 0) return;
    const press = this.pending.shift();
    if (!press) return;
    if (this.cells[Number(press.cell.dataset.index)] !== press.seen) {
      this.dropped++;
      this.reporter.send();
      return;
    }
    this.pressAt(press.cell, e.timeStamp);
  }

  onPointerMove(e) {
    if (!this.drag || !(e.buttons & 1) || this.solved) return;
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const cell = el && el.closest ? el.closest("#board .cell") : null;
    if (!cell) return;
    const i = Number(cell.dataset.index);
    if (i === this.drag.last) return;
    this.drag.last = i;
    if (this.cells[i] !== EMPTY) return;
    this.drag.group.push([i, EMPTY, MARK]);
    this.cells[i] = MARK;
    this.moves++;
    this.refresh();
  }

  /** Cycle the cell under `target`; returns the undo group, or null when nothing changed.
   * `at` is the event's time (ms, performance.now() clock). */
  pressAt(target, at = performance.now()) {
    const cell = target && target.closest ? target.closest(".cell") : null;
    if (!cell || !this.boardEl.contains(cell) || this.solved) return null;
    const i = Number(cell.dataset.index);
    const before = this.cells[i];
    if (before === LOCKED) return null;
    if (this.tooSoon(at)) {
      this.dropped++;
      this.reporter.send();
      return null;
    }
    this.lastPressAt = at;
    const group = [[i, before, NEXT[before]]];
    this.apply(group);
    this.stayBusy();
    return group;
  }

  /** A slow page (busy_ms): the main thread stays busy after each press, as a heavy page's on a
   * slow machine; presses that come meanwhile wait in the browser's queue, and so does the paint. */
  stayBusy() {
    const until = performance.now() + this.options.busy_ms;
    while (performance.now() < until) { /* busy, on purpose */ }
  }

  /** A busy page (drop_gap_ms) misses a press that comes too soon after the one it took. */
  tooSoon(at) {
    const gap = this.options.drop_gap_ms;
    return gap > 0 && at - this.lastPressAt < gap;
  }

  apply(group) {
    for (const [i, , after] of group) this.cells[i] = after;
    this.history.push(group);
    this.moves++;
    this.refresh();
  }

  undo() {
    const group = this.history.pop();
    if (!group) return;
    this.drag = null;
    for (const [i, before] of group.slice().reverse()) this.cells[i] = before;
    this.moves++;
    this.refresh();
  }

  clear() {
    const group = [];
    this.cells.forEach((s, i) => { if (s === MARK || s === QUEEN) group.push([i, s, EMPTY]); });
    if (group.length) this.apply(group);
  }

  refresh() {
    if (this.coach) this.coach.clear(); // a hint speaks of the board it was asked on
    const verdict = paintAll(this.model, this.cellEls, this.cells);
    this.setSolved(verdict.solved);
    this.reporter.send();
  }

  setSolved(solved) {
    if (solved === this.solved) return;
    this.solved = solved;
    if (!solved && this.frozenElapsed !== undefined) this.startedAt = performance.now() - this.frozenElapsed;
    this.frozenElapsed = solved ? this.elapsedMs() : undefined;
    this.boardEl.classList.toggle("solved", solved);
    document.body.classList.toggle("won", solved);
    const banner = document.getElementById("banner");
    banner.hidden = !solved;
    banner.textContent = solved ? `You win! Solved in ${formatTime(this.elapsedMs())}` : "";
    this.tick();
    if (solved && this.playing && this.solvedAt === null) {
      this.solvedAt = Number.isFinite(this.lastPressAt) ? this.lastPressAt : performance.now();
    }
    if (solved && this.playing) this.win.schedule();
    if (!solved) this.win.hide();
  }

  elapsedMs() {
    if (!this.started) return 0;
    if (this.frozenElapsed !== undefined) return this.frozenElapsed;
    return Math.round(performance.now() - this.startedAt);
  }

  tick() {  // four times a second, so the clock turns within 250 ms; drawn only when it does
    const clock = document.getElementById("time"), shown = formatTime(this.elapsedMs());
    if (clock.textContent !== shown) clock.textContent = shown;
  }

  rows() {
    const n = this.model.n, rows = [];
    for (let r = 0; r < n; r++) rows.push(this.cells.slice(r * n, r * n + n).join(""));
    return rows;
  }
}

/** What a solve brings up, as on the real page (win_screen): "dialog" a results card over the
 * board with a dimmed backdrop, "replace" a results card where the board was, "none" nothing
 * beyond the banner. It comes `win_delay_ms` after the solve; closing it shows the board again. */
/** The real page's tooltip (tooltip_ms): a pointer resting on a cell brings up, after a moment,
 * a label over the cells above it saying what a press makes of the cell; leaving the cell, or a
 * press, takes it away. */
class Tooltip {
  constructor(game) {
    this.game = game;
    this.timer = null;
    this.el = document.createElement("div");
    this.el.className = "tooltip";
    this.el.hidden = true;
    document.body.appendChild(this.el);
    if (game.options.tooltip_ms <= 0) return;
    game.boardEl.addEventListener("pointerover", (e) => this.rest(e.target));
    game.boardEl.addEventListener("pointerleave", () => this.hide());
    game.boardEl.addEventListener("pointerdown", () => this.hide());
  }

  rest(target) {
    this.hide();
    const cell = target && target.closest ? target.closest("#board .cell") : null;
    if (!cell || this.game.solved) return;
    this.timer = setTimeout(() => this.show(cell), this.game.options.tooltip_ms);
  }

  show(cell) {
    const next = NEXT[this.game.cells[Number(cell.dataset.index)]];
    if (next === undefined) return;
    this.el.textContent = next === QUEEN ? "Queen" : next === MARK ? "X" : "Clear";
    const box = cell.getBoundingClientRect();
    this.el.hidden = false;
    this.el.style.left = `${window.scrollX + box.left + box.width / 2 - this.el.offsetWidth / 2}px`;
    this.el.style.top = `${window.scrollY + box.top - this.el.offsetHeight - 6}px`;
  }

  hide() {
    clearTimeout(this.timer);
    this.timer = null;
    this.el.hidden = true;
  }
}

class WinScreen {
  constructor(game, options) {
    this.game = game;
    this.kind = options.win_screen;
    this.delay = options.win_delay_ms;
    this.shown = false;
    this.timer = null;
    this.el = document.getElementById("win");
    this.backdrop = document.getElementById("backdrop");
    this.el.classList.add(this.kind);
    document.getElementById("win-close").addEventListener("click", () => this.hide());
    document.getElementById("win-share").addEventListener("click", () => this.share());
  }

  schedule() {
    if (this.kind === "none" || this.timer !== null) return;
    if (this.delay <= 0) { this.show(); return; } // in the same paint as the solving press
    this.timer = setTimeout(() => { this.timer = null; this.show(); }, this.delay);
  }

  show() {
    const g = this.game;
    document.getElementById("win-time").textContent = formatTime(g.elapsedMs());
    document.getElementById("win-moves").textContent = String(g.moves);
    document.getElementById("win-share").textContent = "Copy your result";
    this.setShown(true);
  }

  /** The result as LinkedIn shares it, copied for pasting anywhere. */
  resultText() {
    const g = this.game, name = document.getElementById("puzzle-name").textContent;
    return `Queens ${name} | ${formatTime(g.elapsedMs())} in ${g.moves} moves 👑\nPractised with queens-autosolve`;
  }

  async share() {
    const text = this.resultText(), button = document.getElementById("win-share");
    this.lastShared = text;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied!";
    } catch (_) {
      button.textContent = "Copy failed: select the text below";
      document.getElementById("win-shared").textContent = text;
      document.getElementById("win-shared").hidden = false;
    }
  }

  hide() {
    if (this.timer !== null) { clearTimeout(this.timer); this.timer = null; }
    this.setShown(false);
  }

  setShown(shown) {
    if (shown === this.shown) return;
    this.shown = shown;
    this.el.hidden = !shown;
    if (shown && this.kind === "card") this.placeCard();
    this.backdrop.hidden = !(shown && this.kind === "dialog");
    this.game.boardEl.classList.toggle("replaced", shown && this.kind === "replace");
    this.game.reporter.send();
  }

  /** "card": LinkedIn's win dialog over a big board. Its edges run through the middle of a row
   * (about 30% down and 25% up) and of a column (10% in from each side), so the cells along them
   * are partly covered, as on the real page at a second round or 50-67% zoom. */
  placeCard() {
    const n = this.game.model.n, cells = this.game.cellEls;
    const at = (r, c) => cells[r * n + c];
    const pitch = at(0, 0).offsetHeight;
    const top = at(Math.round(n * 0.3), 0).offsetTop + 0.45 * pitch;
    const bottom = at(n - 1 - Math.round(n * 0.25), 0).offsetTop + 0.55 * pitch;
    const left = at(0, Math.round(n * 0.1)).offsetLeft + 0.5 * pitch;
    const right = at(0, n - 1 - Math.round(n * 0.1)).offsetLeft + 0.5 * pitch;
    Object.assign(this.el.style, {
      top: `${top}px`, left: `${left}px`, width: `${right - left}px`, height: `${bottom - top}px`,
    });
  }
}

/** A puzzle made on request says its difficulty and the hardest step it needs, and the
 * new-puzzle choice stays on that difficulty (the page reloads to show each new puzzle). */
function showGrade(grade) {
  const el = document.getElementById("puzzle-grade");
  el.hidden = !grade;
  if (!grade) return;
  el.textContent = `${grade.difficulty}: ${grade.tier_name}`;
  const select = document.getElementById("difficulty");
  if ([...select.options].some((o) => o.value === grade.difficulty)) select.value = grade.difficulty;
}

/** Leave in the new-puzzle choice only the difficulties this board size can be made in (a 4x4
 * board is always easy); the whole choice is hidden when there are none. */
function offerOnly(select, difficulties) {
  for (const option of [...select.options]) {
    if (!difficulties.includes(option.value)) option.remove();
  }
  if (!select.options.length) select.closest(".new-puzzle").hidden = true;
}

/** The Hint button and the new-puzzle choice, both answered by the practice server: the coach
 * (POST api/hint) names the player's mistakes or the next step a person can follow, and the
 * cells it concerns stay outlined until the board changes; POST api/new makes a puzzle of the
 * chosen difficulty and the page reloads to show it. */
class CoachPanel {
  constructor(game, difficulties) {
    this.game = game;
    this.textEl = document.getElementById("hint-text");
    offerOnly(document.getElementById("difficulty"), difficulties);
    document.getElementById("hint").addEventListener("click", () => this.ask());
    document.getElementById("new-puzzle").addEventListener("click", () => this.newPuzzle());
  }

  async ask() {
    const g = this.game, n = g.model.n;
    const index = ([r, c]) => r * n + c;
    try {
      const answer = await postJson("api/hint", { states: g.rows() });
      if (answer.error) return this.show(answer.error, [], []);
      if (answer.mistakes.length) {
        return this.show(answer.mistakes.map((m) => m.text).join(" "),
          answer.mistakes.map((m) => index(m.cell)), []);
      }
      const step = answer.step;
      if (!step) return this.show("Solved: nothing left to do.", [], []);
      const marks = step.marks.map(index).concat(step.queen ? [index(step.queen)] : []);
      this.show(hintSentence(step), step.cells.map(index), marks);
    } catch (_) {
      this.show("Hints come from the practice server: start it with queens-autosolve practice.", [], []);
    }
  }

  async newPuzzle() {
    const difficulty = document.getElementById("difficulty").value;
    this.show(`Making a ${difficulty} puzzle...`, [], []);
    try {
      const answer = await postJson("api/new", { difficulty });
      if (answer.error) return this.show(answer.error, [], []);
      location.reload();
    } catch (_) {
      this.show("New puzzles come from the practice server: start it with queens-autosolve practice.", [], []);
    }
  }

  show(text, cells, marks) {
    this.clear();
    this.textEl.textContent = text;
    this.textEl.hidden = false;
    for (const i of cells) this.game.cellEls[i].classList.add("hinted");
    for (const i of marks) this.game.cellEls[i].classList.add("hint-mark");
  }

  clear() {
    for (const el of this.game.cellEls) el.classList.remove("hinted", "hint-mark");
    this.textEl.hidden = true;
  }
}

/** A hint step as sentences: its tier, what the coach saw, and what to do on the board (the cells
 * to act on are the ones outlined in dashes). */
function hintSentence(step) {
  const said = /[.!?]$/.test(step.text) ? step.text : `${step.text}.`;
  const cell = ([r, c]) => `r${r + 1}c${c + 1}`;
  let todo = "";
  if (step.queen) todo = ` Place a queen on ${cell(step.queen)} (outlined in dashes).`;
  else if (step.marks.length === 1) todo = " Mark the cell outlined in dashes with X.";
  else if (step.marks.length) todo = ` Mark the ${step.marks.length} cells outlined in dashes with X.`;
  const tier = step.tier_name.charAt(0).toUpperCase() + step.tier_name.slice(1);
  return `${tier}: ${said}${todo}`;
}

async function postJson(url, data) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data) });
  return res.json();
}

function formatTime(ms) {
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** Sends the whole board after each change; at most one request in flight, always the newest. */
class Reporter {
  constructor(game) {
    this.game = game;
    this.session = Math.random().toString(36).slice(2) + Date.now().toString(36);
    this.seq = 0;
    this.busy = false;
    this.dirty = false;
  }

  send() {
    this.dirty = true;
    if (!this.busy) this.flush();
  }

  flush() {
    if (!this.dirty) return;
    this.dirty = false;
    this.busy = true;
    const g = this.game, n = g.model.n;
    const queens = [];
    g.cells.forEach((s, i) => { if (s === QUEEN || s === LOCKED) queens.push([Math.floor(i / n), i % n]); });
    const body = JSON.stringify({
      session: this.session,
      seq: ++this.seq,
      states: g.rows(),
      queens,
      solved: g.solved,
      moves: g.moves,
      elapsed_ms: g.elapsedMs(),
      dropped: g.dropped,
      win_shown: g.win.shown,
      board: g.boardNumber,
      started: g.started,
      shown_ms: g.shownAt,
      solved_ms: g.solvedAt,
      presses: g.presses || 0,
      first_press_ms: g.firstPressAt == null ? null : g.firstPressAt,
      time_origin_ms: performance.timeOrigin,
    });
    // Not `keepalive`: Chromium failed every keepalive fetch of a page after its first 170-290
    // ("Failed to fetch", no connection made), which a page that shows board after board without
    // a load reaches.
    fetch("api/state", { method: "POST", headers: { "Content-Type": "application/json" }, body })
      .then((res) => { if (!res.ok) throw new Error(`status ${res.status}`); this.failures = 0; this.reached = true; })
      .catch(() => {
        // A report lost (a busy server refusing the connection) would leave the server with an old board until the next change: the newest is sent
        // again, sooner or later (no server at all, a page opened as a file: a few tries only).
        this.failures = (this.failures || 0) + 1;
        if (this.reached || this.failures <= 3) this.dirty = true;
      })
      .finally(() => {
        this.busy = false;
        if (!this.failures) return this.flush();
        setTimeout(() => this.flush(), Math.min(1000, 25 * 2 ** this.failures));
      });
  }
}

// ---- LinkedIn's flow (start_screen): Start shows the board, "Next puzzle" the next one ----

/** The board hidden behind a Start button until it is pressed, the clock running from when the
 * board shows; "Next puzzle" (POST api/next) draws another board in place, without a page load.
 * The page notes on its own clock when each board was first painted (`Game.shownAt`) and when a
 * press solved it (`Game.solvedAt`), and reports both. */
class StartScreen {
  constructor(game) {
    this.game = game;
    this.wrap = game.boardEl.closest(".board-wrap");
    // every press on the board counts, those a solved board ignores too: a test can tell that
    // nothing clicked a board once it was solved
    game.presses = 0;
    game.boardEl.addEventListener("pointerdown", (event) => {
      game.presses++;
      if (game.firstPressAt == null) game.firstPressAt = event.timeStamp; // the page's clock
      if (game.solved) game.reporter.send(); // a press the game itself takes reports the board anyway
    }, true);
    if (!game.options.start_screen) return;
    this.wrap.classList.add("waiting");
    document.getElementById("start").addEventListener("click", () => this.start());
    const next = document.getElementById("next-puzzle-now");
    next.hidden = false;
    next.addEventListener("click", () => this.next());
  }

  start() {
    if (this.game.started) return;
    this.wrap.classList.remove("waiting");
    this.show();
  }

  /** The board is on from now: the clock starts, and the next frame is the one that paints it. */
  show() {
    const g = this.game;
    g.started = true;
    g.startedAt = performance.now();
    g.tick();
    g.reporter.send();
    requestAnimationFrame(() => { g.shownAt = performance.now(); g.reporter.send(); });
  }

  async next() {
    let data;
    try {
      data = await postJson("api/next", {});
    } catch (_) {
      return;
    }
    if (data.error) return;
    const g = this.game;
    g.win.hide();
    g.setSolved(false);
    g.playing = false;
    g.model = makeModel(data);
    g.cells = data.initial.join("").split("");
    g.cellEls = drawBoard(g.model, g.boardEl);
    g.history = [];
    g.moves = 0;
    g.drag = null;
    g.boardNumber = data.board;
    g.presses = 0;
    g.firstPressAt = null;
    g.shownAt = null;
    g.solvedAt = null;
    g.lastPressAt = -Infinity;
    document.getElementById("puzzle-name").textContent = data.name ? data.name : `${data.n}×${data.n}`;
    this.wrap.classList.remove("waiting");
    g.refresh();
    g.playing = true;
    this.show();
  }
}

/** Keyboard play, as on the game page: Tab reaches the board, the arrows move between cells,
 * Enter or Space presses the cell (× then queen then empty, as a tap). */
function playByKeyboard(game) {
  const n = game.model.n, board = game.boardEl;
  let at = 0;
  const focus = (i) => {
    game.cellEls[at].tabIndex = -1;
    at = i;
    game.cellEls[at].tabIndex = 0;
    game.cellEls[at].focus();
  };
  game.cellEls.forEach((el, i) => { el.tabIndex = i === 0 ? 0 : -1; });
  const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  board.addEventListener("keydown", (e) => {
    const r = Math.floor(at / n), c = at % n;
    if (steps[e.key]) {
      e.preventDefault();
      const rr = Math.max(0, Math.min(n - 1, r + steps[e.key][0]));
      const cc = Math.max(0, Math.min(n - 1, c + steps[e.key][1]));
      focus(rr * n + cc);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      game.pressAt(game.cellEls[at], e.timeStamp);
    }
  });
}

// ---- examples under the board -----------------------------------------------------------

// One small 5x5 map: queens at (0,0) (1,2) (2,4) (3,1) (4,3) solve it.
const EXAMPLE_REGIONS = ["AAAAE", "ACCAE", "ACCEE", "DDCBB", "DDBBB"];
const EXAMPLES = [
  { caption: "Each row, column and color region holds exactly one queen.",
    states: ["Q....", "..Q..", "....Q", ".Q...", "...Q."], solved: true },
  { caption: "Queens cannot touch, not even diagonally: these two clash.",
    states: ["Q....", ".Q...", ".....", ".....", "....."] },
  { caption: "Mark × where a queen cannot go.",
    states: ["Qxxxx", "xx...", "x....", "x....", "x...."] },
];

function drawExamples(container, colours) {
  const ids = { A: 0, B: 1, C: 2, D: 3, E: 4 };
  const model = makeModel({
    n: 5,
    region_ids: EXAMPLE_REGIONS.map((row) => row.split("").map((ch) => ids[ch])),
    colours: [colours[0], colours[1], colours[2], colours[3], colours[4]],
  });
  for (const example of EXAMPLES) {
    const figure = document.createElement("figure");
    figure.className = "example";
    const board = document.createElement("div");
    board.className = "board mini";
    const cellEls = drawBoard(model, board);
    const verdict = paintAll(model, cellEls, example.states.join("").split(""));
    board.classList.toggle("solved", verdict.solved);
    const caption = document.createElement("figcaption");
    caption.textContent = example.caption;
    figure.append(board, caption);
    container.appendChild(figure);
  }
}

// ---- start --------------------------------------------------------------------------------

function setDark(dark) {
  document.documentElement.classList.toggle("dark", dark);
  document.getElementById("theme").textContent = dark ? "Light mode" : "Dark mode";
}

/** Zoom the whole page as the browser's own zoom does: CSS zoom on the root lays the page out
 * again at the new size (Chromium, Firefox 126+); --zoom lets the stylesheet undo it where a
 * viewport unit should stay the window's size. */
function setZoom(zoom) {
  if (!(zoom > 0) || zoom === 1) return;
  document.documentElement.style.zoom = String(zoom);
  document.documentElement.style.setProperty("--zoom", String(zoom));
}

function main() {
  const data = JSON.parse(document.getElementById("puzzle-data").textContent);
  const options = { ...DEFAULT_OPTIONS, ...(data.options || {}) };
  setZoom(options.zoom);
  document.getElementById("tools").hidden = !options.buttons;
  const params = new URLSearchParams(location.search);
  setDark(params.has("dark") ? params.get("dark") !== "0" : Boolean(data.dark));
  document.getElementById("theme").addEventListener("click", () =>
    setDark(!document.documentElement.classList.contains("dark")));
  document.getElementById("puzzle-name").textContent = data.name ? data.name : `${data.n}×${data.n}`;
  showGrade(data.grade);
  if ((data.k || 1) > 1) document.getElementById("per-unit").textContent = String(data.k);
  const board = document.getElementById("board");
  const game = new Game(data, board);
  game.coach = new CoachPanel(game, data.difficulties || ["easy", "medium", "hard"]);
  game.startScreen = new StartScreen(game);
  document.getElementById("tool-reset").addEventListener("click", () => game.clear());
  playByKeyboard(game);
  window.queensGame = game; // for people poking at the page from the devtools console
  setInterval(() => { if (!game.solved) game.tick(); }, 250);
  drawExamples(document.getElementById("examples"), data.colours.length >= 5 ? data.colours : REGION_FALLBACK);
}

const REGION_FALLBACK = ["#BBA3E2", "#FFC992", "#96BEFF", "#B3DFA0", "#DFDFDF"];

main();
