// The page: pick a game, play against the AI, watch it think. The whole game lives in the URL
// (?game=…&moves=a1+b2&first=human&engine=alphabeta&level=1s&o.size=3x3), so a position can be
// shared, reloaded and walked back; the server is asked for everything else.

import { ApiError, getState, listGames, streamSearch } from "./api.js";
import { describeValue, drawBoard, drawMoveButtons, playerName } from "./boards.js";

const TIME_LEVELS = [["0.3s", "0.3 s", 0.3], ["1s", "1 s", 1], ["3s", "3 s", 3], ["10s", "10 s", 10]];
const LEVELS = {
  alphabeta: TIME_LEVELS,
  mcts: TIME_LEVELS,
  ai: [["easy", "easy", 1], ["medium", "medium", 2], ["perfect", "perfect", 3]],
  random: [["-", "instant", 1]],
};
const DEFAULT_LEVEL = { alphabeta: "1s", mcts: "1s", ai: "perfect", random: "-" };
const ENGINE_NAMES = { alphabeta: "alpha-beta", mcts: "MCTS", ai: "game AI", random: "random" };

const $ = (id) => document.getElementById(id);

const page = {
  games: [],
  game: null,
  options: {},
  moves: [],
  first: "human",
  engine: "alphabeta",
  level: "1s",
  showValues: false,
  position: null,
  states: new Map(), // "moves joined" -> state response, for undo without asking again
  search: null, // {controller, purpose: "move"|"values", best, token}
  values: null, // {move: value} of the position on the board, when shown
  pv: null, // the line the AI is thinking of, drawn on the board while it thinks
  exact: false,
  token: 0, // bumps whenever the position changes: late answers for old positions are dropped
  error: null,
  thinkLabel: "",
};

// -- URL ------------------------------------------------------------------------------------------
function readUrl() {
  const query = new URLSearchParams(location.search);
  page.game = query.get("game");
  page.moves = (query.get("moves") ?? "").split(" ").filter(Boolean);
  page.first = query.get("first") === "ai" ? "ai" : "human";
  page.engine = query.get("engine") ?? "alphabeta";
  page.level = query.get("level") ?? DEFAULT_LEVEL[page.engine] ?? "1s";
  page.showValues = query.get("values") === "1";
  page.options = {};
  for (const [key, value] of query) if (key.startsWith("o.")) page.options[key.slice(2)] = value;
}

function writeUrl() {
  const query = new URLSearchParams({ game: page.game });
  for (const [key, value] of Object.entries(page.options)) query.set(`o.${key}`, value);
  if (page.moves.length) query.set("moves", page.moves.join(" "));
  query.set("first", page.first);
  query.set("engine", page.engine);
  query.set("level", page.level);
  if (page.showValues) query.set("values", "1");
  history.replaceState(null, "", `?${query}`);
}

// -- positions ------------------------------------------------------------------------------------
const key = (moves) => JSON.stringify([page.game, page.options, moves, page.first]);

async function stateAt(moves) {
  const cached = page.states.get(key(moves));
  if (cached) return cached;
  // drawn as your seat sees it: in a game of hidden cards the AI's stay face down
  const state = await getState(page.game, page.options, moves, humanSide());
  page.states.set(key(moves), state);
  return state;
}

function humanSide() {
  return page.first === "human" ? 0 : 1;
}

function isHumanTurn(state) {
  if (state.outcome || state.to_move === null || state.to_move === "chance") return false;
  if (state.players === 1) return page.first === "human";
  return state.to_move === humanSide();
}

function isAiTurn(state) {
  if (state.outcome || state.to_move === null || state.to_move === "chance") return false;
  return !isHumanTurn(state);
}

async function show(moves) {
  stopSearch();
  page.token += 1;
  const token = page.token;
  page.values = null;
  page.pv = null;
  try {
    const state = await stateAt(moves);
    if (token !== page.token) return;
    page.moves = moves;
    page.position = state;
    page.error = null;
  } catch (error) {
    if (token !== page.token) return;
    page.error = error.message;
    if (page.position === null || page.position.game !== page.game) {
      // a bad URL (an illegal move, a wrong option): fall back to the start of the game
      if (moves.length || Object.keys(page.options).length) {
        const message = error.message;
        page.options = {};
        buildOptions();
        await show([]);
        page.error = message;
        render();
      }
      return;
    }
  }
  writeUrl();
  syncSetup();
  render();
  act(token);
}

function play(move) {
  const state = page.position;
  if (!state) return;
  const draws = state.chance.map((draw) => draw.move);
  if (!state.legal_moves.includes(move) && !draws.includes(move)) return;
  show([...page.moves, move]);
}

// What happens next: a chance draw, the AI's move, or (on request) the values of your moves.
function act(token) {
  const state = page.position;
  if (!state || state.outcome) return;
  if (state.to_move === "chance") {
    setTimeout(() => token === page.token && play(drawChance(state.chance)), 250);
  } else if (isAiTurn(state)) {
    think("move", token);
  } else if (page.showValues && valueEngine()) {
    think("values", token);
  }
}

function drawChance(outcomes) {
  let pick = Math.random();
  for (const outcome of outcomes) {
    pick -= outcome.probability;
    if (pick <= 0) return outcome.move;
  }
  return outcomes[outcomes.length - 1].move;
}

// Move values need every root move searched: alpha-beta's analysis mode.
function valueEngine() {
  return page.position && page.position.engines.includes("alphabeta") ? "alphabeta" : null;
}

function levelSetting(engine) {
  const levels = LEVELS[engine] ?? TIME_LEVELS;
  return levels.find(([name]) => name === page.level) ?? levels.find(([name]) => name === DEFAULT_LEVEL[engine]) ?? levels[0];
}

// -- the AI ---------------------------------------------------------------------------------------
async function think(purpose, token) {
  stopSearch();
  const engine = purpose === "values" ? valueEngine() : page.engine;
  if (!engine) return;
  const [levelName, , seconds] = levelSetting(engine);
  const analysis = page.showValues && engine === "alphabeta";
  const controller = new AbortController();
  const search = { controller, purpose, best: null, token };
  page.search = search;
  const request = { moves: page.moves, options: page.options, engine, analysis,
                    limit: { time: seconds } };
  if (engine === "ai") request.level = levelName;
  resetThinking(engine, purpose);
  renderControls();
  try {
    const answer = await streamSearch(page.game, request, (result, done) => {
      if (token !== page.token) return;
      search.best = result;
      showThinking(result, done);
      if (analysis && Object.keys(result.move_values).length) {
        page.values = result.move_values;
        page.exact = result.exact;
        renderBoard();
      } else if (!analysis && purpose === "move" && !done) {
        page.pv = result.pv;
        renderBoard();
      }
    }, controller.signal);
    if (token !== page.token || page.search !== search) return;
    page.search = null;
    $("think-state").textContent = `${page.thinkLabel} · done`;
    if (purpose === "move" && answer.move !== null) play(answer.move);
    else renderControls();
  } catch (error) {
    if (error.name === "AbortError" || token !== page.token) return;
    page.search = null;
    page.error = error instanceof ApiError ? error.message : `connection lost: ${error.message}`;
    $("think-state").textContent = `${page.thinkLabel} · stopped`;
    render();
  }
}

function stopSearch() {
  if (page.search) page.search.controller.abort();
  page.search = null;
}

function moveNow() {
  const search = page.search;
  if (!search || search.purpose !== "move" || !search.best || !search.best.move) return;
  stopSearch();
  play(search.best.move);
}

function resetThinking(engine, purpose) {
  const state = page.position;
  const side = state.players === 2 ? `, for ${playerName(state, state.to_move)}` : "";
  page.thinkLabel = `· ${ENGINE_NAMES[engine] ?? engine}${side}`;
  $("think-state").textContent = `${page.thinkLabel}…`;
  for (const id of ["t-depth", "t-value", "t-nodes", "t-nps", "t-time", "t-pv"]) $(id).textContent = "–";
  $("t-log").replaceChildren();
}

function showThinking(result, done) {
  $("t-depth").textContent = result.depth || "–";
  $("t-value").textContent = describeValue(result.value, result.exact);
  $("t-nodes").textContent = result.nodes ? result.nodes.toLocaleString("en") : "–";
  $("t-nps").textContent = result.nodes_per_second ? result.nodes_per_second.toLocaleString("en") : "–";
  $("t-time").textContent = `${result.seconds.toFixed(2)} s`;
  $("t-pv").textContent = result.pv.length ? result.pv.join(" ") : "–";
  if (!done && result.depth) {
    const row = document.createElement("li");
    row.textContent = `d${result.depth}  ${result.move ?? "–"}  ${describeValue(result.value, result.exact)}  ${result.nodes.toLocaleString("en")} nodes`;
    $("t-log").prepend(row);
    while ($("t-log").children.length > 12) $("t-log").lastChild.remove();
  }
}

// -- drawing --------------------------------------------------------------------------------------
function render() {
  renderStatus();
  renderBoard();
  renderMoves();
  renderControls();
}

function renderBoard() {
  const state = page.position;
  if (!state) return;
  const ui = {
    values: page.values,
    exact: page.exact,
    pv: page.values ? null : page.pv,
    canMove: isHumanTurn(state),
    onMove: play,
    bottom: humanSide(),
  };
  drawBoard($("board"), state, ui);
  drawMoveButtons($("move-buttons"), state, ui);
}

function renderStatus() {
  const state = page.position;
  if (state) document.title = `${state.title} · yipan 弈盘`;
  const status = $("status");
  status.className = "";
  if (page.error) {
    status.textContent = page.error;
    status.className = "error";
    return;
  }
  if (!state) return;
  const name = (player) => playerName(state, player);
  if (state.outcome) {
    const winner = state.outcome.winner;
    if (state.players === 1) status.textContent = "Game over.";
    else if (winner === null) status.textContent = "Draw.";
    else if (winner === humanSide()) status.textContent = `${name(winner)} wins: you won!`;
    else status.textContent = `${name(winner)} wins: the AI won.`;
    status.className = "over";
  } else if (state.to_move === "chance") {
    status.textContent = "Chance draws…";
  } else if (isHumanTurn(state)) {
    status.textContent = state.players === 1 ? "Your move." : `Your move (${name(state.to_move)}).`;
  } else {
    status.textContent = state.players === 1 ? "The AI is playing…" : `The AI is thinking (${name(state.to_move)})…`;
    status.className = "thinking";
  }
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  page.moves.forEach((move, index) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = page.position?.moves_seen?.[index] ?? move;
    button.title = `back to the position after move ${index + 1}`;
    button.addEventListener("click", () => show(page.moves.slice(0, index + 1)));
    const mover = page.position?.movers?.[index];
    item.className = mover === "chance" ? "chance" : `p${mover ?? index % 2}`;
    item.appendChild(button);
    list.appendChild(item);
  });
  list.scrollTop = list.scrollHeight;
}

function renderControls() {
  const state = page.position;
  $("undo").disabled = page.moves.length === 0;
  $("ai-move").disabled = !state || !isHumanTurn(state);
  const searching = page.search && page.search.purpose === "move";
  $("move-now").hidden = !searching;
}

// -- setup ----------------------------------------------------------------------------------------
function spec() {
  return page.games.find((game) => game.name === page.game);
}

function buildGameMenu() {
  const menu = $("game");
  menu.replaceChildren();
  for (const game of page.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title;
    menu.appendChild(option);
  }
}

function buildOptions() {
  const fields = $("options");
  fields.replaceChildren();
  for (const option of spec().options) {
    const label = document.createElement("label");
    label.textContent = option.name;
    label.title = option.help;
    let input;
    if (option.choices) {
      input = document.createElement("select");
      for (const choice of option.choices) {
        const item = document.createElement("option");
        item.value = item.textContent = choice;
        input.appendChild(item);
      }
    } else {
      input = document.createElement("input");
      input.placeholder = option.default === null ? "default" : String(option.default);
      input.size = 8;
    }
    input.name = option.name;
    input.value = page.options[option.name] ?? (option.choices ? option.default ?? "" : "");
    input.addEventListener("change", () => {
      const value = input.value.trim();
      if (value) page.options[option.name] = value;
      else delete page.options[option.name];
      page.states.clear();
      page.position = null;
      show([]);
    });
    label.appendChild(input);
    fields.appendChild(label);
  }
}

function syncSetup() {
  $("game").value = page.game;
  const alone = page.position && page.position.players === 1;
  const [human, ai] = $("first").options;
  human.textContent = alone ? "yourself" : "first";
  ai.textContent = alone ? "AI plays" : "second";
  $("first").value = page.first;
  $("show-values").checked = page.showValues;
  const engines = page.position ? page.position.engines : ["alphabeta"];
  if (!engines.includes(page.engine)) {
    page.engine = ["alphabeta", "ai", "mcts", "random"].find((e) => engines.includes(e)) ?? engines[0];
    page.level = DEFAULT_LEVEL[page.engine];
  }
  const engineMenu = $("engine");
  engineMenu.replaceChildren();
  for (const engine of engines) {
    const option = document.createElement("option");
    option.value = engine;
    option.textContent = ENGINE_NAMES[engine] ?? engine;
    engineMenu.appendChild(option);
  }
  engineMenu.value = page.engine;
  const levelMenu = $("level");
  levelMenu.replaceChildren();
  for (const [name, text] of LEVELS[page.engine] ?? TIME_LEVELS) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = text;
    levelMenu.appendChild(option);
  }
  page.level = levelSetting(page.engine)[0];
  levelMenu.value = page.level;
  $("show-values").disabled = !valueEngine();
}

function changeGame(name) {
  page.game = name;
  page.options = {};
  page.states.clear();
  page.position = null;
  page.error = null;
  buildOptions();
  show([]);
}

async function undo() {
  if (!page.moves.length) return;
  stopSearch();
  // back to the last position where it was your turn (skipping the AI's replies and draws)
  let length = page.moves.length - 1;
  while (length > 0 && !isHumanTurn(await stateAt(page.moves.slice(0, length)))) length -= 1;
  show(page.moves.slice(0, length));
}

function wire() {
  $("game").addEventListener("change", (event) => changeGame(event.target.value));
  $("new-game").addEventListener("click", () => show([]));
  $("undo").addEventListener("click", undo);
  $("ai-move").addEventListener("click", () => page.position && think("move", page.token));
  $("move-now").addEventListener("click", moveNow);
  $("first").addEventListener("change", (event) => {
    page.first = event.target.value; // sides change, the game goes on
    show(page.moves);
  });
  $("engine").addEventListener("change", (event) => {
    page.engine = event.target.value;
    page.level = DEFAULT_LEVEL[page.engine];
    show(page.moves);
  });
  $("level").addEventListener("change", (event) => {
    page.level = event.target.value;
    show(page.moves);
  });
  $("show-values").addEventListener("change", (event) => {
    page.showValues = event.target.checked;
    show(page.moves);
  });
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $("copy-link").textContent = "Copied";
    } catch {
      $("copy-link").textContent = "Copy the address bar";
    }
    setTimeout(() => ($("copy-link").textContent = "Copy link"), 1500);
  });
  document.addEventListener("keydown", (event) => {
    const arrows = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
    const move = arrows[event.key];
    if (!move || !page.position || page.position.view.kind !== "tiles") return;
    if (isHumanTurn(page.position) && page.position.legal_moves.includes(move)) {
      event.preventDefault();
      play(move);
    }
  });
}

async function start() {
  wire();
  readUrl();
  try {
    page.games = (await listGames()).games;
  } catch (error) {
    $("status").textContent = `cannot reach the server: ${error.message}`;
    return;
  }
  if (!page.games.length) {
    $("status").textContent = "No games are registered.";
    return;
  }
  buildGameMenu();
  if (!spec()) page.game = page.games.some((g) => g.name === "tictactoe") ? "tictactoe" : page.games[0].name;
  buildOptions();
  await show(page.moves);
}

start();
