// Boards drawn in SVG from a game's view (Game.view on the server); a board is chosen by the
// view's kind and drawn from its fields alone, never from the game's name:
//   grid   {rows, cols, cells[r][c] = 0|1|null, move_at[r][c] = move|null,
//           pieces?: "marks"|"stones"|"discs" (default: discs with gravity, else stones),
//           gravity?, last?: [r, c], highlight?: [[r, c], ...] (a winning line),
//           col_labels?, row_labels? (coordinates drawn along the top and left edges)}
//   heaps  {heaps: [3, 4, 5]}          (clicks mapped to moves through position.previews)
//   tiles  {rows, cols, cells[r][c] = 0|2|4|..., score}
//   table  {pieces: "cards"|"dice", seats: [{name, hand: ["K"|"?"], staked, to_move, folded}, ..],
//           board: ["Q"], pot, history: ["check", "bet", "/", ...], status}
//          (a card table: ui.bottom is the seat drawn nearest, the person's own)
//   text   {text}                      (anything else: the game's own rendering, and move buttons)

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
// A value is from the side to move: a win in n plies is WIN - n, a loss -(WIN - n), a draw 0.
export function valueLabel(value, exact) {
  if (value === null || value === undefined) return { text: "?", tone: "unknown" };
  if (value > HEURISTIC_LIMIT) return { text: `W${WIN - value}`, tone: "win" };
  if (value < -HEURISTIC_LIMIT) return { text: `L${WIN + value}`, tone: "loss" };
  if (value === 0 && exact) return { text: "=", tone: "draw" };
  const rounded = Math.round(value);
  return { text: rounded > 0 ? `+${rounded}` : `${rounded}`, tone: rounded > 0 ? "plus" : rounded < 0 ? "minus" : "even" };
}

const plies = (n) => `${n} ${n === 1 ? "ply" : "plies"}`;

export function describeValue(value, exact) {
  if (value === null || value === undefined) return "–";
  if (value > HEURISTIC_LIMIT) return `wins in ${plies(WIN - value)}`;
  if (value < -HEURISTIC_LIMIT) return `loses in ${plies(WIN + value)}`;
  if (value === 0 && exact) return "draw";
  return `${value > 0 ? "+" : ""}${Math.round(value)} (estimate)`;
}

// -- players --------------------------------------------------------------------------------------
export function gridStyle(position) {
  const view = position.view;
  return view.pieces ?? (view.gravity ? "discs" : "stones");
}

export function playerName(position, player) {
  if (position.players === 1) return "you";
  if (position.view.kind === "table") {
    const name = position.view.seats[player].name;
    return name.charAt(0).toUpperCase() + name.slice(1);
  }
  if (position.view.kind === "grid") {
    const names = { marks: ["X", "O"], discs: ["Red", "Yellow"], stones: ["Black", "White"] };
    return names[gridStyle(position)][player];
  }
  return `Player ${player + 1}`;
}

// -- the board ------------------------------------------------------------------------------------
// ui: {values: {move: value}|null, exact, pv: [move, ...]|null, canMove, onMove(move)}
export function drawBoard(container, position, ui) {
  container.replaceChildren();
  const kind = position.view.kind;
  container.className = `board-${kind}`;
  if (kind === "grid") drawGrid(container, position, ui);
  else if (kind === "heaps") drawHeaps(container, position, ui);
  else if (kind === "tiles") drawTiles(container, position, ui);
  else if (kind === "table") drawTable(container, position, ui);
  else html("pre", { class: "text-board" }, container, position.view.text ?? position.text);
}

// Buttons for the legal moves, with their values: for boards without cells to click.
export function drawMoveButtons(container, position, ui) {
  container.replaceChildren();
  if (position.view.kind === "grid") return;
  const shown = position.legal_moves.slice(0, MAX_BUTTONS);
  for (const move of shown) {
    const button = html("button", { type: "button", class: "chip", "data-move": move }, container);
    button.append(document.createTextNode(arrowFor(move)));
    const value = ui.values ? ui.values[move] : undefined;
    if (value !== undefined) {
      const label = valueLabel(value, ui.exact);
      html("span", { class: `value ${label.tone}` }, button, label.text);
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

// -- grid games (tic-tac-toe, m,n,k, Gomoku, Connect Four, any game declaring a grid) ---------
function drawGrid(container, position, ui) {
  const view = position.view;
  const rows = view.rows, cols = view.cols, size = 100;
  const style = gridStyle(position);
  const pad = style === "discs" ? 14 : 8;
  // coordinates, when the view gives them, in a margin along the top and the left
  const labelled = Boolean(view.col_labels && view.row_labels);
  const font = Math.max(14, Math.round(Math.max(rows, cols) * 3.2));
  const margin = labelled ? Math.round(font * 1.5) : 0;
  const left = pad + margin, top = pad + margin; // the first cell's corner
  const width = cols * size + left + pad, height = rows * size + top + pad;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: `board grid ${style}`,
                             role: "grid", "aria-label": `${rows} by ${cols} board` }, container);
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
  if (labelled) drawCoordinates(board, view, left, top, size, font);
  const winning = new Set((view.highlight ?? []).map(([r, c]) => `${r},${c}`));
  const last = view.last ? `${view.last[0]},${view.last[1]}` : null;
  const valueAt = gridValueCells(view, ui.values);
  const pvAt = gridPvCells(view, ui.pv ?? []);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = left + c * size, y = top + r * size, cx = x + size / 2, cy = y + size / 2;
      const owner = view.cells[r][c];
      const move = view.move_at[r][c];
      const cell = svg("g", { class: "cell", "data-row": r, "data-col": c }, board);
      if (winning.has(`${r},${c}`)) cell.classList.add("winning");
      const hit = svg("rect", { x, y, width: size, height: size, class: "hit" }, cell);
      if (move !== null && move !== undefined) {
        hit.setAttribute("data-move", move);
        svg("title", {}, hit).textContent = move;
        if (ui.canMove) cell.classList.add("playable");
      }
      drawPiece(cell, style, owner, cx, cy, size);
      if (style === "stones" && owner !== null && winning.has(`${r},${c}`)) {
        // a ring round each stone of the winning line (the cell's tint hides under the stone)
        svg("circle", { cx, cy, r: size * 0.44, class: "win-ring", fill: "none",
                        style: "stroke: var(--win); stroke-width: 8" }, cell);
      }
      const ahead = pvAt.get(`${r},${c}`);
      if (ahead !== undefined) drawGhost(cell, ahead, position, cx, cy, size);
      if (`${r},${c}` === last) {
        cell.classList.add("last");
        if (style !== "marks") svg("circle", { cx, cy, r: 8, class: `last-dot p${owner}` }, cell);
      }
      const shown = valueAt.get(`${r},${c}`);
      if (shown !== undefined) {
        const label = valueLabel(shown, ui.exact);
        const fontSize = label.text.length <= 2 ? 34 : label.text.length === 3 ? 30 : 24;
        svg("text", { x: cx, y: cy, class: `value ${label.tone}`, "dominant-baseline": "central",
                      "text-anchor": "middle", "font-size": fontSize }, cell).textContent = label.text;
      }
    }
  }
  if (view.gravity) drawColumns(board, view, left, size, height, ui);
  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-move]");
    if (target && ui.canMove) ui.onMove(target.getAttribute("data-move"));
  });
}

// Letters above the columns, numbers left of the rows: the coordinates moves are written in.
function drawCoordinates(board, view, left, top, size, font) {
  const labels = svg("g", { class: "coordinates", "font-size": font, "text-anchor": "middle",
                            "dominant-baseline": "central", style: "fill: var(--muted)" }, board);
  view.col_labels.forEach((label, c) => {
    svg("text", { x: left + c * size + size / 2, y: top / 2, class: "coord" }, labels)
      .textContent = label;
  });
  view.row_labels.forEach((label, r) => {
    svg("text", { x: left / 2, y: top + r * size + size / 2, class: "coord" }, labels)
      .textContent = label;
  });
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
                "text-anchor": "middle" }, cell).textContent = index + 1;
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

// Where each move's value is drawn: on its cell, or for gravity games the cell a disc lands on.
function gridValueCells(view, values) {
  const where = new Map();
  if (!values) return where;
  for (let c = 0; c < view.cols; c++) {
    for (let r = view.rows - 1; r >= 0; r--) {
      const move = view.move_at[r][c];
      if (view.cells[r][c] !== null) continue;
      if (move !== null && move !== undefined && move in values) where.set(`${r},${c}`, values[move]);
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
                                 "data-move": move }, board);
    svg("title", {}, column).textContent = move;
    if (ui.canMove) column.classList.add("playable");
  }
}

// -- heap games (Nim, Kayles, subtraction, octal, Grundy's game) -----------------------------
// A click on a heap's token j means "leave j tokens in that heap": the move whose result
// (position.previews) does exactly that, whatever the game writes it as.
export function heapMove(position, heap, keep) {
  const heaps = position.view.heaps;
  for (const [move, after] of Object.entries(position.previews ?? {})) {
    if (!Array.isArray(after) || after.length !== heaps.length) continue;
    if (after.every((h, i) => (i === heap ? h === keep : h === heaps[i]))) return move;
  }
  return null;
}

function drawHeaps(container, position, ui) {
  const heaps = position.view.heaps;
  const most = Math.min(Math.max(1, ...heaps), 24);
  const step = 44, label = 96, rowHeight = 58;
  const width = label + most * step + 56, height = Math.max(1, heaps.length) * rowHeight + 12;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board heaps" }, container);
  board.style.maxWidth = `min(100%, ${width * 1.2}px)`;
  svg("rect", { x: 0, y: 0, width, height, rx: 10, class: "frame" }, board);
  heaps.forEach((count, heap) => {
    const y = 6 + heap * rowHeight + rowHeight / 2;
    svg("text", { x: 14, y, class: "heap-label", "dominant-baseline": "central" }, board)
      .textContent = `${heap + 1}: ${count}`;
    const row = svg("g", { class: "heap", "data-heap": heap }, board);
    for (let j = 0; j < Math.min(count, most); j++) {
      const move = ui.canMove ? heapMove(position, heap, j) : null;
      const token = svg("circle", { cx: label + j * step + step / 2, cy: y, r: 17, class: "token",
                                    "data-heap": heap, "data-keep": j }, row);
      if (move !== null) {
        token.classList.add("playable");
        token.setAttribute("data-move", move);
        svg("title", {}, token).textContent = `${move} (leave ${j})`;
      }
    }
    if (count > most) {
      svg("text", { x: label + most * step + 6, y, class: "heap-label", "dominant-baseline": "central" },
          board).textContent = `+${count - most}`;
    }
  });
  // hovering a token shows what a click takes: it and every token to its right
  board.addEventListener("mouseover", (event) => {
    const token = event.target.closest(".token.playable");
    for (const node of board.querySelectorAll(".token")) node.classList.remove("take");
    if (!token) return;
    const heap = token.getAttribute("data-heap"), keep = Number(token.getAttribute("data-keep"));
    for (const node of board.querySelectorAll(`.token[data-heap="${heap}"]`)) {
      if (Number(node.getAttribute("data-keep")) >= keep) node.classList.add("take");
    }
  });
  board.addEventListener("click", (event) => {
    const token = event.target.closest("[data-move]");
    if (token && ui.canMove) ui.onMove(token.getAttribute("data-move"));
  });
}

// -- 2048 -------------------------------------------------------------------------------------
const TILE_COLOURS = ["#cdc1b4", "#eee4da", "#ede0c8", "#f2b179", "#f59563", "#f67c5f", "#f65e3b",
  "#edcf72", "#edcc61", "#edc850", "#edc53f", "#edc22e", "#3c3a32"];

function drawTiles(container, position, ui) {
  const view = position.view;
  const size = 100, gap = 12;
  const width = view.cols * (size + gap) + gap, height = view.rows * (size + gap) + gap;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board tiles" }, container);
  fitWidth(board, width, height);
  svg("rect", { x: 0, y: 0, width, height, rx: 12, class: "frame" }, board);
  view.cells.forEach((row, r) => row.forEach((value, c) => {
    const x = gap + c * (size + gap), y = gap + r * (size + gap);
    const power = value > 0 ? Math.min(Math.round(Math.log2(value)), TILE_COLOURS.length - 1) : 0;
    svg("rect", { x, y, width: size, height: size, rx: 8, fill: TILE_COLOURS[power], class: "tile" }, board);
    if (value > 0) {
      const digits = String(value).length;
      svg("text", { x: x + size / 2, y: y + size / 2, class: `tile-text${power > 2 ? " light" : ""}`,
                    "font-size": digits <= 2 ? 44 : digits === 3 ? 36 : 28,
                    "dominant-baseline": "central", "text-anchor": "middle" }, board).textContent = value;
    }
  }));
  // swipes on a phone
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
    for (let column = 0; column < 13; column++) {
      const hand = rangeCell(row, column);
      const value = values[hand] ?? 0;
      const share = scale.kind === "threshold" ? value / scale.top : value;
      const x = column * size, y = row * size;
      // the more often (or the deeper) a hand plays, the deeper its red; never: the paper
      const shown = Math.max(0, Math.min(1, share));
      const fill = shown < 0.005 ? "#f3efe6" : `rgba(205, 60, 40, ${(0.15 + 0.85 * shown).toFixed(3)})`;
      const cell = svg("g", { class: "range-cell", "data-hand": hand }, board);
      svg("rect", { x, y, width: size - 1, height: size - 1, fill }, cell);
      svg("text", { x: x + size / 2, y: y + 15, "text-anchor": "middle", "font-size": 12,
                    fill: "#222" }, cell).textContent = hand;
      const label = scale.kind === "threshold"
        ? (value <= 0 ? "–" : value >= scale.top ? `${scale.top}+` : value.toFixed(1))
        : `${Math.round(value * 100)}%`;
      svg("text", { x: x + size / 2, y: y + 34, "text-anchor": "middle", "font-size": 12,
                    "font-weight": 700, fill: "#222" }, cell).textContent = label;
      svg("title", {}, cell).textContent = `${hand}: ${label}`;
    }
  }
}
