// Boards drawn in SVG from a game's view (Game.view on the server); a board is chosen by the
// view's kind and drawn from its fields alone, never from the game's name. One function per
// kind (drawGrid, drawHeaps, drawTiles, drawText), each responsible for its own clicks and keys:
//   grid   {rows, cols, cells[r][c] = 0|1|null, move_at[r][c] = move|null,
//           pieces?: "marks"|"stones"|"discs" (default: discs with gravity, else stones),
//           gravity?, last?: [r, c], highlight?: [[r, c], ...] (a winning line),
//           col_labels?, row_labels? (coordinates drawn along the top and left edges)}
//   heaps  {heaps: [3, 4, 5], splits?}  (clicks mapped to moves through position.previews;
//                                       splits: a token is a pin knocked down where it stands)
//   tiles  {rows, cols, cells[r][c] = 0|2|4|..., score, col_labels?, row_labels?}
//   table  {pieces: "cards"|"dice", seats: [{name, hand: ["K"|"?"], staked, to_move, folded}, ..],
//           board: ["Q"], pot, history: ["check", "bet", "/", ...], status}
//          (a card table: ui.bottom is the seat drawn nearest, the person's own)
//   chess  {board[r][c] = "K"|"q"|...|null (rank 8 first, white upper case), files, ranks,
//           turn, check: square|null, moves: {from: [{to, move, promotion}, ...]}, fen}
//           (click a piece, then a target; a promotion asks which piece)
//   xiangqi {board[r][c] = "K"|"c"|...|null (10 rows, rank 9 first; red upper case), files,
//           ranks, turn, check: point|null, moves: {from: [{to, move, name}, ...]}, fen}
//           (points on the lines, the river, the palaces' diagonals; round pieces with their
//           Chinese characters; click a piece, then one of its marked targets)
//   go     {rows, cols, cells, move_at, col_labels, row_labels, hoshi: [[r, c], ...],
//           captures: [black, white], komi, pass_move|null, territory: null|cells, result|null,
//           last?}   (a wooden board of lines; stones on the crossings)
//   text   {text}                      (anything else: the game's own rendering, and move buttons)
//
// Every board can be played from the keyboard: its cells (or tokens) are focusable, the arrow
// keys move between them and Enter or Space plays; each has an accessible name.

const SVG = "http://www.w3.org/2000/svg";
export const WIN = 1_000_000;
const HEURISTIC_LIMIT = WIN - 10_000;
const MAX_BUTTONS = 240; // move buttons drawn; a huge heap has more moves than anyone reads

function svg(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function html(name, attributes = {}, parent = null, text = "") {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// -- values ---------------------------------------------------------------------------------------
// A value is from the side to move: a win in n plies is WIN - n, a loss -(WIN - n), a draw 0;
// anything else is an estimate, read on the result's scale (a heuristic, a mean, a score).
export const SCALE_WORDS = ["worst", "weak", "fair", "good", "best"];
const plies = (n) => `${n} ${n === 1 ? "move" : "moves"}`;

// Each move's mark: a proven result as a short label (W5, L3, =), an estimate as a level on a
// five-step colour scale among the moves valued (0 worst .. 4 best).
// result: {move_values: {move: value|null}, move_outcomes: {move: "win"|"loss"|"draw"}, exact}
export function moveMarks(result) {
  const marks = {};
  if (!result) return marks;
  const values = result.move_values ?? {};
  const outcomes = result.move_outcomes ?? {};
  const estimates = [];
  for (const move of new Set([...Object.keys(values), ...Object.keys(outcomes)])) {
    const value = values[move];
    const outcome = outcomes[move];
    if (value !== null && value !== undefined && value > HEURISTIC_LIMIT) {
      marks[move] = { kind: "outcome", text: `W${WIN - value}`, tone: "win", words: `wins in ${plies(WIN - value)}` };
    } else if (value !== null && value !== undefined && value < -HEURISTIC_LIMIT) {
      marks[move] = { kind: "outcome", text: `L${WIN + value}`, tone: "loss", words: `loses in ${plies(WIN + value)}` };
    } else if (outcome === "win" || outcome === "loss") {
      marks[move] = { kind: "outcome", text: outcome === "win" ? "W" : "L", tone: outcome, words: outcome === "win" ? "wins" : "loses" };
    } else if (outcome === "draw" || (value === 0 && result.exact)) {
      marks[move] = { kind: "outcome", text: "=", tone: "draw", words: "draw" };
    } else if (value !== null && value !== undefined) {
      estimates.push([move, value]);
    }
  }
  if (estimates.length) {
    const low = Math.min(...estimates.map(([, v]) => v));
    const high = Math.max(...estimates.map(([, v]) => v));
    for (const [move, value] of estimates) {
      const level = high > low ? Math.round(((value - low) / (high - low)) * 4) : 2;
      marks[move] = { kind: "scale", level, words: `estimate: ${SCALE_WORDS[level]} of the moves` };
    }
  }
  return marks;
}

// The AI's value as a player reads it. Chess and xiangqi: pawns from the first player's side
// (White's, Red's: "+0.35") or the mate ("mate in 4 for White"), whoever moves; other games:
// the search's own words. Both engines count in centipawns (100 a pawn, as their UCI/UCCI
// scores and the terminal's analysis read them).
const PAWNS_FROM = { chess: "White", xiangqi: "Red" }; // the side whose view the value is given from
const SECOND_PLAYER = { chess: "Black", xiangqi: "Black" };
const CENTIPAWNS = 100;

export function valueWords(position, result) {
  const kind = position?.view.kind;
  if (!(kind in PAWNS_FROM) || result.value === null || result.value === undefined) {
    return result.description ?? "–";
  }
  const first = position.to_move === 0 ? 1 : -1; // the value is the side to move's
  if (Math.abs(result.value) > HEURISTIC_LIMIT) {
    const plies = WIN - Math.abs(result.value);
    const winner = result.value * first > 0 ? PAWNS_FROM[kind] : SECOND_PLAYER[kind];
    return `mate in ${Math.ceil(plies / 2)} for ${winner}`;
  }
  if (result.exact && result.value === 0) return "draw";
  const pawns = (result.value * first) / CENTIPAWNS;
  return `${pawns >= 0 ? "+" : "-"}${Math.abs(pawns).toFixed(2)}`;
}

// The AI's line and move as a player reads them (chess: SAN, sent by the server).
export const lineWords = (result) => result.pv_names ?? result.pv;
export const moveWords = (result) => result.move_name ?? result.move;

// What the marks on the board mean, for the legend under it: the kinds that appear.
export function markKinds(marks) {
  const kinds = new Set();
  for (const mark of Object.values(marks)) kinds.add(mark.kind === "scale" ? "scale" : mark.tone);
  return kinds;
}

// The legend: W5 / L3 / = explained, and the colour scale drawn, for the kinds present.
export function drawLegend(container, marks) {
  container.replaceChildren();
  const kinds = markKinds(marks);
  if (!kinds.size) return;
  const counted = (tone) => Object.values(marks).some((mark) => mark.tone === tone && /\d/.test(mark.text));
  const items = [
    ["win", counted("win") ? "W5" : "W", counted("win")
      ? "a forced win, 5 moves from now (both sides' moves counted)" : "a winning move"],
    ["loss", counted("loss") ? "L3" : "L", counted("loss")
      ? "a forced loss, 3 moves from now: the longest defence" : "a losing move, against best play"],
    ["draw", "=", "a draw with best play"],
  ];
  for (const [tone, text, words] of items) {
    if (!kinds.has(tone)) continue;
    const item = html("span", { class: "legend-item" }, container);
    html("b", { class: `value ${tone}` }, item, text);
    item.append(` ${words}`);
  }
  if (kinds.has("scale")) {
    const item = html("span", { class: "legend-item" }, container);
    item.append("estimates, worst ");
    const scale = svg("svg", { viewBox: "0 0 100 20", class: "scale", "aria-hidden": "true" }, item);
    for (let level = 0; level < 5; level++) {
      svg("circle", { cx: 10 + level * 20, cy: 10, r: 7, class: `estimate level-${level}` }, scale);
    }
    item.append(" best");
  }
}

// -- players --------------------------------------------------------------------------------------
export function gridStyle(position) {
  const view = position.view;
  return view.pieces ?? (view.gravity ? "discs" : "stones");
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// The game's own name for a player (its colour: Black, White; X, O), from the server.
export function playerName(position, player) {
  if (position.players === 1) return "you";
  if (position.view.kind === "table") return capital(position.view.seats[player].name);
  if (position.view.kind === "chess") return ["White", "Black"][player];
  // discs are drawn red and yellow, whatever letters the game's text board uses
  if (position.view.kind === "grid" && gridStyle(position) === "discs") return ["Red", "Yellow"][player];
  const names = position.player_names ?? [];
  return names[player] ? capital(names[player]) : `Player ${player + 1}`;
}

// A small picture of a player's piece (the grid games), to stand beside the name.
export function pieceSwatch(position, player) {
  if (position.view.kind !== "grid" || position.players !== 2) return null;
  const style = gridStyle(position);
  const mark = svg("svg", { viewBox: "0 0 20 20", class: `swatch ${style}`, "aria-hidden": "true" });
  if (style === "marks" && player === 0) {
    svg("path", { d: "M5 5L15 15M15 5L5 15", class: "mark p0" }, mark);
  } else if (style === "marks") {
    svg("circle", { cx: 10, cy: 10, r: 5.5, class: "mark p1" }, mark);
  } else {
    svg("circle", { cx: 10, cy: 10, r: 8, class: `${style === "discs" ? "disc" : "stone"} p${player}` }, mark);
  }
  return mark;
}

// -- the board ------------------------------------------------------------------------------------
// ui: {marks: {move: mark}|null, pv: [move, ...]|null, canMove, onMove(move)}
const DRAW = { grid: drawGrid, heaps: drawHeaps, tiles: drawTiles, table: drawTable, chess: drawChess, go: drawGo,
               xiangqi: drawXiangqi };
const focusMemory = { kind: null, key: null }; // the focused cell, kept across redraws

export function drawBoard(container, position, ui) {
  const hadFocus = container.contains(document.activeElement);
  container.replaceChildren();
  const kind = position.view.kind;
  container.className = `board-${kind}`;
  (DRAW[kind] ?? drawText)(container, position, ui);
  for (const board of container.querySelectorAll("svg.board")) board.setAttribute("tabindex", "-1"); // its cells take the focus
  if (focusMemory.kind !== kind) focusMemory.key = null;
  focusMemory.kind = kind;
  const items = [...container.querySelectorAll("[data-key]")];
  if (!items.length) return;
  const remembered = items.find((item) => item.getAttribute("data-key") === focusMemory.key);
  const current = remembered ?? items.find((item) => item.getAttribute("data-move")) ?? items[0];
  for (const item of items) item.setAttribute("tabindex", item === current ? "0" : "-1");
  if (hadFocus) current.focus();
}

// Focus one of a board's keyboard items (the roving tabindex: only the focused one is tabbable).
function moveFocus(board, item) {
  if (!item) return;
  for (const other of board.querySelectorAll("[data-key]")) other.setAttribute("tabindex", "-1");
  item.setAttribute("tabindex", "0");
  focusMemory.key = item.getAttribute("data-key");
  item.focus();
}

// Arrow keys walk the board's items through `neighbour(item, key)`; Enter and Space play the
// focused item's move, or `activate(item)` does what a click on it does (pick a piece).
function keyboard(board, ui, neighbour, activate = null) {
  board.addEventListener("focusin", (event) => {
    const item = event.target.closest("[data-key]");
    if (item) focusMemory.key = item.getAttribute("data-key");
  });
  board.addEventListener("keydown", (event) => {
    const item = event.target.closest("[data-key]");
    if (!item) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const move = item.getAttribute("data-move");
      if (activate) activate(item);
      else if (move && ui.canMove) ui.onMove(move);
      return;
    }
    if (!event.key.startsWith("Arrow")) return;
    event.preventDefault();
    moveFocus(board, neighbour(item, event.key));
  });
}

// Buttons for the legal moves, with their values: for boards without cells to click.
export function drawMoveButtons(container, position, ui) {
  container.replaceChildren();
  if (["grid", "chess", "xiangqi"].includes(position.view.kind)) return;
  if (position.view.kind === "go") {
    drawGoButtons(container, position, ui);
    return;
  }
  const shown = position.legal_moves.slice(0, MAX_BUTTONS);
  for (const move of shown) {
    const button = html("button", { type: "button", class: "chip", "data-move": move }, container);
    button.append(document.createTextNode(arrowFor(move)));
    const mark = ui.marks ? ui.marks[move] : undefined;
    if (mark) {
      button.setAttribute("aria-label", `${move}: ${mark.words}`);
      if (mark.kind === "scale") {
        const dot = svg("svg", { viewBox: "0 0 12 12", class: "estimate-dot", "aria-hidden": "true" }, button);
        svg("circle", { cx: 6, cy: 6, r: 5, class: `estimate level-${mark.level}` }, dot);
      } else {
        html("span", { class: `value ${mark.tone}`, "aria-hidden": "true" }, button, mark.text);
      }
    }
    button.disabled = !ui.canMove;
    button.addEventListener("click", () => ui.onMove(move));
  }
  const hidden = (position.legal_move_count ?? shown.length) - shown.length;
  if (hidden > 0) html("span", { class: "more" }, container, `and ${hidden.toLocaleString("en")} more moves`);
}

function arrowFor(move) {
  const arrows = { up: "↑ up", down: "↓ down", left: "← left", right: "→ right" };
  return arrows[move] ?? move;
}

function fitWidth(node, width, height) {
  // as wide as the column allows, but never taller than most of the screen
  node.style.maxWidth = `min(100%, calc(72vh * ${(width / height).toFixed(3)}))`;
}

// Letters above the columns, numbers left of the rows (either may be missing): the
// coordinates moves are written in.
function drawCoordinates(board, view, left, top, step, offset, font) {
  const labels = svg("g", { class: "coordinates", "font-size": font, "text-anchor": "middle",
                            "dominant-baseline": "central", "aria-hidden": "true" }, board);
  (view.col_labels ?? []).forEach((label, c) => {
    svg("text", { x: left + c * step + offset, y: top / 2, class: "coord" }, labels).textContent = label;
  });
  (view.row_labels ?? []).forEach((label, r) => {
    svg("text", { x: left / 2, y: top + r * step + offset, class: "coord" }, labels).textContent = label;
  });
}

// -- grid games (tic-tac-toe, m,n,k, Gomoku, Connect Four, any game declaring a grid) ---------
function cellName(position, r, c) {
  const view = position.view;
  const column = view.col_labels?.[c] ?? String(c + 1);
  if (view.row_labels) return `${column}${view.row_labels[r]}`;
  if (view.gravity) return `column ${column}, row ${view.rows - r}`;
  return `row ${r + 1}, column ${column}`;
}

function drawGrid(container, position, ui) {
  const view = position.view;
  const rows = view.rows, cols = view.cols, size = 100;
  const style = gridStyle(position);
  const pad = style === "discs" ? 14 : 8;
  // coordinates, when the view gives them, in a margin along the top and the left
  const font = Math.max(24, Math.round(Math.max(rows, cols) * 3.4)); // readable on a phone
  const top = pad + (view.col_labels ? Math.round(font * 1.5) : 0);
  const left = pad + (view.row_labels ? Math.round(font * 1.5) : 0); // the first cell's corner
  const width = cols * size + left + pad, height = rows * size + top + pad;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: `board grid ${style}`,
                             role: "grid", "aria-label": `${position.title}: ${rows} by ${cols} board` }, container);
  fitWidth(board, width, height);
  svg("rect", { x: 0, y: 0, width, height, rx: style === "discs" ? 18 : 10, class: "frame" }, board);
  const right = width - pad, bottom = height - pad;
  if (style === "marks") {
    for (let c = 1; c < cols; c++) {
      svg("line", { x1: left + c * size, y1: top + 6, x2: left + c * size, y2: bottom - 6, class: "rule" }, board);
    }
    for (let r = 1; r < rows; r++) {
      svg("line", { x1: left + 6, y1: top + r * size, x2: right - 6, y2: top + r * size, class: "rule" }, board);
    }
  } else if (style === "stones") {
    const half = size / 2;
    for (let c = 0; c < cols; c++) {
      svg("line", { x1: left + c * size + half, y1: top + half, x2: left + c * size + half, y2: bottom - half, class: "rule" }, board);
    }
    for (let r = 0; r < rows; r++) {
      svg("line", { x1: left + half, y1: top + r * size + half, x2: right - half, y2: top + r * size + half, class: "rule" }, board);
    }
  }
  drawCoordinates(board, view, left, top, size, size / 2, font);
  const winning = new Set((view.highlight ?? []).map(([r, c]) => `${r},${c}`));
  const last = view.last ? `${view.last[0]},${view.last[1]}` : null;
  const markAt = gridMarkCells(view, ui.marks);
  // renju: Black's forbidden points, each with its reason (double three, double four, overline)
  const forbidden = new Map((view.forbidden ?? []).map(([r, c, reason]) => [`${r},${c}`, reason]));
  const pvAt = gridPvCells(view, ui.pv ?? []);
  for (let r = 0; r < rows; r++) {
    const row = svg("g", { role: "row" }, board);
    for (let c = 0; c < cols; c++) {
      const x = left + c * size, y = top + r * size, cx = x + size / 2, cy = y + size / 2;
      const owner = view.cells[r][c];
      const move = view.move_at[r][c];
      const cell = svg("g", { class: "cell", role: "gridcell", "data-row": r, "data-col": c, "data-key": `${r},${c}` }, row);
      const words = [cellName(position, r, c), owner === null ? "empty" : playerName(position, owner)];
      if (winning.has(`${r},${c}`)) {
        cell.classList.add("winning");
        words.push("in the winning line");
      }
      const hit = svg("rect", { x, y, width: size, height: size, class: "hit" }, cell);
      if (move !== null && move !== undefined) {
        cell.setAttribute("data-move", move);
        hit.setAttribute("data-move", move);
        if (ui.canMove) cell.classList.add("playable");
        if (view.gravity) words.push(`drop a disc in column ${move}`);
      }
      if (!ui.canMove || move === null || move === undefined) cell.setAttribute("aria-disabled", "true");
      drawPiece(cell, style, owner, cx, cy, size);
      if (style === "stones" && owner !== null && winning.has(`${r},${c}`)) {
        // a ring round each stone of the winning line (the cell's tint hides under the stone)
        svg("circle", { cx, cy, r: size * 0.44, class: "win-ring" }, cell);
      }
      const ahead = pvAt.get(`${r},${c}`);
      if (ahead !== undefined) drawGhost(cell, ahead, position, cx, cy, size);
      if (`${r},${c}` === last) {
        // a mark of its own, drawn over the piece: the winning line's tint stays visible
        cell.classList.add("last");
        words.push("the last move");
        if (style === "marks") svg("rect", { x: x + 7, y: y + 7, width: size - 14, height: size - 14, rx: 8, class: "last-mark" }, cell);
        else svg("circle", { cx, cy, r: 9, class: `last-mark p${owner}` }, cell);
      }
      if (forbidden.has(`${r},${c}`)) {
        const d = size * 0.2;
        cell.classList.add("forbidden");
        cell.setAttribute("data-reason", forbidden.get(`${r},${c}`));
        svg("path", { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`,
                      class: "forbidden-mark" }, cell);
        words.push(`forbidden for Black: ${forbidden.get(`${r},${c}`)}`);
      }
      const mark = markAt.get(`${r},${c}`);
      if (mark) {
        words.push(mark.words);
        drawMark(cell, mark, cx, cy, size);
      }
      cell.setAttribute("aria-label", words.join(", "));
      svg("title", {}, cell).textContent = words.join(", ");
    }
  }
  if (view.gravity) drawColumns(board, view, left, size, height, ui);
  // a forbidden point plays nothing: say why
  const refuse = (cell) => ui.say?.(`Black may not play ${cellName(position, Number(cell.dataset.row), Number(cell.dataset.col))}`
    + ` under renju: it would make ${FORBIDDEN_WORDS[cell.dataset.reason] ?? cell.dataset.reason}.`);
  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-move]");
    if (target && ui.canMove) ui.onMove(target.getAttribute("data-move"));
    else if (ui.canMove && event.target.closest(".cell.forbidden")) refuse(event.target.closest(".cell"));
  });
  keyboard(board, ui, (item, key) => {
    let r = Number(item.getAttribute("data-row")), c = Number(item.getAttribute("data-col"));
    if (key === "ArrowUp") r = Math.max(0, r - 1);
    if (key === "ArrowDown") r = Math.min(rows - 1, r + 1);
    if (key === "ArrowLeft") c = Math.max(0, c - 1);
    if (key === "ArrowRight") c = Math.min(cols - 1, c + 1);
    if (view.gravity && (key === "ArrowLeft" || key === "ArrowRight")) {
      // along the row where a disc would land in the new column
      r = view.move_at.map((line) => line[c]).some((m) => m !== null && m !== undefined)
        ? Math.max(0, view.cells.map((line) => line[c]).lastIndexOf(null)) : r;
    }
    return board.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`);
  }, (item) => {
    const move = item.getAttribute("data-move");
    if (move && ui.canMove) ui.onMove(move);
    else if (ui.canMove && item.classList.contains("forbidden")) refuse(item);
  });
}

const FORBIDDEN_WORDS = { "double three": "two open threes at once (a double three)",
                          "double four": "two fours at once (a double four)",
                          overline: "six or more in a row (an overline)" };

// A move's value on its cell: a proven result as a label, an estimate as a coloured dot.
function drawMark(cell, mark, cx, cy, size) {
  if (mark.kind === "scale") {
    svg("circle", { cx, cy, r: size * 0.17, class: `estimate level-${mark.level}` }, cell);
    return;
  }
  const fontSize = mark.text.length <= 2 ? 36 : mark.text.length === 3 ? 32 : 26;
  svg("text", { x: cx, y: cy, class: `value ${mark.tone}`, "dominant-baseline": "central",
                "text-anchor": "middle", "font-size": fontSize, "aria-hidden": "true" }, cell).textContent = mark.text;
}

function drawPiece(cell, style, owner, cx, cy, size) {
  if (style === "discs") {
    svg("circle", { cx, cy, r: size * 0.4, class: owner === null ? "hole" : `disc p${owner}` }, cell);
  } else if (owner === null) {
    return;
  } else if (style === "marks" && owner === 0) {
    const d = size * 0.27;
    svg("path", { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`,
                  class: "mark p0" }, cell);
  } else if (style === "marks") {
    svg("circle", { cx, cy, r: size * 0.29, class: "mark p1" }, cell);
  } else {
    svg("circle", { cx, cy, r: size * 0.44, class: `stone p${owner}` }, cell);
  }
}

// The principal variation as numbered ghosts: 1 is the move the AI is thinking of playing.
function drawGhost(cell, index, position, cx, cy, size) {
  const player = position.players === 2 ? (position.to_move + index) % 2 : 0;
  svg("circle", { cx, cy, r: size * 0.36, class: `ghost p${player}` }, cell);
  svg("text", { x: cx, y: cy, class: "pv-number", "dominant-baseline": "central",
                "text-anchor": "middle", "aria-hidden": "true" }, cell).textContent = index + 1;
}

// The cells the principal variation's moves would fill (for gravity games: where they land).
function gridPvCells(view, pv) {
  const where = new Map();
  const landing = [];
  for (let c = 0; c < view.cols; c++) {
    let r = view.rows - 1;
    while (r >= 0 && view.cells[r][c] !== null) r--;
    landing.push(r);
  }
  for (const [index, move] of pv.slice(0, 8).entries()) {
    let cell = null;
    for (let r = 0; r < view.rows && !cell; r++) {
      for (let c = 0; c < view.cols && !cell; c++) {
        if (view.move_at[r][c] !== move) continue;
        if (!view.gravity && !where.has(`${r},${c}`)) cell = [r, c];
        if (view.gravity && landing[c] >= 0) cell = [landing[c]--, c];
      }
    }
    if (!cell) break; // a move the board cannot place (the line runs past what is drawn)
    where.set(`${cell[0]},${cell[1]}`, index);
  }
  return where;
}

// Where each move's mark is drawn: on its cell, or for gravity games the cell a disc lands on.
function gridMarkCells(view, marks) {
  const where = new Map();
  if (!marks) return where;
  for (let c = 0; c < view.cols; c++) {
    for (let r = view.rows - 1; r >= 0; r--) {
      const move = view.move_at[r][c];
      if (view.cells[r][c] !== null) continue;
      if (move !== null && move !== undefined && move in marks) where.set(`${r},${c}`, marks[move]);
      if (view.gravity) break; // only the lowest empty cell: where the disc lands
    }
  }
  return where;
}

function drawColumns(board, view, left, size, height, ui) {
  for (let c = 0; c < view.cols; c++) {
    const move = view.move_at.map((row) => row[c]).find((m) => m !== null && m !== undefined);
    if (move === undefined) continue;
    const column = svg("rect", { x: left + c * size, y: 0, width: size, height, class: "column",
                                 "data-move": move, "aria-hidden": "true" }, board);
    if (ui.canMove) column.classList.add("playable");
  }
}

// -- heap games (Nim, Kayles, subtraction, octal, Grundy's game) -----------------------------
// A move on one heap of n tokens, seen as a row: `take` tokens removed from position `start`,
// leaving `start` tokens on the left and the rest on the right (two heaps when both remain;
// take 0 splits the row there). The move is the one whose result (position.previews) is
// exactly that, whatever the game writes it as.
function heapsAfter(heaps, heap, start, take) {
  const left = start, right = heaps[heap] - start - take;
  const parts = [left, right].filter((part) => part > 0).sort((a, b) => a - b);
  return [...heaps.slice(0, heap), ...(parts.length ? parts : [0]), ...heaps.slice(heap + 1)];
}

export function heapMove(position, heap, start, take) {
  const heaps = position.view.heaps;
  if (start < 0 || take < 0 || start + take > heaps[heap]) return null;
  const want = heapsAfter(heaps, heap, start, take);
  for (const [move, after] of Object.entries(position.previews ?? {})) {
    if (Array.isArray(after) && after.length === want.length && after.every((h, i) => h === want[i])) return move;
  }
  return null;
}

function heapWords(heap, start, take, size) {
  const left = start, right = size - start - take;
  if (take === 0) return `split heap ${heap + 1} into ${left} and ${right}`;
  const rest = [left, right].filter((part) => part > 0);
  const leaving = rest.length === 2 ? `${rest[0]} and ${rest[1]}` : rest.length ? `${rest[0]}` : "none";
  return `take ${take} from heap ${heap + 1}, leaving ${leaving}`;
}

// The targets of one heap's row: each token, and (where a move splits rows) the gaps.
//   Nim-like rules: token j takes it and every token after it (leaving j).
//   splitting rules: token j knocks down the fewest tokens from j a move may (Kayles: that pin;
//   Dawson's Kayles: it and its right neighbour), or else splits the row just before it
//   (Grundy's game); the gap after token j knocks down j and j + 1 when that is another move.
export function heapTargets(position, heap, shown) {
  const size = position.view.heaps[heap];
  const targets = [];
  const tokenMoves = [];
  for (let j = 0; j < shown; j++) {
    let found = null;
    if (!position.view.splits) {
      const move = heapMove(position, heap, j, size - j);
      if (move) found = { start: j, take: size - j, move };
    } else {
      for (const take of [1, 2, 3, 0]) {
        const move = heapMove(position, heap, j, take);
        if (move) { found = { start: j, take, move }; break; }
      }
    }
    tokenMoves.push(found?.move ?? null);
    targets.push({ kind: "token", index: j, ...(found ?? { start: j, take: 0, move: null }) });
  }
  if (position.view.splits) {
    for (let j = 0; j + 1 < shown; j++) {
      const move = heapMove(position, heap, j, 2);
      if (move && move !== tokenMoves[j] && move !== tokenMoves[j + 1]) {
        targets.push({ kind: "gap", index: j, start: j, take: 2, move });
      }
    }
  }
  for (const target of targets) {
    target.words = target.move ? heapWords(heap, target.start, target.take, size) : null;
  }
  return targets;
}

function drawHeaps(container, position, ui) {
  const heaps = position.view.heaps;
  const splits = Boolean(position.view.splits);
  const most = Math.min(Math.max(1, ...heaps), 24);
  const step = splits ? 36 : 44, label = 14, rowHeight = 86, tokenTop = 30; // a heap's name above its row
  const width = Math.max(label + most * step + 56, 220), height = Math.max(1, heaps.length) * rowHeight + 8;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: `board heaps${splits ? " pins" : ""}`,
                             role: "grid", "aria-label": `${position.title}: ${heaps.length} ${heaps.length === 1 ? "heap" : "heaps"}` }, container);
  board.style.maxWidth = `min(100%, ${width * 1.2}px)`;
  svg("rect", { x: 0, y: 0, width, height, rx: 10, class: "frame" }, board);
  const tokenX = (j) => label + j * step + step / 2;
  const rowY = (heap) => 4 + heap * rowHeight + tokenTop + (rowHeight - tokenTop) / 2;
  heaps.forEach((count, heap) => {
    const y = rowY(heap);
    svg("text", { x: 14, y: 4 + heap * rowHeight + 18, class: "heap-label", "aria-hidden": "true" }, board)
      .textContent = `heap ${heap + 1}: ${count} ${splits ? (count === 1 ? "pin" : "pins") : (count === 1 ? "token" : "tokens")}`;
    const row = svg("g", { class: "heap", role: "row", "data-heap": heap, "aria-label": `heap ${heap + 1}: ${count}` }, board);
    const shown = Math.min(count, most);
    const targets = ui.canMove ? heapTargets(position, heap, shown) : [];
    const byToken = new Map(targets.filter((t) => t.kind === "token").map((t) => [t.index, t]));
    for (let j = 0; j < shown; j++) {
      const target = byToken.get(j);
      const attributes = { class: "token", role: "gridcell", "data-heap": heap, "data-index": j,
                           "data-key": `${heap}:t${j}` };
      const token = splits
        ? svg("rect", { ...attributes, x: tokenX(j) - 9, y: y - 22, width: 18, height: 44, rx: 9 }, row)
        : svg("circle", { ...attributes, cx: tokenX(j), cy: y, r: 17 }, row);
      let name = `heap ${heap + 1}, ${splits ? "pin" : "token"} ${j + 1}`;
      if (target?.move) {
        token.classList.add("playable");
        token.setAttribute("data-move", target.move);
        token.setAttribute("data-start", target.start);
        token.setAttribute("data-take", target.take);
        name += `: ${target.words}`;
      } else {
        token.setAttribute("aria-disabled", "true");
      }
      token.setAttribute("aria-label", name);
      svg("title", {}, token).textContent = name;
    }
    for (const target of targets.filter((t) => t.kind === "gap")) {
      const gap = svg("rect", { class: "gap playable", role: "gridcell", x: tokenX(target.index) + 10, y: y - 26,
                                width: step - 20, height: 52, rx: 4, "data-heap": heap, "data-index": target.index + 0.5,
                                "data-key": `${heap}:g${target.index}`, "data-move": target.move,
                                "data-start": target.start, "data-take": target.take }, row);
      const name = `heap ${heap + 1}, pins ${target.index + 1} and ${target.index + 2}: ${target.words}`;
      gap.setAttribute("aria-label", name);
      svg("title", {}, gap).textContent = name;
    }
    // keyboard order: the row's targets left to right
    const items = [...row.querySelectorAll("[data-key]")].sort(
      (a, b) => Number(a.getAttribute("data-index")) - Number(b.getAttribute("data-index")));
    items.forEach((item) => row.appendChild(item));
    if (count > most) {
      svg("text", { x: label + most * step + 6, y, class: "heap-label", "dominant-baseline": "central" },
          board).textContent = `+${count - most}`;
    }
  });
  // hovering or focusing a target shows what it takes: the tokens it removes, or the split
  const preview = (target) => {
    for (const node of board.querySelectorAll(".take")) node.classList.remove("take");
    for (const node of board.querySelectorAll(".split-line")) node.remove();
    if (!target || !target.getAttribute("data-move")) return;
    const heap = target.getAttribute("data-heap");
    const start = Number(target.getAttribute("data-start")), take = Number(target.getAttribute("data-take"));
    for (const node of board.querySelectorAll(`.token[data-heap="${heap}"]`)) {
      const j = Number(node.getAttribute("data-index"));
      if (j >= start && j < start + take) node.classList.add("take");
    }
    if (take === 0) {
      const y = rowY(Number(heap));
      svg("line", { class: "split-line", x1: tokenX(start) - step / 2, x2: tokenX(start) - step / 2,
                    y1: y - 26, y2: y + 26 }, board);
    }
  };
  board.addEventListener("mouseover", (event) => preview(event.target.closest(".playable")));
  board.addEventListener("mouseleave", () => preview(null));
  board.addEventListener("focusin", (event) => preview(event.target.closest(".playable")));
  board.addEventListener("click", (event) => {
    const token = event.target.closest("[data-move]");
    if (token && ui.canMove) ui.onMove(token.getAttribute("data-move"));
  });
  keyboard(board, ui, (item, key) => {
    const row = item.closest(".heap");
    const items = [...row.querySelectorAll("[data-key]")];
    const at = items.indexOf(item);
    if (key === "ArrowLeft") return items[Math.max(0, at - 1)];
    if (key === "ArrowRight") return items[Math.min(items.length - 1, at + 1)];
    const rows = [...board.querySelectorAll(".heap")].filter((r) => r.querySelector("[data-key]"));
    const next = rows[rows.indexOf(row) + (key === "ArrowUp" ? -1 : 1)];
    if (!next) return item;
    const index = Number(item.getAttribute("data-index"));
    const choices = [...next.querySelectorAll("[data-key]")];
    return choices.reduce((best, node) =>
      Math.abs(Number(node.getAttribute("data-index")) - index) < Math.abs(Number(best.getAttribute("data-index")) - index) ? node : best);
  });
}

// -- 2048 -------------------------------------------------------------------------------------
// Tile colours by power of two, each with a text colour that reads at 4.5:1 or better.
export const TILE_COLOURS = ["#cdc1b4", "#eee4da", "#ede0c8", "#f2b179", "#f59563", "#f67c5f", "#f65e3b",
  "#edcf72", "#edcc61", "#edc850", "#edc53f", "#edc22e", "#3c3a32"];
const DARK_TEXT = "#2a221b", LIGHT_TEXT = "#ffffff";
export const tileTextColour = (power) => (power === TILE_COLOURS.length - 1 ? LIGHT_TEXT : DARK_TEXT);

function drawTiles(container, position, ui) {
  const view = position.view;
  const size = 100, gap = 12;
  const labelled = Boolean(view.col_labels || view.row_labels);
  const margin = labelled ? 34 : 0;
  const width = view.cols * (size + gap) + gap + margin, height = view.rows * (size + gap) + gap + margin;
  const words = view.cells.map((row, r) => `row ${view.row_labels?.[r] ?? r + 1}: ` +
    row.map((value) => (value > 0 ? value : "empty")).join(", ")).join("; ");
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board tiles", role: "img",
                             "aria-label": `${position.title}: ${words}` }, container);
  fitWidth(board, width, height);
  svg("rect", { x: 0, y: 0, width, height, rx: 12, class: "page" }, board);
  svg("rect", { x: margin, y: margin, width: width - margin, height: height - margin, rx: 12, class: "frame" }, board);
  if (labelled) drawCoordinates(board, view, margin + gap, margin, size + gap, size / 2, 22);
  view.cells.forEach((row, r) => row.forEach((value, c) => {
    const x = margin + gap + c * (size + gap), y = margin + gap + r * (size + gap);
    const power = value > 0 ? Math.min(Math.round(Math.log2(value)), TILE_COLOURS.length - 1) : 0;
    svg("rect", { x, y, width: size, height: size, rx: 8, fill: TILE_COLOURS[power], class: "tile" }, board);
    if (value > 0) {
      const digits = String(value).length;
      svg("text", { x: x + size / 2, y: y + size / 2, class: "tile-text", "aria-hidden": "true",
                    fill: tileTextColour(power),
                    "font-size": digits <= 2 ? 44 : digits === 3 ? 36 : 28,
                    "dominant-baseline": "central", "text-anchor": "middle" }, board).textContent = value;
    }
  }));
  // swipes on a phone (the arrow keys are read by the page)
  let start = null;
  board.addEventListener("touchstart", (event) => {
    start = [event.touches[0].clientX, event.touches[0].clientY];
  }, { passive: true });
  board.addEventListener("touchend", (event) => {
    if (!start || !ui.canMove) return;
    const dx = event.changedTouches[0].clientX - start[0], dy = event.changedTouches[0].clientY - start[1];
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
    const move = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up");
    if (position.legal_moves.includes(move)) ui.onMove(move);
  });
}

// -- any other game: its own text rendering (its moves are the buttons below) -----------------
function drawText(container, position) {
  html("pre", { class: "text-board", role: "img", "aria-label": position.view.text ?? position.text },
       container, position.view.text ?? position.text);
}

// -- card tables (poker, Liar's Dice) -------------------------------------------------------------
// A seat's hidden card or die comes as "?" and is drawn face down; the page asks the server for
// the view as its own seat sees it, so the other seat's cards never reach this code.
function drawTable(container, position, ui) {
  const view = position.view;
  const width = 640, height = 460, mid = width / 2;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board table",
                             role: "img", "aria-label": "card table" }, container);
  fitWidth(board, width, height);
  svg("rect", { x: 0, y: 0, width, height, rx: 18, class: "frame" }, board);
  svg("ellipse", { cx: mid, cy: height / 2, rx: mid - 14, ry: height / 2 - 22, class: "felt",
                   fill: "#1f6f43", stroke: "#0f3d24", "stroke-width": 8 }, board);
  const bottom = ui.bottom ?? 1;
  const light = { fill: "#f4f4f4", "dominant-baseline": "central" };
  view.seats.forEach((seat, index) => {
    const near = index === bottom;
    const top = near ? 335 : 45;
    const middle = top + 50;
    const reach = handWidth(seat.hand.length, view.pieces) / 2 + 14; // labels clear the hand
    const label = `${seat.name}${near ? " (you)" : ""}${seat.folded ? " · folded" : ""}`;
    svg("text", { ...light, x: mid - reach, y: middle, "text-anchor": "end", "font-size": 17,
                  class: `seat-name${seat.to_move ? " to-move" : ""}`,
                  fill: seat.to_move ? "#ffd54a" : "#f4f4f4",
                  "font-weight": seat.to_move ? 700 : 400 }, board).textContent = label;
    drawHand(board, seat.hand, view.pieces, mid, top, seat.folded);
    if (view.pieces === "cards") {
      svg("text", { ...light, x: mid + reach, y: middle, "font-size": 17, class: "stake" }, board)
        .textContent = `staked ${seat.staked}`;
    }
  });
  if (view.board.length) drawHand(board, view.board, view.pieces, mid, 176, false);
  if (view.pot !== null && view.pot !== undefined) {
    svg("text", { ...light, x: mid, y: view.board.length ? 160 : 220, "font-size": 20,
                  "text-anchor": "middle", class: "pot" }, board).textContent = `pot ${view.pot}`;
  }
  const history = view.history.join(" ").replaceAll(" / ", "  │  ");
  svg("text", { ...light, x: mid, y: 290, "font-size": 17, "text-anchor": "middle",
                class: "table-history" }, board).textContent = history;
  svg("text", { ...light, x: mid, y: 316, "font-size": 16, "font-style": "italic",
                "text-anchor": "middle", class: "table-status" }, board).textContent = view.status;
}

function handWidth(count, pieces) {
  return Math.max(1, count) * ((pieces === "dice" ? 64 : 72) + 14) - 14;
}

function drawHand(board, hand, pieces, centre, top, folded) {
  const size = pieces === "dice" ? 64 : 72, gap = 14;
  const tall = pieces === "dice" ? 64 : 100;
  const start = centre - (hand.length * (size + gap) - gap) / 2;
  hand.forEach((face, i) => {
    const x = start + i * (size + gap);
    const hidden = face === "?";
    const group = svg("g", { class: `piece${hidden ? " face-down" : ""}`, opacity: folded ? 0.45 : 1 }, board);
    svg("rect", { x, y: top, width: size, height: tall, rx: pieces === "dice" ? 12 : 8,
                  fill: hidden ? "#7a2230" : "#fdfdf8", stroke: "#222", "stroke-width": 2 }, group);
    if (hidden) {
      svg("rect", { x: x + 8, y: top + 8, width: size - 16, height: tall - 16, rx: 5, fill: "none",
                    stroke: "#e9c46a", "stroke-width": 2 }, group);
      return;
    }
    if (pieces === "dice") drawPips(group, Number(face), x, top, size);
    else {
      // "K" (a rank alone) or "Kh" (rank and suit: drawn with the suit's sign, hearts and
      // diamonds in red)
      const suit = face.length === 2 ? SUIT_SIGNS[face[1]] : undefined;
      const red = face[1] === "h" || face[1] === "d";
      svg("text", { x: x + size / 2, y: top + tall / 2, "text-anchor": "middle",
                    "dominant-baseline": "central", "font-size": suit ? 32 : 40, "font-weight": 700,
                    fill: red ? "#c0392b" : "#222" }, group).textContent = suit ? face[0] + suit : face;
    }
  });
}

const SUIT_SIGNS = { s: "♠", h: "♥", d: "♦", c: "♣" };

const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]], 5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [0, 2], [1, 0], [1, 2], [2, 0], [2, 2]] };

function drawPips(group, face, x, top, size) {
  const step = size / 4;
  for (const [r, c] of PIPS[face] ?? []) {
    svg("circle", { cx: x + step * (c + 1), cy: top + step * (r + 1), r: size / 11, fill: "#222" }, group);
  }
}

// -- hand ranges (push or fold) -------------------------------------------------------------------
// values: {"AA": x, "AKs": x, "AKo": x, ...}; scale.kind "probability" (x in [0, 1], shown as a
// percentage) or "threshold" (x a stack in bb up to scale.top, 0 meaning never).
const GRID_RANKS = "AKQJT98765432";

export function rangeCell(row, column) {
  const high = GRID_RANKS[Math.min(row, column)], low = GRID_RANKS[Math.max(row, column)];
  return row === column ? high + low : row < column ? `${high}${low}s` : `${high}${low}o`;
}

export function drawRangeGrid(container, values, scale) {
  container.replaceChildren();
  const size = 46, width = 13 * size, height = 13 * size;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board range-grid",
                             role: "grid", "aria-label": "13 by 13 hand grid" }, container);
  board.style.maxWidth = "100%";
  for (let row = 0; row < 13; row++) {
    const line = svg("g", { role: "row" }, board);
    for (let column = 0; column < 13; column++) {
      const hand = rangeCell(row, column);
      const value = values[hand] ?? 0;
      const share = scale.kind === "threshold" ? value / scale.top : value;
      const x = column * size, y = row * size;
      // the more often (or the deeper) a hand plays, the deeper its red; never: the paper
      const shown = Math.max(0, Math.min(1, share));
      const fill = shown < 0.005 ? "#f3efe6" : `rgba(205, 60, 40, ${(0.15 + 0.85 * shown).toFixed(3)})`;
      const cell = svg("g", { class: "range-cell", "data-hand": hand, role: "gridcell" }, line);
      svg("rect", { x, y, width: size - 1, height: size - 1, fill }, cell);
      svg("text", { x: x + size / 2, y: y + 15, "text-anchor": "middle", "font-size": 12,
                    fill: "#222" }, cell).textContent = hand;
      const label = scale.kind === "threshold"
        ? (value <= 0 ? "–" : value >= scale.top ? `${scale.top}+` : value.toFixed(1))
        : `${Math.round(value * 100)}%`;
      svg("text", { x: x + size / 2, y: y + 34, "text-anchor": "middle", "font-size": 12,
                    "font-weight": 700, fill: "#222" }, cell).textContent = label;
      svg("title", {}, cell).textContent = `${hand}: ${label}`;
      cell.setAttribute("aria-label", `${hand}: ${label}`);
    }
  }
}

// -- chess ----------------------------------------------------------------------------------------
// Pieces drawn as shapes of our own on a 100 x 100 square (no font: a glyph's colours depend on
// the font the machine falls back to); white ones light with a dark outline, black ones dark.
// Each piece: [element, attributes] in drawing order; "detail" parts take the other colour.
const BASE = ["path", { d: "M24 88H76V80Q76 73 69 73H31Q24 73 24 80Z" }];
const CHESS_SHAPES = {
  p: [["path", { d: "M36 74Q38 56 45 47H55Q62 56 64 74Z" }], ["circle", { cx: 50, cy: 36, r: 12 }], BASE],
  r: [["path", { d: "M33 74L36 44H64L67 74Z" }],
    ["path", { d: "M29 44V22H38V29H45V22H55V29H62V22H71V44Z" }], BASE],
  n: [["path", { d: "M32 74C31 60 40 53 45 45C38 47 31 50 27 47C22 43 27 35 35 29C41 24 45 17 49 13L54 20C67 23 75 37 72 57L70 74Z" }],
    ["circle", { cx: 44, cy: 30, r: 3, detail: true }], BASE],
  b: [["circle", { cx: 50, cy: 17, r: 5 }], ["path", { d: "M50 23C63 33 67 46 60 58H40C33 46 37 33 50 23Z" }],
    ["path", { d: "M54 33L46 45", detail: true, stroke: true }], ["path", { d: "M40 58H60L64 74H36Z" }], BASE],
  q: [["path", { d: "M30 73L21 34L34 53L36 23L44 50L50 18L56 50L64 23L66 53L79 34L70 73Z" }],
    ["circle", { cx: 21, cy: 32, r: 4 }], ["circle", { cx: 36, cy: 21, r: 4 }], ["circle", { cx: 50, cy: 16, r: 4 }],
    ["circle", { cx: 64, cy: 21, r: 4 }], ["circle", { cx: 79, cy: 32, r: 4 }], BASE],
  k: [["path", { d: "M46 6H54V12H60V19H54V27H46V19H40V12H46Z" }], ["path", { d: "M44 27H56L58 44H42Z" }],
    ["path", { d: "M30 73C17 53 29 34 50 46C71 34 83 53 70 73Z" }], BASE],
};
const CHESS_WORDS = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
const CHESS_INK = { white: ["#fdfaf3", "#1d1b19"], black: ["#2b2723", "#0d0c0b"] }; // fill, outline

// One piece as SVG in `parent`, its square's corner at (x, y) and `size` wide.
export function drawChessPiece(parent, letter, x, y, size) {
  const white = letter === letter.toUpperCase();
  const [fill, outline] = CHESS_INK[white ? "white" : "black"];
  const detail = white ? outline : "#fdfaf3";
  const group = svg("g", { class: `piece ${white ? "white" : "black"}`, "data-piece": letter,
                           transform: `translate(${x} ${y}) scale(${size / 100})`, "pointer-events": "none" }, parent);
  for (const [name, attributes] of CHESS_SHAPES[letter.toLowerCase()]) {
    const { detail: isDetail, stroke: isStroke, ...shape } = attributes;
    const paint = isDetail
      ? (isStroke ? { fill: "none", stroke: detail, "stroke-width": 3, "stroke-linecap": "round" } : { fill: detail })
      : { fill, stroke: outline, "stroke-width": 2.6, "stroke-linejoin": "round" };
    svg(name, { ...shape, ...paint }, group);
  }
  return group;
}

let chessSelection = { fen: null, from: null }; // the piece picked, kept across redraws

function chessSquare(view, name) {
  // a square name ("e4") to its row (0 = rank 8) and column
  return [view.ranks.indexOf(name[1]), view.files.indexOf(name[0])];
}

const CHESS_SIZE = 100, CHESS_MARGIN = 34, CHESS_TOP = 8;

function drawChess(container, position, ui) {
  const view = position.view;
  const size = CHESS_SIZE, margin = CHESS_MARGIN;
  const width = 8 * size + margin + 8, height = 8 * size + margin + 8;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board chess", role: "grid",
                             "aria-label": "chess board" }, container);
  fitWidth(board, width, height);
  svg("rect", { x: 0, y: 0, width, height, rx: 10, fill: "#f3ead9", stroke: "#b8a382" }, board);
  if (chessSelection.fen !== view.fen) chessSelection = { fen: view.fen, from: null };
  const selected = chessSelection.from;
  const targets = chessTargets(view, selected);
  const pvFirst = ui.pv && ui.pv.length ? ui.pv[0] : null;
  const lastMove = position.moves?.length ? position.moves[position.moves.length - 1] : null;
  const lastSquares = lastMove && /^[a-h][1-8][a-h][1-8]/.test(lastMove) ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : [];
  const left = margin, top = CHESS_TOP;
  for (let r = 0; r < 8; r++) {
    const row = svg("g", { role: "row" }, board);
    for (let c = 0; c < 8; c++) {
      const name = view.files[c] + view.ranks[r];
      const x = left + c * size, y = top + r * size;
      const piece = view.board[r][c];
      const cell = svg("g", { class: "square", "data-square": name, role: "gridcell", "data-key": name,
                              "data-row": r, "data-col": c }, row);
      const dark = (r + c) % 2 === 1;
      let fill = dark ? "#b58863" : "#f0d9b5";
      if (lastSquares.includes(name)) fill = dark ? "#c9a23f" : "#ead27a";
      if (name === selected) fill = "#e2c35a";
      svg("rect", { x, y, width: size, height: size, fill, class: "sq" }, cell);
      const words = [name, piece ? `${piece === piece.toUpperCase() ? "white" : "black"} ${CHESS_WORDS[piece.toLowerCase()]}` : "empty"];
      if (lastSquares.includes(name)) {
        cell.classList.add("last-move");
        words.push(name === lastSquares[0] ? "the last move from here" : "the last move to here");
      }
      if (view.check === name) {
        svg("circle", { cx: x + size / 2, cy: y + size / 2, r: size * 0.47, fill: "rgba(220, 30, 30, 0.55)",
                        class: "check" }, cell);
        words.push("in check");
      }
      if (pvFirst && (pvFirst.slice(0, 2) === name || pvFirst.slice(2, 4) === name)) {
        svg("rect", { x: x + 3, y: y + 3, width: size - 6, height: size - 6, fill: "none",
                      stroke: "rgba(40, 110, 200, 0.8)", "stroke-width": 6, class: "pv" }, cell);
      }
      if (piece) drawChessPiece(cell, piece, x, y, size);
      if (targets.has(name)) {
        svg("circle", { cx: x + size / 2, cy: y + size / 2, r: piece ? size * 0.46 : size * 0.15,
                        fill: piece ? "none" : "rgba(30, 90, 40, 0.45)",
                        stroke: piece ? "rgba(30, 90, 40, 0.6)" : "none", "stroke-width": 7,
                        class: "target", "pointer-events": "none" }, cell);
        words.push(`a move of the ${CHESS_WORDS[view.board[chessSquare(view, selected)[0]][chessSquare(view, selected)[1]].toLowerCase()]} on ${selected}`);
      }
      if (name === selected) words.push("selected");
      svg("rect", { x: x + 3, y: y + 3, width: size - 6, height: size - 6, class: "focus-ring" }, cell);
      const movable = ui.canMove && (view.moves[name] || targets.has(name));
      if (movable) {
        cell.classList.add("playable");
        cell.setAttribute("data-move", targets.has(name) ? targets.get(name)[0].move : name);
      } else {
        cell.setAttribute("aria-disabled", "true");
      }
      cell.style.cursor = movable ? "pointer" : "default";
      cell.setAttribute("aria-label", words.join(", "));
    }
  }
  // coordinates: files under the board, ranks to its left
  const labels = svg("g", { "aria-hidden": "true" }, board);
  for (let c = 0; c < 8; c++) {
    svg("text", { x: left + c * size + size / 2, y: top + 8 * size + margin / 2, "text-anchor": "middle",
                  "dominant-baseline": "central", "font-size": 22, fill: "#6d5c44", class: "coord" }, labels)
      .textContent = view.files[c];
  }
  for (let r = 0; r < 8; r++) {
    svg("text", { x: margin / 2, y: top + r * size + size / 2, "text-anchor": "middle",
                  "dominant-baseline": "central", "font-size": 22, fill: "#6d5c44", class: "coord" }, labels)
      .textContent = view.ranks[r];
  }
  const redraw = () => drawBoard(container, position, ui);
  // a click (or Enter) on a square: pick a piece, or play to a marked target
  const choose = (name) => {
    if (!ui.canMove) return;
    if (targets.has(name)) {
      playChess(container, targets.get(name), ui, view, board);
      return;
    }
    chessSelection = { fen: view.fen, from: view.moves[name] && name !== selected ? name : null };
    redraw();
  };
  let dragged = false; // a drag ends with a click event of its own, to be ignored
  board.addEventListener("click", (event) => {
    if (dragged) {
      dragged = false;
      return;
    }
    const cell = event.target.closest("[data-square]");
    if (cell) choose(cell.getAttribute("data-square"));
  });
  dragPieces(board, view, ui, (from, to) => {
    dragged = true;
    const options = chessTargets(view, from).get(to);
    if (options) playChess(container, options, ui, view, board);
    else {
      chessSelection = { fen: view.fen, from: null };
      redraw();
    }
  });
  keyboard(board, ui, (item, key) => {
    let r = Number(item.getAttribute("data-row")), c = Number(item.getAttribute("data-col"));
    if (key === "ArrowUp") r = Math.max(0, r - 1);
    if (key === "ArrowDown") r = Math.min(7, r + 1);
    if (key === "ArrowLeft") c = Math.max(0, c - 1);
    if (key === "ArrowRight") c = Math.min(7, c + 1);
    return board.querySelector(`[data-row="${r}"][data-col="${c}"]`);
  }, (item) => choose(item.getAttribute("data-square")));
}

// square -> the moves from `from` to it (several when they differ only by a promotion)
function chessTargets(view, from) {
  const targets = new Map();
  for (const option of (from && view.moves[from]) || []) {
    if (!targets.has(option.to)) targets.set(option.to, []);
    targets.get(option.to).push(option);
  }
  return targets;
}

function playChess(container, options, ui, view, board) {
  if (options.length === 1) {
    chessSelection = { fen: view.fen, from: null };
    ui.onMove(options[0].move);
  } else {
    choosePromotion(container, options, ui, view, board);
  }
}

// Drag a piece to a square: pointer down on a piece that can move, the piece follows the
// pointer, and `drop(from, to)` is told where it was let go (to: null off the board). A press
// that does not move is left to the click handler.
function dragPieces(board, view, ui, drop) {
  let drag = null;
  const point = (event) => {
    const matrix = board.getScreenCTM().inverse();
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
    return [p.x, p.y];
  };
  const squareAt = ([x, y]) => {
    const c = Math.floor((x - CHESS_MARGIN) / CHESS_SIZE), r = Math.floor((y - CHESS_TOP) / CHESS_SIZE);
    return r >= 0 && r < 8 && c >= 0 && c < 8 ? view.files[c] + view.ranks[r] : null;
  };
  board.addEventListener("pointerdown", (event) => {
    if (!ui.canMove || event.button !== 0) return;
    const cell = event.target.closest("[data-square]");
    const from = cell && cell.getAttribute("data-square");
    if (!from || !view.moves[from]) return;
    drag = { from, start: point(event), piece: cell.querySelector(".piece"), moved: false, id: event.pointerId };
  });
  board.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const [x, y] = point(event);
    if (!drag.moved && Math.hypot(x - drag.start[0], y - drag.start[1]) < 12) return;
    if (!drag.moved) {
      drag.moved = true;
      board.setPointerCapture?.(event.pointerId);
      board.appendChild(drag.piece.parentNode); // drawn above the other squares
      drag.piece.classList.add("dragging");
    }
    drag.piece.setAttribute("transform", `translate(${x - CHESS_SIZE / 2} ${y - CHESS_SIZE / 2}) scale(1)`);
    event.preventDefault();
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const finished = drag;
    drag = null;
    if (finished.moved) drop(finished.from, event.type === "pointerup" ? squareAt(point(event)) : null);
  };
  board.addEventListener("pointerup", end);
  board.addEventListener("pointercancel", end);
}

// Several moves to one square differ only by the piece a pawn becomes: a small column of the
// four pieces over the promotion square, running towards the board's middle (as on a real
// board, where the new piece is set down).
function choosePromotion(container, options, ui, view, board) {
  container.querySelector(".promotion")?.remove();
  const white = view.turn === "white";
  const to = options[0].to;
  const [row, col] = chessSquare(view, to);
  const box = board.getBoundingClientRect(), around = container.getBoundingClientRect();
  const scale = box.width / board.viewBox.baseVal.width;
  const square = CHESS_SIZE * scale;
  const downwards = row < 4;
  const chooser = html("div", { class: "promotion", role: "dialog", "aria-label": `promote the pawn on ${to} to` }, container);
  chooser.style.left = `${box.left - around.left + (CHESS_MARGIN + col * CHESS_SIZE) * scale}px`;
  chooser.style.top = `${box.top - around.top + (CHESS_TOP + (downwards ? row : row - 3) * CHESS_SIZE) * scale}px`;
  chooser.style.width = `${square}px`;
  chooser.style.flexDirection = downwards ? "column" : "column-reverse";
  const close = () => {
    chooser.remove();
    chessSelection = { fen: view.fen, from: null };
  };
  for (const letter of ["q", "r", "b", "n"]) {
    const option = options.find((o) => o.promotion === letter);
    if (!option) continue;
    const button = html("button", { type: "button", class: "promote", "data-move": option.move,
                                    "aria-label": `promote to a ${CHESS_WORDS[letter]}`, title: `promote to a ${CHESS_WORDS[letter]}` }, chooser);
    button.style.height = `${square}px`;
    const picture = svg("svg", { viewBox: "0 0 100 100", "aria-hidden": "true" }, button);
    drawChessPiece(picture, white ? letter.toUpperCase() : letter, 0, 0, 100);
    button.addEventListener("click", () => {
      close();
      ui.onMove(option.move);
    });
    button.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      close();
      board.querySelector("[data-key][tabindex='0']")?.focus();
    });
  }
  chooser.querySelector("button")?.focus();
}

// -- Go -----------------------------------------------------------------------------------------
// A wooden board of lines with the coordinates round it and the star points; stones on the
// crossings, the last one marked; while the AI thinks, its most visited moves with their win
// rates (extra.best_moves) and its line; at the end, each side's area and the result.
const GO_WOOD = "#dcb35c", GO_LINE = "#3b2a14";
const GO_CANDIDATE = 0.42; // a candidate's circle, in steps between lines
const GO_BADGE = 0.14, GO_BADGE_OFFSET = 0.4; // a line's number on a candidate: drawGoPvBadge
const GO_PV_SHOWN = 6; // the line's first moves drawn on the board

function drawGo(container, position, ui) {
  const view = position.view;
  const n = view.rows, step = 100, margin = 120; // the coordinates clear of the edge stones
  const size = (n - 1) * step + 2 * margin;
  const at = (i) => margin + i * step;
  const board = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "board go", role: "grid",
                             "aria-label": `${n} by ${n} Go board` }, container);
  fitWidth(board, size, size);
  const defs = svg("defs", {}, board);
  for (const [id, inner, outer] of [["go-black", "#666", "#000"], ["go-white", "#fff", "#bbb"]]) {
    const gradient = svg("radialGradient", { id, cx: "35%", cy: "35%", r: "65%" }, defs);
    svg("stop", { offset: "0%", "stop-color": inner }, gradient);
    svg("stop", { offset: "100%", "stop-color": outer }, gradient);
  }
  // inline styles: the page's stylesheet colours .frame and .stone for the other boards
  svg("rect", { x: 0, y: 0, width: size, height: size, rx: 14, class: "frame go-wood",
                style: `fill: ${GO_WOOD}; stroke: #b88a3a; stroke-width: 4` }, board);
  for (let i = 0; i < n; i++) {
    svg("line", { x1: at(0), y1: at(i), x2: at(n - 1), y2: at(i), stroke: GO_LINE, "stroke-width": 3 }, board);
    svg("line", { x1: at(i), y1: at(0), x2: at(i), y2: at(n - 1), stroke: GO_LINE, "stroke-width": 3 }, board);
  }
  for (const [r, c] of view.hoshi ?? []) svg("circle", { cx: at(c), cy: at(r), r: 11, fill: GO_LINE }, board);
  const font = 36;
  const labels = svg("g", { "font-size": font, "text-anchor": "middle", "dominant-baseline": "central",
                            fill: GO_LINE, class: "coordinates", "aria-hidden": "true" }, board);
  view.col_labels.forEach((label, c) => {
    svg("text", { x: at(c), y: margin / 2 - 14, class: "coord" }, labels).textContent = label;
    svg("text", { x: at(c), y: size - margin / 2 + 14, class: "coord" }, labels).textContent = label;
  });
  view.row_labels.forEach((label, r) => {
    svg("text", { x: margin / 2 - 14, y: at(r), class: "coord" }, labels).textContent = label;
    svg("text", { x: size - margin / 2 + 14, y: at(r), class: "coord" }, labels).textContent = label;
  });
  const thinking = ui.thinking && ui.thinking.extra ? ui.thinking.extra.best_moves ?? [] : [];
  const candidates = new Map(thinking.map((entry, rank) => [entry.move, { ...entry, rank }]));
  const pv = ui.pv ?? [];
  const last = view.last ? `${view.last[0]},${view.last[1]}` : null;
  for (let r = 0; r < n; r++) {
    const row = svg("g", { role: "row" }, board);
    for (let c = 0; c < n; c++) {
      const cx = at(c), cy = at(r), owner = view.cells[r][c], move = view.move_at[r][c];
      const cell = svg("g", { class: "cell", "data-row": r, "data-col": c, "data-key": `${r},${c}`,
                              role: "gridcell" }, row);
      const hit = svg("rect", { x: cx - step / 2, y: cy - step / 2, width: step, height: step,
                                fill: "transparent", class: "hit" }, cell);
      const words = [`${view.col_labels[c]}${view.row_labels[r]}`,
                     owner === null ? "empty" : owner === 0 ? "black stone" : "white stone"];
      if (`${r},${c}` === last) words.push("the last move");
      if (move !== null && move !== undefined) {
        hit.setAttribute("data-move", move);
        cell.setAttribute("data-move", move);
        svg("title", {}, hit).textContent = move;
        if (ui.canMove) cell.classList.add("playable");
      }
      if (!ui.canMove || move === null || move === undefined) cell.setAttribute("aria-disabled", "true");
      cell.setAttribute("aria-label", words.join(", "));
      if (owner !== null) {
        const paint = `url(#go-${owner === 0 ? "black" : "white"})`;
        svg("circle", { cx, cy, r: step * 0.47, class: `stone p${owner}`,
                        style: `fill: ${paint}; stroke: ${owner === 0 ? "#000" : "#888"}; stroke-width: 2` }, cell);
        if (`${r},${c}` === last) {
          svg("circle", { cx, cy, r: step * 0.18, fill: "none", "stroke-width": 6,
                          stroke: owner === 0 ? "#fff" : "#000", class: "last-move" }, cell);
        }
      } else if (view.territory && view.territory[r][c] !== null) {
        const side = view.territory[r][c];
        svg("rect", { x: cx - 18, y: cy - 18, width: 36, height: 36, class: `territory p${side}`,
                      fill: side === 0 ? "#111" : "#f8f8f8", stroke: "#555", "stroke-width": 2 }, cell);
      } else if (move && candidates.has(move)) {
        const entry = candidates.get(move);
        const colour = entry.rank === 0 ? "#2e7d32" : "#1565c0";
        svg("circle", { cx, cy, r: GO_CANDIDATE * step, fill: colour, opacity: 0.75, class: "candidate" }, cell);
        svg("text", { x: cx, y: cy - 12, "text-anchor": "middle", "dominant-baseline": "central",
                      "font-size": 30, fill: "#fff", class: "win-rate", "aria-hidden": "true" }, cell)
          .textContent = `${Math.round(entry.win_rate * 100)}`;
        svg("text", { x: cx, y: cy + 20, "text-anchor": "middle", "dominant-baseline": "central",
                      "font-size": 22, fill: "#fff", class: "visits", "aria-hidden": "true" }, cell)
          .textContent = compactCount(entry.visits);
        const index = pv.indexOf(move);
        if (index >= 0 && index < GO_PV_SHOWN) drawGoPvBadge(cell, index, position, cx, cy, step);
      } else if (move && pv.indexOf(move) >= 0 && pv.indexOf(move) < GO_PV_SHOWN) {
        const index = pv.indexOf(move);
        const player = (position.to_move + index) % 2;
        svg("circle", { cx, cy, r: step * 0.4, class: `ghost p${player}` }, cell);
        svg("text", { x: cx, y: cy, class: "pv-number", "dominant-baseline": "central",
                      "text-anchor": "middle", "aria-hidden": "true" }, cell).textContent = index + 1;
      }
    }
  }
  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-move]");
    if (target && ui.canMove) ui.onMove(target.getAttribute("data-move"));
  });
  keyboard(board, ui, (item, key) => {
    let r = Number(item.getAttribute("data-row")), c = Number(item.getAttribute("data-col"));
    if (key === "ArrowUp") r = Math.max(0, r - 1);
    if (key === "ArrowDown") r = Math.min(n - 1, r + 1);
    if (key === "ArrowLeft") c = Math.max(0, c - 1);
    if (key === "ArrowRight") c = Math.min(n - 1, c + 1);
    return board.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`);
  });
}

// A line's move on a candidate's point: its number on a small stone of the mover's colour at
// the point's top-right corner, just clear of the candidate's circle (so the win rate, the
// visits and the number all read) and of the neighbours' circles and stones.
//
//        +-----------+        circle: radius GO_CANDIDATE (0.42 of a step) round the point
//        |   .-.  (2)|        badge: centre 0.4 step right and up, radius 0.14:
//        |  / 48\    |        0.4 * sqrt(2) - 0.14 = 0.426 > 0.42 from the point,
//        |  \166/    |        0.72 from the neighbours' points (> 0.42 + 0.14, > 0.47 + 0.14)
//        |   '-'     |
//        +-----------+
function drawGoPvBadge(cell, index, position, cx, cy, step) {
  const player = (position.to_move + index) % 2;
  const x = cx + GO_BADGE_OFFSET * step, y = cy - GO_BADGE_OFFSET * step;
  svg("circle", { cx: x, cy: y, r: GO_BADGE * step, class: `pv-badge p${player}`,
                  style: `fill: ${player === 0 ? "#111" : "#fff"}; stroke: #555; stroke-width: 2` }, cell);
  svg("text", { x, y, class: "pv-number", "dominant-baseline": "central", "text-anchor": "middle",
                "aria-hidden": "true",
                style: `font-size: 20px; fill: ${player === 0 ? "#fff" : "#111"}` }, cell).textContent = index + 1;
}

function compactCount(n) {
  return n >= 10000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : `${n}`;
}

// Below the Go board: the pass button, the prisoners, komi, the win rate as the AI thinks,
// and the result at the end.
function drawGoButtons(container, position, ui) {
  const view = position.view;
  if (view.pass_move) {
    const button = html("button", { type: "button", class: "chip", "data-move": view.pass_move }, container, "pass");
    button.disabled = !ui.canMove;
    button.addEventListener("click", () => ui.onMove(view.pass_move));
  }
  const [black, white] = view.captures ?? [0, 0];
  html("span", { class: "go-captures" }, container,
       `captures: black ${black}, white ${white} · komi ${view.komi}`);
  const extra = ui.thinking && ui.thinking.extra;
  if (extra && typeof extra.win_rate === "number") {
    const mover = position.to_move === 0 ? "black" : "white";
    html("span", { class: "go-win-rate" }, container,
         ` · ${mover} wins ${Math.round(extra.win_rate * 100)}% (${ui.thinking.nodes.toLocaleString("en")} playouts)`);
  }
  if (view.result) html("strong", { class: "go-result" }, container, ` · result ${view.result}`);
}

// -- xiangqi --------------------------------------------------------------------------------------
// Pieces stand on the points where the lines cross: nine files, ten ranks, the river between
// ranks 4 and 5 (the inner files stop at its banks), a palace of two diagonals at each end.
// Round pieces with their characters, red and black; click a piece and then a marked point.
const XIANGQI_NAMES = { K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵",
                        k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒" };
const XIANGQI_WORDS = { k: "general", a: "advisor", b: "elephant", n: "horse", r: "chariot", c: "cannon",
                        p: "soldier" };
const XIANGQI_LETTERS = { k: "K", a: "A", b: "E", n: "H", r: "R", c: "C", p: "P" }; // WXF
const XIANGQI_WOOD = "#eed9a6", XIANGQI_LINE = "#5a3d1b";
let xiangqiSelection = { fen: null, from: null };
let chineseFont = null; // whether the browser can draw the characters (else: WXF letters)

// A machine without a Chinese font draws every character as the same empty box: compare the
// pixels of a piece's character with those of a code point no font has.
function canDrawChinese() {
  if (chineseFont !== null) return chineseFont;
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 40;
    const context = canvas.getContext("2d");
    const pixels = (text) => {
      context.clearRect(0, 0, 40, 40);
      context.font = "32px serif";
      context.fillText(text, 2, 32);
      return context.getImageData(0, 0, 40, 40).data.join(",");
    };
    chineseFont = pixels("帅") !== pixels("\u{10FFFD}");
  } catch {
    chineseFont = true;
  }
  return chineseFont;
}

function drawXiangqi(container, position, ui) {
  const view = position.view;
  const step = 100, margin = 96; // the coordinates clear of the edge pieces
  const width = 8 * step + 2 * margin, height = 9 * step + 2 * margin;
  const at = (i) => margin + i * step;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board xiangqi", role: "grid",
                             "aria-label": "xiangqi board" }, container);
  fitWidth(board, width, height);
  svg("rect", { x: 0, y: 0, width, height, rx: 14, class: "frame xiangqi-wood",
                style: `fill: ${XIANGQI_WOOD}; stroke: #b88a3a; stroke-width: 4` }, board);
  const lines = svg("g", { stroke: XIANGQI_LINE, "stroke-width": 3, class: "lines" }, board);
  for (let r = 0; r < 10; r++) svg("line", { x1: at(0), y1: at(r), x2: at(8), y2: at(r) }, lines);
  for (let c = 0; c < 9; c++) {
    if (c === 0 || c === 8) {
      svg("line", { x1: at(c), y1: at(0), x2: at(c), y2: at(9) }, lines);
    } else {
      svg("line", { x1: at(c), y1: at(0), x2: at(c), y2: at(4) }, lines);
      svg("line", { x1: at(c), y1: at(5), x2: at(c), y2: at(9) }, lines);
    }
  }
  for (const top of [0, 7]) { // the palaces' diagonals
    svg("line", { x1: at(3), y1: at(top), x2: at(5), y2: at(top + 2) }, lines);
    svg("line", { x1: at(5), y1: at(top), x2: at(3), y2: at(top + 2) }, lines);
  }
  svg("rect", { x: at(0) - 8, y: at(0) - 8, width: 8 * step + 16, height: 9 * step + 16, fill: "none",
                stroke: XIANGQI_LINE, "stroke-width": 5 }, board);
  const river = svg("g", { "font-size": 52, fill: XIANGQI_LINE, "text-anchor": "middle",
                           "dominant-baseline": "central", class: "river", opacity: 0.8 }, board);
  const chinese = canDrawChinese();
  svg("text", { x: at(2), y: (at(4) + at(5)) / 2 }, river).textContent = chinese ? "楚 河" : "river";
  svg("text", { x: at(6), y: (at(4) + at(5)) / 2 }, river).textContent = chinese ? "漢 界" : "river";
  const labels = svg("g", { "font-size": 30, "text-anchor": "middle", "dominant-baseline": "central",
                            fill: "#6d5c44", class: "coordinates", "aria-hidden": "true" }, board);
  for (let c = 0; c < 9; c++) {
    svg("text", { x: at(c), y: height - 20, class: "coord" }, labels).textContent = view.files[c];
  }
  for (let r = 0; r < 10; r++) {
    svg("text", { x: 24, y: at(r), class: "coord" }, labels).textContent = view.ranks[r];
  }
  if (xiangqiSelection.fen !== view.fen) xiangqiSelection = { fen: view.fen, from: null };
  const selected = xiangqiSelection.from;
  const targets = new Map();
  for (const option of (selected && view.moves[selected]) || []) targets.set(option.to, option);
  const pvFirst = ui.pv && ui.pv.length ? ui.pv[0] : null;
  const lastMove = position.moves?.length ? position.moves[position.moves.length - 1] : null;
  const lastSquares = lastMove && /^[a-i]\d[a-i]\d$/.test(lastMove) ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : [];
  for (let r = 0; r < 10; r++) {
    const row = svg("g", { role: "row" }, board);
    for (let c = 0; c < 9; c++) {
      const name = view.files[c] + view.ranks[r];
      const cx = at(c), cy = at(r);
      const piece = view.board[r][c];
      const cell = svg("g", { class: "point", "data-square": name, role: "gridcell", "data-key": name,
                              "data-row": r, "data-col": c }, row);
      const words = [name, piece ? `${piece === piece.toUpperCase() ? "red" : "black"} ${XIANGQI_WORDS[piece.toLowerCase()]}` : "empty"];
      if (lastSquares.includes(name)) {
        svg("rect", { x: cx - step * 0.46, y: cy - step * 0.46, width: step * 0.92, height: step * 0.92, rx: 10,
                      fill: "rgba(224, 160, 40, 0.45)", class: "last-move" }, cell);
        words.push("the last move");
      }
      if (name === selected) words.push("selected");
      svg("rect", { x: cx - step / 2, y: cy - step / 2, width: step, height: step, fill: "transparent",
                    class: "hit" }, cell);
      if (pvFirst && (pvFirst.slice(0, 2) === name || pvFirst.slice(2, 4) === name)) {
        svg("circle", { cx, cy, r: step * 0.49, fill: "none", stroke: "rgba(40, 110, 200, 0.85)",
                        "stroke-width": 6, class: "pv" }, cell);
      }
      if (piece) {
        const red = piece === piece.toUpperCase();
        const colour = red ? "#b3261e" : "#1d1b19";
        let ring = colour;
        if (name === selected) ring = "#2e7d32";
        if (view.check === name) ring = "#e53935";
        svg("circle", { cx, cy, r: step * 0.44, class: `piece ${red ? "red" : "black"}`,
                        style: `fill: #fbf3df; stroke: ${ring}; stroke-width: ${name === selected || view.check === name ? 8 : 4}` }, cell);
        svg("circle", { cx, cy, r: step * 0.36, fill: "none", stroke: colour, "stroke-width": 2 }, cell);
        svg("text", { x: cx, y: cy + 2, "text-anchor": "middle", "dominant-baseline": "central",
                      "font-size": 50, fill: colour, "font-weight": 600, class: "glyph",
                      "pointer-events": "none" }, cell).textContent =
          canDrawChinese() ? XIANGQI_NAMES[piece] : XIANGQI_LETTERS[piece.toLowerCase()];
        svg("title", {}, cell).textContent = `${red ? "red" : "black"} ${XIANGQI_WORDS[piece.toLowerCase()]} ${name}`;
      }
      if (targets.has(name)) {
        const option = targets.get(name);
        svg("circle", { cx, cy, r: piece ? step * 0.47 : step * 0.14,
                        fill: piece ? "none" : "rgba(30, 110, 50, 0.6)",
                        stroke: piece ? "rgba(30, 110, 50, 0.8)" : "none", "stroke-width": 7,
                        class: "target", "data-move": option.move, "pointer-events": "none" }, cell);
        svg("title", {}, cell).textContent = `${option.name} (${option.move})`;
        words.push(`a move: ${option.name}`);
      }
      svg("circle", { cx, cy, r: step * 0.49, class: "focus-ring" }, cell);
      const movable = ui.canMove && (view.moves[name] || targets.has(name));
      if (movable) {
        cell.classList.add("playable");
        cell.setAttribute("data-move", targets.has(name) ? targets.get(name).move : name);
      } else {
        cell.setAttribute("aria-disabled", "true");
      }
      cell.style.cursor = movable ? "pointer" : "default";
      cell.setAttribute("aria-label", words.join(", "));
    }
  }
  const choose = (name) => {
    if (!ui.canMove) return;
    if (targets.has(name)) {
      xiangqiSelection = { fen: view.fen, from: null };
      ui.onMove(targets.get(name).move);
      return;
    }
    xiangqiSelection = { fen: view.fen, from: view.moves[name] && name !== selected ? name : null };
    drawBoard(container, position, ui);
  };
  board.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-square]");
    if (cell) choose(cell.getAttribute("data-square"));
  });
  keyboard(board, ui, (item, key) => {
    let r = Number(item.getAttribute("data-row")), c = Number(item.getAttribute("data-col"));
    if (key === "ArrowUp") r = Math.max(0, r - 1);
    if (key === "ArrowDown") r = Math.min(9, r + 1);
    if (key === "ArrowLeft") c = Math.max(0, c - 1);
    if (key === "ArrowRight") c = Math.min(8, c + 1);
    return board.querySelector(`[data-row="${r}"][data-col="${c}"]`);
  }, (item) => choose(item.getAttribute("data-square")));
}
