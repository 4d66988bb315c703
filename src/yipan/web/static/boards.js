// Boards drawn in SVG from a game's view (Game.view on the server); a board is chosen by the
// view's kind and drawn from its fields alone, never from the game's name:
//   grid   {rows, cols, cells[r][c] = 0|1|null, move_at[r][c] = move|null,
//           pieces?: "marks"|"stones"|"discs" (default: discs with gravity, else stones),
//           gravity?, last?: [r, c], highlight?: [[r, c], ...] (a winning line),
//           col_labels?, row_labels? (coordinates drawn along the top and left edges)}
//   heaps  {heaps: [3, 4, 5]}          (clicks mapped to moves through position.previews)
//   tiles  {rows, cols, cells[r][c] = 0|2|4|..., score}
//   chess  {board[r][c] = "K"|"q"|...|null (rank 8 first, white upper case), files, ranks,
//           turn, check: square|null, moves: {from: [{to, move, promotion}, ...]}, fen}
//           (click a piece, then a target; a promotion asks which piece)
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
  if (position.view.kind === "grid") {
    const names = { marks: ["X", "O"], discs: ["Red", "Yellow"], stones: ["Black", "White"] };
    return names[gridStyle(position)][player];
  }
  if (position.view.kind === "chess") return ["White", "Black"][player];
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
  else if (kind === "chess") drawChess(container, position, ui);
  else html("pre", { class: "text-board" }, container, position.view.text ?? position.text);
}

// Buttons for the legal moves, with their values: for boards without cells to click.
export function drawMoveButtons(container, position, ui) {
  container.replaceChildren();
  if (position.view.kind === "grid" || position.view.kind === "chess") return;
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

// -- chess ----------------------------------------------------------------------------------------
// One piece glyph for both colours (the filled set), painted white or black with an outline.
const CHESS_GLYPHS = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
let chessSelection = { fen: null, from: null }; // the piece picked, kept across redraws

function chessSquare(view, name) {
  // a square name ("e4") to its row (0 = rank 8) and column
  return [view.ranks.indexOf(name[1]), view.files.indexOf(name[0])];
}

function drawChess(container, position, ui) {
  const view = position.view;
  const size = 100, margin = 34;
  const width = 8 * size + margin + 8, height = 8 * size + margin + 8;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board chess", role: "grid",
                             "aria-label": "chess board" }, container);
  fitWidth(board, width, height);
  svg("rect", { x: 0, y: 0, width, height, rx: 10, fill: "#f3ead9", stroke: "#b8a382" }, board);
  if (chessSelection.fen !== view.fen) chessSelection = { fen: view.fen, from: null };
  const selected = chessSelection.from;
  const targets = new Map(); // square -> the moves from the selected piece to it
  for (const option of (selected && view.moves[selected]) || []) {
    if (!targets.has(option.to)) targets.set(option.to, []);
    targets.get(option.to).push(option);
  }
  const pvFirst = ui.pv && ui.pv.length ? ui.pv[0] : null;
  const left = margin, top = 8;
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      const name = view.files[c] + view.ranks[r];
      const x = left + c * size, y = top + r * size;
      const cell = svg("g", { class: "square", "data-square": name }, board);
      const dark = (r + c) % 2 === 1;
      let fill = dark ? "#b58863" : "#f0d9b5";
      if (name === selected) fill = "#e2c35a";
      svg("rect", { x, y, width: size, height: size, fill, class: "sq" }, cell);
      if (view.check === name) {
        svg("circle", { cx: x + size / 2, cy: y + size / 2, r: size * 0.47, fill: "rgba(220, 30, 30, 0.55)",
                        class: "check" }, cell);
      }
      if (pvFirst && (pvFirst.slice(0, 2) === name || pvFirst.slice(2, 4) === name)) {
        svg("rect", { x: x + 3, y: y + 3, width: size - 6, height: size - 6, fill: "none",
                      stroke: "rgba(40, 110, 200, 0.8)", "stroke-width": 6, class: "pv" }, cell);
      }
      const piece = view.board[r][c];
      if (piece) {
        const white = piece === piece.toUpperCase();
        svg("text", { x: x + size / 2, y: y + size / 2 + 4, "text-anchor": "middle",
                      "dominant-baseline": "central", "font-size": 78,
                      fill: white ? "#fffdf8" : "#1d1b19", stroke: white ? "#1d1b19" : "#fffdf8",
                      "stroke-width": white ? 2.5 : 1, class: `piece ${white ? "white" : "black"}`,
                      "pointer-events": "none" }, cell).textContent = CHESS_GLYPHS[piece.toLowerCase()];
      }
      if (targets.has(name)) {
        svg("circle", { cx: x + size / 2, cy: y + size / 2, r: piece ? size * 0.46 : size * 0.15,
                        fill: piece ? "none" : "rgba(30, 90, 40, 0.45)",
                        stroke: piece ? "rgba(30, 90, 40, 0.6)" : "none", "stroke-width": 7,
                        class: "target", "pointer-events": "none" }, cell);
      }
      const movable = ui.canMove && (view.moves[name] || targets.has(name));
      if (movable) cell.classList.add("playable");
      cell.style.cursor = movable ? "pointer" : "default";
    }
  }
  // coordinates: files under the board, ranks to its left
  for (let c = 0; c < 8; c++) {
    svg("text", { x: left + c * size + size / 2, y: top + 8 * size + margin / 2, "text-anchor": "middle",
                  "dominant-baseline": "central", "font-size": 22, fill: "#6d5c44", class: "coord" }, board)
      .textContent = view.files[c];
  }
  for (let r = 0; r < 8; r++) {
    svg("text", { x: margin / 2, y: top + r * size + size / 2, "text-anchor": "middle",
                  "dominant-baseline": "central", "font-size": 22, fill: "#6d5c44", class: "coord" }, board)
      .textContent = view.ranks[r];
  }
  board.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-square]");
    if (!cell || !ui.canMove) return;
    const name = cell.getAttribute("data-square");
    if (targets.has(name)) {
      const options = targets.get(name);
      if (options.length === 1) {
        chessSelection = { fen: view.fen, from: null };
        ui.onMove(options[0].move);
      } else {
        choosePromotion(container, options, ui, view);
      }
      return;
    }
    chessSelection = { fen: view.fen, from: view.moves[name] && name !== selected ? name : null };
    container.replaceChildren();
    drawChess(container, position, ui);
  });
}

// Several moves to one square differ only by the piece a pawn becomes: ask which.
function choosePromotion(container, options, ui, view) {
  const white = view.turn === "white";
  const chooser = html("div", { class: "promotion", role: "dialog", "aria-label": "promote to" }, container);
  chooser.style.cssText = "display:flex;gap:8px;justify-content:center;margin-top:8px";
  for (const letter of ["q", "r", "b", "n"]) {
    const option = options.find((o) => o.promotion === letter);
    if (!option) continue;
    const glyph = CHESS_GLYPHS[letter];
    const button = html("button", { type: "button", class: "chip promote", "data-move": option.move,
                                    title: `promote to ${letter}` }, chooser, glyph);
    button.style.fontSize = "2rem";
    button.style.color = white ? "#7a6a55" : "#1d1b19";
    button.addEventListener("click", () => {
      chessSelection = { fen: view.fen, from: null };
      ui.onMove(option.move);
    });
  }
}
