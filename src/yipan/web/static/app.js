// The page: pick a game, play against the AI, watch it think. The whole game lives in the URL
// (?game=…&moves=a1+b2&first=human&engine=player&level=perfect&o.size=3x3), so a position can be
// shared and reloaded; the browser's Back and Forward step through the positions where it was
// your turn (as Undo does); the server is asked for everything else.

import { ApiError, getState, listGames, readiness, stopSearch as askToStop, streamSearch, whilePreparing }
  from "./api.js";
import {
  drawBoard, drawLegend, drawMoveButtons, lineWords, moveMarks, moveWords, pieceSwatch, playerName, valueWords,
} from "./boards.js";

const TIME_LEVELS = [["0.3s", "0.3 s a move", 0.3], ["1s", "1 s a move", 1], ["3s", "3 s a move", 3],
  ["10s", "10 s a move", 10]];
// an engine's levels: a time a move unless it has levels of its own
const LEVELS = {
  // [name in the URL, words, seconds a move, the AI's level]
  player: [["perfect", "strongest (3 s)", 3, "perfect"], ["perfect-10s", "strongest (10 s)", 10, "perfect"],
    ["medium", "medium", 2, "medium"], ["easy", "easy", 1, "easy"]],
  random: [["-", "no thinking", 1]],
};
const DEFAULT_LEVEL = { player: "perfect", random: "-" }; // others: 1 s a move
// The engines, their names in words and which can play against you come from the server's
// registry (a game's state: engines, engine_labels, opponents): a new engine needs nothing here.
const engineName = (engine) => page.position?.engine_labels?.[engine] ?? engine;
const HURRY_WAIT = 1500; // ms a stopped search may take to answer before its best so far is played

const $ = (id) => document.getElementById(id);

const page = {
  games: [],
  engineAliases: {}, // other names of engines (the URL's engine=ai is the player)
  game: null,
  options: {},
  moves: [],
  first: "human",
  engine: null, // null: the game's default (its strongest player)
  level: null,
  showValues: false,
  position: null,
  states: new Map(), // "moves joined" -> state response, for undo without asking again
  search: null, // {controller, purpose: "move"|"values", best, token, id}
  marks: null, // {move: mark} of the position on the board, when shown
  pv: null, // the line the AI is thinking of, drawn on the board while it thinks
  thinking: null, // the AI's latest result while it searches (boards that show more of it)
  token: 0, // bumps whenever the position changes: late answers for old positions are dropped
  error: null,
  notice: null, // a message that stays until the next move (an unknown game in the URL)
  thinkLabel: "",
  entryStable: false, // whether the history entry on top holds a position where you move
};

// -- URL and history ------------------------------------------------------------------------------
function readUrl() {
  const query = new URLSearchParams(location.search);
  page.game = query.get("game");
  page.moves = (query.get("moves") ?? "").split(" ").filter(Boolean);
  page.first = query.get("first") === "ai" ? "ai" : "human";
  page.engine = query.get("engine");
  page.level = query.get("level");
  page.showValues = query.get("values") === "1";
  page.options = {};
  for (const [key, value] of query) if (key.startsWith("o.")) page.options[key.slice(2)] = value;
}

function urlNow() {
  const query = new URLSearchParams({ game: page.game });
  for (const [key, value] of Object.entries(page.options)) query.set(`o.${key}`, value);
  if (page.moves.length) query.set("moves", page.moves.join(" "));
  query.set("first", page.first);
  if (page.engine) query.set("engine", page.engine);
  if (page.level) query.set("level", page.level);
  if (page.showValues) query.set("values", "1");
  return `?${query}`;
}

// A new history entry when leaving a position where it was your turn (so Back returns to it);
// otherwise the entry on top follows the game (the AI's answer, a chance draw, a setting).
function writeUrl(history_ = "follow") {
  const url = urlNow();
  if (history_ === "push" || (history_ === "follow" && page.entryStable && url !== location.search)) {
    history.pushState(null, "", url);
  } else if (url !== location.search) {
    history.replaceState(null, "", url);
  }
  page.entryStable = isStable(page.position);
}

function isStable(state) {
  return Boolean(state && (state.outcome || isHumanTurn(state)));
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

// Show the position after `moves`. history: "follow" (see writeUrl), "push", or "none" (the
// browser moved through its history itself).
async function show(moves, history_ = "follow") {
  stopSearch();
  page.token += 1;
  const token = page.token;
  page.marks = null;
  page.pv = null;
  page.thinking = null;
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
        await show([], "replace");
        page.error = message;
        render();
      }
      return;
    }
  }
  chooseEngine();
  if (history_ === "none") page.entryStable = isStable(page.position);
  else writeUrl(history_);
  syncSetup();
  render();
  act(token);
}

function play(move) {
  const state = page.position;
  if (!state) return;
  const draws = state.chance.map((draw) => draw.move);
  if (!state.legal_moves.includes(move) && !draws.includes(move)) return;
  page.notice = null;
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
  } else if (page.showValues && state.value_engine) {
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

function levelSetting(engine) {
  const levels = LEVELS[engine] ?? TIME_LEVELS;
  return levels.find(([name]) => name === page.level) ?? levels.find(([name]) => name === (DEFAULT_LEVEL[engine] ?? "1s")) ?? levels[0];
}

// The engine asked for, if it plays this game; else the game's strongest (its own AI).
function chooseEngine() {
  const state = page.position;
  if (!state) return;
  const playing = state.opponents;
  page.engine = page.engineAliases[page.engine] ?? page.engine;
  if (!playing.includes(page.engine)) {
    if (page.engine !== null) page.level = null; // an engine this game lacks: its levels too
    page.engine = playing.includes(state.default_engine) ? state.default_engine : playing[0];
  }
  page.level = levelSetting(page.engine)[0];
}

// -- the AI ---------------------------------------------------------------------------------------
async function think(purpose, token) {
  stopSearch();
  const engine = purpose === "values" ? page.position.value_engine : page.engine;
  if (!engine) return;
  const [levelName, , seconds, aiLevel] = purpose === "values" ? ["-", "", 1] : levelSetting(engine);
  const analysis = purpose === "values" && engine === "alphabeta";
  const controller = new AbortController();
  const search = { controller, purpose, best: null, token, id: null, hurried: false };
  page.search = search;
  const request = { moves: page.moves, options: page.options, engine, analysis, limit: { time: seconds } };
  if (engine === "player") request.level = aiLevel ?? levelName;
  resetThinking(engine, purpose);
  renderControls();
  try {
    const answer = await streamSearch(page.game, request, (kind, result) => {
      if (token !== page.token) return;
      if (kind === "start") {
        search.id = result.search;
        return;
      }
      search.best = result;
      showThinking(result, kind === "done");
      if (purpose === "values") {
        page.marks = moveMarks(result);
        renderBoard();
      } else if (kind !== "done") {
        page.pv = result.pv;
        page.thinking = result;
        renderBoard();
      }
    }, controller.signal);
    if (token !== page.token || page.search !== search) return;
    page.search = null;
    $("think-state").textContent = `${page.thinkLabel} · ${search.hurried ? "stopped" : "done"}`;
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

// "Move now": the server stops the search, which answers with its best so far (every engine
// reads the stop); if the answer is slow and a best move is known, that is played.
async function moveNow() {
  const search = page.search;
  if (!search || search.purpose !== "move" || search.hurried) return;
  search.hurried = true;
  $("move-now").disabled = true;
  $("think-state").textContent = `${page.thinkLabel} · stopping…`;
  const fallback = () => {
    if (page.search !== search || !search.best || search.best.move === null) return;
    stopSearch();
    $("think-state").textContent = `${page.thinkLabel} · stopped`;
    play(search.best.move);
  };
  if (!search.id) {
    fallback();
    return;
  }
  try {
    await askToStop(search.id);
  } catch {
    fallback(); // it had just finished, or the server is gone
    return;
  }
  setTimeout(fallback, HURRY_WAIT);
}

function resetThinking(engine, purpose) {
  const state = page.position;
  const side = state.players === 2 ? `, for ${playerName(state, state.to_move)}` : "";
  const what = purpose === "values" ? `your moves valued by ${engineName(engine)}` : engineName(engine);
  page.thinkLabel = `· ${what}${side}`;
  $("think-state").textContent = `${page.thinkLabel}…`;
  for (const id of ["t-depth", "t-value", "t-nodes", "t-nps", "t-time", "t-pv"]) $(id).textContent = "–";
  $("t-log").replaceChildren();
  showNetwork(null);
}

// A network's view (engines puct and net): its value as a bar, its policy as a heat row over
// the moves, the search's visits beside each.
function showNetwork(result) {
  const box = $("t-network");
  const extra = result?.extra ?? {};
  if (!extra.policy) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const value = extra.network_value ?? 0;
  $("t-net-value").value = value;
  $("t-net-value-text").textContent = `${value >= 0 ? "+" : ""}${value.toFixed(2)} (${Math.round((value + 1) * 50)}% expected score)`;
  const cells = Object.entries(extra.policy).map(([move, prior]) => {
    const cell = document.createElement("span");
    cell.className = "heat";
    cell.style.setProperty("--heat", prior.toFixed(3));
    const visits = extra.visits?.[move];
    cell.textContent = `${move} ${Math.round(prior * 100)}%`;
    cell.title = `move ${move}: the network's prior ${(prior * 100).toFixed(1)}%` + (visits === undefined ? "" : `, ${visits} visits`);
    return cell;
  });
  $("t-policy").replaceChildren(...cells);
}

function showThinking(result, done) {
  $("t-depth").textContent = (result.scale === "minimax" && result.depth) || "–";
  $("t-value").textContent = valueWords(page.position, result);
  $("t-nodes").textContent = result.nodes ? result.nodes.toLocaleString("en") : "–";
  $("t-nps").textContent = result.nodes_per_second ? result.nodes_per_second.toLocaleString("en") : "–";
  $("t-time").textContent = `${result.seconds.toFixed(2)} s`;
  const line = lineWords(result);
  $("t-pv").textContent = line.length ? line.join(" ") : "–";
  showNetwork(result);
  if (done) return;
  const row = document.createElement("li");
  const deep = result.depth && result.scale === "minimax";
  const step = deep ? `depth ${result.depth}` : `${result.seconds.toFixed(2)} s`;
  const nodes = result.nodes ? `  ${result.nodes.toLocaleString("en")} nodes` : "";
  row.textContent = `${step}  ${moveWords(result) ?? "–"}  ${valueWords(page.position, result)}${nodes}`;
  if ($("t-log").firstChild?.textContent === row.textContent) return; // the answer, told again
  $("t-log").prepend(row);
  while ($("t-log").children.length > 12) $("t-log").lastChild.remove();
}

// -- drawing --------------------------------------------------------------------------------------
function render() {
  renderNotice();
  renderStatus();
  renderBoard();
  renderMoves();
  renderControls();
  renderExploreLink();
}

// The search explorer (/explore) for the position on the board.
function renderExploreLink() {
  const query = new URLSearchParams({ game: page.game ?? "" });
  if (page.moves.length) query.set("moves", page.moves.join(" "));
  for (const [key, value] of Object.entries(page.options)) query.set(`o.${key}`, value);
  $("explore-link").href = `/explore?${query.toString().replace(/%20/g, "+")}`;
}

function renderBoard() {
  const state = page.position;
  if (!state) return;
  const ui = {
    marks: page.marks,
    pv: page.marks ? null : page.pv,
    thinking: page.thinking,
    canMove: isHumanTurn(state),
    onMove: play,
    say: (text) => {
      page.notice = text;
      renderNotice();
    },
    bottom: humanSide(),
  };
  drawBoard($("board"), state, ui);
  drawMoveButtons($("move-buttons"), state, ui);
  drawLegend($("legend"), page.marks ?? {});
  renderFigures();
  $("keys").textContent = state.view.kind === "tiles" ? "Keys: the arrow keys slide the tiles."
    : state.view.kind === "text" ? "Keys: Tab to a move's button, Enter to play it."
      : "Keys: Tab to the board, the arrow keys to move around it, Enter or Space to play.";
}

// What a person reads beside the board (2048's score), from the game's own figures.
function renderFigures() {
  const figures = page.position?.figures ?? {};
  $("figures").textContent = Object.entries(figures)
    .map(([name, value]) => `${capitalise(name.replace(/_/g, " "))}: ${typeof value === "number" ? value.toLocaleString("en") : value}`)
    .join(" · ");
}

function renderStatus() {
  const state = page.position;
  if (state) document.title = `${state.title} · yipan 弈盘`;
  const status = $("status");
  status.className = "";
  status.replaceChildren();
  if (page.error) {
    status.textContent = page.error;
    status.className = "error";
    return;
  }
  if (!state) return;
  const named = (text, player) => {
    const swatch = player === null ? null : pieceSwatch(state, player);
    if (swatch) status.append(swatch);
    status.append(text);
  };
  if (state.outcome) {
    const winner = state.outcome.winner;
    status.className = "over";
    if (state.players === 1) named("Game over.", null);
    else if (winner === null) named("Draw.", null);
    else if (winner === humanSide()) named(`${playerName(state, winner)} wins: you won!`, winner);
    else named(`${playerName(state, winner)} wins: the AI won.`, winner);
  } else if (state.to_move === "chance") {
    named("Chance draws…", null);
  } else if (isHumanTurn(state)) {
    named(state.players === 1 ? "Your move." : `Your move (${playerName(state, state.to_move)}).`,
          state.players === 1 ? null : state.to_move);
  } else {
    named(state.players === 1 ? "The AI is playing…" : `The AI is thinking (${playerName(state, state.to_move)})…`,
          state.players === 1 ? null : state.to_move);
    status.className = "thinking";
  }
}

function renderNotice() {
  $("notice").textContent = page.notice ?? "";
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  page.moves.forEach((move, index) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    // chess's in SAN; a hidden deal stays hidden
    const seen = page.position?.move_names?.[index] ?? page.position?.moves_seen?.[index] ?? move;
    button.textContent = seen;
    const mover = page.position?.movers?.[index];
    const who = mover === "chance" ? "chance" : page.position ? playerName(page.position, mover ?? index % 2) : "";
    button.title = `${who}: ${seen}. Back to the position after move ${index + 1}`;
    button.setAttribute("aria-label", `move ${index + 1}, ${who}: ${seen}`);
    button.addEventListener("click", () => show(page.moves.slice(0, index + 1), "push"));
    item.className = mover === "chance" ? "chance" : `p${mover ?? index % 2}`;
    item.appendChild(button);
    list.appendChild(item);
  });
  list.scrollTop = list.scrollHeight;
}

// The length of the move list back to your last turn before now (null: nothing of yours to
// take back, e.g. 2048's opening tiles).
async function undoTarget() {
  for (let length = page.moves.length - 1; length >= 0; length--) {
    const state = await stateAt(page.moves.slice(0, length));
    if (isHumanTurn(state) && humanMoved(length)) return length;
  }
  return null;
}

// Whether you made the move at index `length` (so going back to before it undoes a move of yours).
function humanMoved(length) {
  const mover = page.position?.movers?.[length];
  if (mover === undefined || mover === "chance") return false;
  return page.position.players === 1 ? page.first === "human" : mover === humanSide();
}

function renderControls() {
  const state = page.position;
  const yours = state ? page.moves.some((_, index) => humanMoved(index)) : false;
  $("undo").disabled = !yours;
  $("ai-move").disabled = !state || !isHumanTurn(state);
  const searching = page.search && page.search.purpose === "move";
  $("move-now").hidden = !searching;
  $("move-now").disabled = Boolean(searching && page.search.hurried);
}

// -- setup ----------------------------------------------------------------------------------------
function spec() {
  return page.games.find((game) => game.name === page.game || game.aliases.includes(page.game));
}

function buildGameMenu() {
  const menu = $("game");
  menu.replaceChildren();
  for (const game of page.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.ready === false ? `${game.title} (preparing…)` : game.title;
    menu.appendChild(option);
  }
}

// The first run on a machine: the server prepares the games' engines while the page is up.
// Each game's menu entry says "preparing…" until its engine is ready; a request for it waits
// meanwhile (api.js), and the status line says so.
const READY_POLL = 2000; // ms between looks at which engines are ready
async function watchReadiness() {
  while (page.games.some((game) => game.ready === false)) {
    await new Promise((resolve) => setTimeout(resolve, READY_POLL));
    let report;
    try {
      report = await readiness();
    } catch {
      continue;
    }
    for (const game of page.games) game.ready = report.games[game.name] ?? true;
    buildGameMenu();
    $("game").value = spec()?.name ?? page.game;
  }
}

const shownValue = (value) => (Array.isArray(value) ? value.join(" ") : value === null ? "" : String(value));

function buildOptions() {
  const fields = $("options");
  fields.replaceChildren();
  for (const option of spec().options) {
    if (option.hidden) continue;
    const label = document.createElement("label");
    label.append(option.label ?? option.name);
    label.title = option.help;
    let input;
    if (option.choices) {
      input = document.createElement("select");
      for (const choice of option.choices) {
        const item = document.createElement("option");
        item.value = choice;
        item.textContent = option.choice_labels?.[choice] ?? choice;
        input.appendChild(item);
      }
    } else {
      input = document.createElement("input");
      input.placeholder = option.default === null ? "default" : shownValue(option.default);
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
      show([], "push");
    });
    label.appendChild(input);
    const hint = document.createElement("small");
    hint.textContent = option.help;
    label.appendChild(hint);
    fields.appendChild(label);
  }
  $("rules-text").textContent = spec().rules || "The rules of this game have not been written down here yet.";
}

function syncSetup() {
  $("game").value = spec()?.name ?? page.game;
  const alone = page.position && page.position.players === 1;
  const [human, ai] = $("first").options;
  human.textContent = alone ? "yourself" : "first";
  ai.textContent = alone ? "AI plays" : "second";
  $("engine-label").textContent = alone ? "AI player" : "Opponent";
  $("first").value = page.first;
  $("show-values").checked = page.showValues;
  const state = page.position;
  const engines = state ? state.opponents : [];
  const engineMenu = $("engine");
  engineMenu.replaceChildren();
  for (const engine of engines) {
    const option = document.createElement("option");
    option.value = engine;
    option.textContent = engineName(engine);
    option.title = state.engine_help?.[engine] ?? "";
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
  levelMenu.value = page.level;
  levelMenu.disabled = page.engine === "random";
  const help = state?.engine_help?.[page.engine];
  $("engine-help").textContent = help ? `${capitalise(engineName(page.engine))}: ${help}.` : "";
  $("show-values").disabled = !state?.value_engine;
}

const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function changeGame(name) {
  page.game = name;
  page.engine = null; // the new game's own first engine
  page.options = {};
  page.states.clear();
  page.position = null;
  page.error = null;
  page.notice = null;
  page.engine = null;
  page.level = null;
  buildOptions();
  show([], "push");
}

async function undo() {
  if (!page.moves.length) return;
  stopSearch();
  const length = await undoTarget();
  if (length !== null) show(page.moves.slice(0, length), "push");
}

function wire() {
  $("game").addEventListener("change", (event) => changeGame(event.target.value));
  $("new-game").addEventListener("click", () => {
    page.notice = null;
    show([], "push");
  });
  $("undo").addEventListener("click", undo);
  $("ai-move").addEventListener("click", () => page.position && think("move", page.token));
  $("move-now").addEventListener("click", moveNow);
  $("first").addEventListener("change", (event) => {
    page.first = event.target.value; // sides change, the game goes on
    show(page.moves, "replace");
  });
  $("engine").addEventListener("change", (event) => {
    page.engine = event.target.value;
    page.level = null;
    show(page.moves, "replace");
  });
  $("level").addEventListener("change", (event) => {
    page.level = event.target.value;
    show(page.moves, "replace");
  });
  $("show-values").addEventListener("change", (event) => {
    page.showValues = event.target.checked;
    show(page.moves, "replace");
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
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (isHumanTurn(page.position) && page.position.legal_moves.includes(move)) {
      event.preventDefault();
      play(move);
    }
  });
  // Back and Forward: the position (and setup) of that history entry
  window.addEventListener("popstate", () => {
    const before = JSON.stringify([page.game, page.options]);
    readUrl();
    if (!spec()) return;
    if (JSON.stringify([page.game, page.options]) !== before) {
      page.states.clear();
      page.position = null;
      buildOptions();
    }
    page.error = null;
    show(page.moves, "none");
  });
}

async function start() {
  wire();
  readUrl();
  try {
    const listing = await listGames();
    page.games = listing.games;
    page.engineAliases = listing.engine_aliases ?? {};
  } catch (error) {
    $("status").textContent = `cannot reach the server: ${error.message}`;
    return;
  }
  if (!page.games.length) {
    $("status").textContent = "No games are registered.";
    return;
  }
  buildGameMenu();
  watchReadiness();
  whilePreparing((message) => {
    $("status").textContent = `waiting… ${message}`;
  });
  if (!spec()) {
    const fallback = page.games.some((g) => g.name === "tictactoe") ? "tictactoe" : page.games[0].name;
    if (page.game) {
      const title = page.games.find((g) => g.name === fallback).title;
      page.notice = `There is no game called “${page.game}” here (choose one from the Game menu); here is ${title}.`;
      page.options = {};
      page.moves = [];
    }
    page.game = fallback;
  }
  page.game = spec().name;
  buildOptions();
  await show(page.moves, "replace");
}

start();
