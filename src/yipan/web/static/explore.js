// The search explorer: the tree an algorithm explored from one position (POST
// /api/games/{game}/explain, as `yipan explain --json`), drawn as a tree of nested lists that
// folds and unfolds, stepped through in the order searched (one node at a time; MCTS: one
// iteration at a time), each node's position drawn on hover or focus, and a second algorithm
// beside the first on the same position. The request lives in the URL
// (?game=tictactoe&moves=a1+b2&algorithm=alphabeta&depth=9&compare=minimax&o.size=3x3).

import { ApiError, getState, listGames } from "./api.js";
import { WIN, drawBoard } from "./boards.js";

const ALGORITHMS = ["minimax", "alphabeta", "alphabeta-tt", "mcts", "mcts-solver", "expectimax", "grundy"];
const DEPTH_ALGORITHMS = new Set(["minimax", "alphabeta", "alphabeta-tt", "expectimax"]);
const ITERATION_ALGORITHMS = new Set(["mcts", "mcts-solver"]);
const REFINEMENTS = ["table", "symmetry", "ordering", "pvs", "bounds"];
const UNFOLDED_DEPTH = 1; // levels shown unfolded when a tree arrives
const MAX_UNFOLD_ALL = 5000; // "Unfold all" draws at most this many nodes

const $ = (id) => document.getElementById(id);
const explore = { games: [], options: {}, panes: [], activePane: 0, states: new Map(), previewToken: 0,
  together: true }; // together: side by side, a step in one tree steps the other to the same count

function element(name, attributes = {}, parent = null, text = "") {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "className") node.className = value;
    else node.setAttribute(key, value);
  }
  if (text) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

// -- numbers in words ----------------------------------------------------------------------------
const count = (n) => Number(n).toLocaleString("en");

function signed(value) {
  if (value === null || value === undefined) return "∞";
  if (Math.abs(value) >= WIN - 10_000) {
    const plies = WIN - Math.abs(value);
    return `${value > 0 ? "win" : "loss"} in ${plies}`;
  }
  const text = Number.isInteger(value) ? String(Math.abs(value)) : Math.abs(value).toFixed(3);
  return `${value < 0 ? "−" : value > 0 ? "+" : ""}${text}`;
}

const bound = (value, side) => (value === null || value === undefined ? (side < 0 ? "−∞" : "+∞") : signed(value));

// -- the URL and the form ------------------------------------------------------------------------
function readUrl() {
  const query = new URLSearchParams(location.search);
  const settings = {
    game: query.get("game") ?? "tictactoe",
    moves: (query.get("moves") ?? "").split(" ").filter(Boolean),
    algorithm: query.get("algorithm"),
    compare: query.get("compare") ?? "",
    depth: query.get("depth"),
    iterations: query.get("iterations"),
    maxNodes: query.get("max_nodes"),
    without: (query.get("without") ?? "").split(" ").filter(Boolean),
    seed: query.get("seed"),
  };
  explore.options = {};
  for (const [key, value] of query) if (key.startsWith("o.")) explore.options[key.slice(2)] = value;
  return settings;
}

function writeUrl(settings) {
  const query = new URLSearchParams({ game: settings.game });
  if (settings.moves.length) query.set("moves", settings.moves.join(" "));
  query.set("algorithm", settings.algorithm);
  if (settings.compare) query.set("compare", settings.compare);
  query.set("depth", settings.depth);
  query.set("iterations", settings.iterations);
  query.set("max_nodes", settings.maxNodes);
  if (settings.without.length) query.set("without", settings.without.join(" "));
  if (settings.seed !== null && settings.seed !== undefined) query.set("seed", settings.seed);
  for (const [key, value] of Object.entries(explore.options)) query.set(`o.${key}`, value);
  history.replaceState(null, "", `?${query.toString().replace(/%20/g, "+")}`);
  const back = new URLSearchParams({ game: settings.game });
  if (settings.moves.length) back.set("moves", settings.moves.join(" "));
  for (const [key, value] of Object.entries(explore.options)) back.set(`o.${key}`, value);
  $("back-to-game").href = `/?${back.toString().replace(/%20/g, "+")}`;
}

function readForm() {
  return {
    game: $("game").value,
    moves: $("moves").value.split(/\s+/).filter(Boolean),
    algorithm: $("algorithm").value,
    compare: $("compare").value,
    depth: $("depth").value,
    iterations: $("iterations").value,
    maxNodes: $("max-nodes").value,
    without: REFINEMENTS.filter((name) => $(`without-${name}`).checked),
    seed: new URLSearchParams(location.search).get("seed") ?? "1",
  };
}

function fillForm(settings) {
  $("game").value = settings.game;
  $("moves").value = settings.moves.join(" ");
  $("algorithm").value = settings.algorithm;
  $("compare").value = settings.compare;
  if (settings.depth) $("depth").value = settings.depth;
  if (settings.iterations) $("iterations").value = settings.iterations;
  if (settings.maxNodes) $("max-nodes").value = settings.maxNodes;
  for (const name of REFINEMENTS) $(`without-${name}`).checked = settings.without.includes(name);
  showFields();
}

function showFields() {
  const chosen = [$("algorithm").value, $("compare").value];
  $("depth-field").hidden = !chosen.some((name) => DEPTH_ALGORITHMS.has(name));
  $("iterations-field").hidden = !chosen.some((name) => ITERATION_ALGORITHMS.has(name));
  $("without-field").hidden = !chosen.includes("alphabeta-tt");
}

function buildForm() {
  for (const { name, title } of explore.games) element("option", { value: name }, $("game"), title);
  for (const name of ALGORITHMS) element("option", { value: name }, $("algorithm"), name);
  element("option", { value: "" }, $("compare"), "nothing");
  for (const name of ALGORITHMS) element("option", { value: name }, $("compare"), name);
  for (const name of REFINEMENTS) {
    const label = element("label", { className: "check" }, $("without-field"));
    element("input", { type: "checkbox", id: `without-${name}` }, label);
    label.append(` ${name}`);
  }
  $("algorithm").addEventListener("change", showFields);
  $("compare").addEventListener("change", showFields);
  $("game").addEventListener("change", () => {
    $("moves").value = "";
    explore.options = {};
  });
  $("request").addEventListener("submit", (event) => {
    event.preventDefault();
    run(readForm());
  });
}

// The algorithms that suit a position when the URL names none: alpha-beta beside minimax where
// alpha-beta plays, expectimax for chance, Grundy values for heaps, else MCTS.
async function defaultAlgorithms(settings) {
  try {
    const state = await getState(settings.game, explore.options, settings.moves);
    if (state.value_engine === "alphabeta") return ["alphabeta", "minimax"];
    if (state.chance_game) return ["expectimax", ""];
    if (state.view.kind === "heaps") return ["grundy", ""];
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  return ["mcts", ""];
}

// -- asking the server -----------------------------------------------------------------------------
async function explain(settings, algorithm) {
  const body = { moves: settings.moves, options: explore.options, algorithm, max_nodes: Number(settings.maxNodes) };
  if (DEPTH_ALGORITHMS.has(algorithm)) body.depth = Number(settings.depth);
  if (ITERATION_ALGORITHMS.has(algorithm)) {
    body.iterations = Number(settings.iterations);
    body.seed = Number(settings.seed ?? 1);
  }
  if (algorithm === "alphabeta-tt") body.without = settings.without;
  const response = await fetch(`/api/games/${encodeURIComponent(settings.game)}/explain`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ApiError(`${algorithm}: ${data.error || `HTTP ${response.status}`}`);
  return data;
}

async function run(settings) {
  writeUrl(settings);
  explore.settings = settings;
  const algorithms = [settings.algorithm, settings.compare].filter(Boolean);
  $("message").textContent = `Searching with ${algorithms.join(" and ")}…`;
  $("message").className = "message";
  $("run").disabled = true;
  try {
    const results = await Promise.all(algorithms.map((name) => explain(settings, name)));
    explore.panes = results.map((data, index) => makePane(data, index));
    explore.activePane = 0;
    $("message").textContent = "";
    renderPanes();
    renderComparison();
    showPreview(explore.panes[0], explore.panes[0].nodes[0]);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    $("message").textContent = error.message;
    $("message").className = "message error";
  } finally {
    $("run").disabled = false;
  }
}

// -- a pane: one algorithm's tree --------------------------------------------------------------
// The tree is flattened in the order searched (each root, then its follow-ups): a node's
// subtree is the run nodes[i .. end), so "entered by step k" is i < k and "valued" is end <= k.
function makePane(data, index) {
  const nodes = [];
  const flatten = (node, parent, moves, depth, label) => {
    const at = nodes.length;
    const item = { data: node, index: at, parent, depth, moves, label, children: [], end: 0 };
    nodes.push(item);
    if (parent !== null) nodes[parent].children.push(at);
    for (const child of node.children) flatten(child, at, [...moves, child.move], depth + 1, null);
    item.end = nodes.length;
  };
  flatten(data.root, null, [], 0, "root");
  for (const follow of data.follow_ups ?? []) {
    flatten(follow.root, null, follow.origin, 0, `follow-up after ${follow.origin.join(" ") || "the root"}`);
  }
  const iterative = ITERATION_ALGORITHMS.has(data.algorithm);
  const paths = data.iteration_paths ?? [];
  const born = new Array(nodes.length).fill(Infinity); // MCTS: the iteration that added a node
  if (iterative) {
    born[0] = 0;
    paths.forEach((step, iteration) => {
      for (const at of step.path) born[at] = Math.min(born[at], iteration + 1);
    });
  }
  const total = iterative ? paths.length : nodes.length;
  const pane = {
    index, data, nodes, iterative, paths, born, total, step: total,
    expanded: new Set(), rendered: new Map(), focused: 0, stats: null,
  };
  for (const item of nodes) if (item.depth < UNFOLDED_DEPTH && item.children.length) pane.expanded.add(item.index);
  computeStats(pane);
  return pane;
}

// MCTS after `step` iterations: each node's visits and mean (from MAX's side), from the paths
// (after the last one they are the server's figures: the tests compare them).
function computeStats(pane) {
  if (!pane.iterative) return;
  const visits = new Array(pane.nodes.length).fill(0);
  const totals = new Array(pane.nodes.length).fill(0);
  for (const step of pane.paths.slice(0, pane.step)) {
    for (const at of step.path) {
      visits[at] += 1;
      totals[at] += step.result;
    }
  }
  pane.stats = { visits, totals };
}

function entered(pane, at) {
  return pane.iterative ? pane.born[at] <= pane.step : at < pane.step;
}

function finished(pane, at) {
  return pane.iterative ? pane.step === pane.total : pane.nodes[at].end <= pane.step;
}

function currentNode(pane) {
  if (pane.iterative) {
    const path = pane.paths[pane.step - 1]?.path;
    return path ? path[path.length - 1] : 0;
  }
  return Math.max(pane.step - 1, 0);
}

function onCurrentPath(pane, at) {
  if (!pane.iterative) return false;
  return pane.paths[pane.step - 1]?.path.includes(at) ?? false;
}

// -- what a node says ------------------------------------------------------------------------------
function mctsFigures(pane, item) {
  const at = item.index;
  const visits = pane.stats.visits[at];
  if (!visits) return { visits: 0, mean: null, ucb: null };
  const mean = pane.stats.totals[at] / visits;
  let ucb = null;
  const parent = item.parent === null ? null : pane.nodes[item.parent];
  if (parent && parent.data.side !== "chance" && pane.stats.visits[item.parent] && item.data.ucb !== undefined && item.data.ucb !== null) {
    const chooser = parent.data.side === "MIN" ? -1 : 1; // the parent's chooser, MAX or MIN
    ucb = chooser * mean + pane.data.exploration * Math.sqrt(Math.log(pane.stats.visits[item.parent]) / visits);
  }
  return { visits, mean, ucb };
}

function nodeParts(pane, item) {
  const node = item.data;
  const algorithm = pane.data.algorithm;
  const done = finished(pane, item.index);
  const parts = [];
  const add = (className, text, title = "") => parts.push({ className, text, title });
  add("move", item.label ?? node.move);
  if (algorithm === "grundy") {
    if (node.known) add("value", `G = ${node.value}`, "valued earlier in the tree");
    else {
      const values = [...new Set(node.options)].sort((a, b) => a - b).join(", ");
      add("value", done ? `G = ${node.value} = mex{${values}}` : "G = …");
      if (node.options.length) add("options", `options ${node.options.join(" ")}`);
    }
    if (node.known) add("source", "known");
    return parts;
  }
  add(`side side-${node.side.toLowerCase()}`, node.side);
  if (node.probability !== undefined) add("probability", `p ${Number(node.probability.toFixed(4))}`);
  if (pane.iterative) {
    const { visits, mean, ucb } = mctsFigures(pane, item);
    add("visits", `visits ${count(visits)}`);
    if (mean !== null) add("value", `mean ${signed(mean)}`);
    if (ucb !== null) add("ucb", `ucb ${ucb.toFixed(3)}`);
    if (node.proven && done) add("source", "proven");
    return parts;
  }
  const relation = node.bound === "lower" ? "≥" : node.bound === "upper" ? "≤" : "=";
  add("value", done ? `${relation} ${signed(node.value)}` : "…");
  if (node.source && done) add("source", node.source);
  if (node.window) add("source", node.window);
  if ("alpha" in node) add("window", `α ${bound(node.alpha, -1)}, β ${bound(node.beta, 1)}`, "the window (α, β) on entry, from MAX's side");
  if (node.cutoff && done) add("cutoff", "cut-off");
  return parts;
}

function nodeWords(pane, item) {
  return nodeParts(pane, item).map((part) => part.text).join(" · ");
}

// -- drawing a pane ----------------------------------------------------------------------------------
function renderPanes() {
  const panes = $("panes");
  panes.replaceChildren();
  panes.classList.toggle("two", explore.panes.length > 1);
  for (const pane of explore.panes) {
    const section = element("section", { className: "card pane", "aria-label": `the tree of ${pane.data.algorithm}` }, panes);
    pane.section = section;
    element("h2", {}, section, pane.data.algorithm);
    pane.summary = element("p", { className: "summary" }, section);
    pane.summary.textContent = summaryText(pane);
    const controls = element("div", { className: "stepper" }, section);
    const button = (label, title, action) => {
      const item = element("button", { type: "button", title }, controls, label);
      item.addEventListener("click", () => {
        explore.activePane = pane.index;
        action();
      });
      return item;
    };
    const unit = pane.iterative ? "iteration" : "node";
    pane.buttons = {
      start: button("◀◀ Start", `back to before the first ${unit}`, () => setStep(pane, 0)),
      back: button(`◀ Back`, `one ${unit} back`, () => setStep(pane, pane.step - 1)),
      forward: button(`Forward ▶`, `one ${unit} forward`, () => setStep(pane, pane.step + 1)),
      end: button("End ▶▶", "the whole search", () => setStep(pane, pane.total)),
    };
    button("Fold all", "fold every subtree", () => foldAll(pane));
    button("Unfold all", `unfold every subtree (at most ${count(MAX_UNFOLD_ALL)} nodes)`, () => unfoldAll(pane));
    pane.slider = element("input", { type: "range", min: "0", max: String(pane.total), value: String(pane.step),
      "aria-label": `${unit}s of ${pane.data.algorithm} shown` }, controls);
    pane.slider.addEventListener("input", () => setStep(pane, Number(pane.slider.value)));
    pane.stepText = element("p", { className: "step", "aria-live": "polite" }, section);
    pane.tree = element("ul", { role: "tree", className: "tree", "aria-label": `nodes searched by ${pane.data.algorithm}` }, section);
    pane.tree.addEventListener("keydown", (event) => treeKeys(pane, event));
    pane.tree.addEventListener("click", (event) => treeClick(pane, event));
    pane.tree.addEventListener("mouseover", (event) => hovered(pane, event));
    pane.tree.addEventListener("focusin", (event) => hovered(pane, event));
    drawTree(pane);
  }
}

function summaryText(pane) {
  const data = pane.data;
  const words = [];
  if (data.algorithm !== "grundy") words.push(`value ${signed(data.value)}`);
  else words.push(`Grundy value ${data.value}`);
  if (data.move) words.push(`move ${data.move}`);
  words.push(pane.iterative ? `${count(data.nodes)} iterations` : `${count(data.nodes)} ${data.algorithm === "grundy" ? "positions valued" : "nodes searched"}`);
  words.push(`${count(data.recorded)} nodes drawn${data.truncated ? " (the tree was cut: ask for more nodes kept)" : ""}`);
  if (data.algorithm.startsWith("alphabeta")) {
    const cuts = pane.nodes.filter((item) => item.data.cutoff);
    const pruned = cuts.reduce((sum, item) => sum + (item.data.pruned?.length ?? 0), 0);
    words.push(`${count(cuts.length)} cut-offs, ${count(pruned)} moves never looked at`);
  }
  return words.join(" · ");
}

function drawTree(pane) {
  pane.tree.replaceChildren();
  pane.rendered.clear();
  for (const item of pane.nodes) if (item.parent === null) pane.tree.append(nodeElement(pane, item));
  refresh(pane);
}

function nodeElement(pane, item) {
  const li = element("li", { role: "treeitem", "aria-level": String(item.depth + 1), tabindex: "-1", "data-index": String(item.index) });
  if (item.children.length) li.setAttribute("aria-expanded", String(pane.expanded.has(item.index)));
  element("div", { className: "row" }, li);
  pane.rendered.set(item.index, li);
  fillRow(pane, item, li);
  if (item.children.length && pane.expanded.has(item.index)) drawChildren(pane, item, li);
  return li;
}

function drawChildren(pane, item, li) {
  let group = li.querySelector(":scope > ul");
  if (group) return;
  group = element("ul", { role: "group" }, li);
  for (const child of item.children) group.append(nodeElement(pane, pane.nodes[child]));
}

function fillRow(pane, item, li) {
  const row = li.firstChild;
  row.replaceChildren();
  const twisty = element("span", { className: "twisty", "aria-hidden": "true" }, row, item.children.length ? (pane.expanded.has(item.index) ? "▾" : "▸") : "·");
  twisty.dataset.toggle = "1";
  for (const part of nodeParts(pane, item)) {
    const span = element("span", { className: part.className }, row, part.text);
    if (part.title) span.title = part.title;
  }
  const node = item.data;
  if (node.cutoff && node.pruned?.length && finished(pane, item.index)) {
    const pruned = element("span", { className: "pruned", title: "moves the cut-off left unsearched" }, row, "never looked at:");
    for (const move of node.pruned) element("s", { className: "pruned-move" }, pruned, move);
  }
  if (item.children.length && !pane.expanded.has(item.index)) {
    element("span", { className: "folded" }, row, `${count(item.end - item.index - 1)} below`);
  }
}

// Show the nodes entered by the current step, value those finished, mark the current one.
function refresh(pane) {
  const current = currentNode(pane);
  for (const [at, li] of pane.rendered) {
    const item = pane.nodes[at];
    li.hidden = !entered(pane, at);
    fillRow(pane, item, li);
    li.classList.toggle("current", at === current && pane.step > 0);
    li.classList.toggle("on-path", onCurrentPath(pane, at));
    li.setAttribute("aria-selected", String(at === current && pane.step > 0));
  }
  const focusable = pane.rendered.get(pane.focused) && !pane.rendered.get(pane.focused).hidden ? pane.focused : 0;
  for (const [at, li] of pane.rendered) li.tabIndex = at === focusable ? 0 : -1;
  pane.slider.value = String(pane.step);
  pane.buttons.start.disabled = pane.buttons.back.disabled = pane.step === 0;
  pane.buttons.end.disabled = pane.buttons.forward.disabled = pane.step === pane.total;
  pane.stepText.textContent = stepText(pane);
}

function stepText(pane) {
  const unit = pane.iterative ? "iteration" : "node";
  if (pane.step === 0) return `Before the first ${unit}: step forward to watch the search.`;
  const head = `${capital(unit)} ${count(pane.step)} of ${count(pane.total)}`;
  if (pane.iterative) {
    const step = pane.paths[pane.step - 1];
    const moves = step.path.slice(1).map((at) => pane.nodes[at].data.move);
    return `${head}: down ${moves.join(" ") || "the root"}, result ${signed(step.result)} (from MAX's side).`;
  }
  const item = pane.nodes[pane.step - 1];
  const where = item.moves.length ? item.moves.join(" ") : "the root";
  return `${head}: entered ${where} (${nodeWords(pane, item)}).`;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function setStep(pane, step, leading = true) {
  pane.step = Math.max(0, Math.min(pane.total, step));
  computeStats(pane);
  const current = currentNode(pane);
  if (pane.step > 0) unfoldTo(pane, current);
  refresh(pane);
  if (pane.step > 0) {
    const li = pane.rendered.get(current);
    li?.firstChild.scrollIntoView({ block: "nearest" });
    if (leading) showPreview(pane, pane.nodes[current]);
  }
  if (leading && explore.together) {
    for (const other of explore.panes) if (other !== pane) setStep(other, step, false);
  }
}

function unfoldTo(pane, at) {
  const chain = [];
  for (let parent = pane.nodes[at].parent; parent !== null; parent = pane.nodes[parent].parent) chain.push(parent);
  for (const parent of chain.reverse()) if (!pane.expanded.has(parent)) setFolded(pane, parent, false, false);
}

function setFolded(pane, at, folded, update = true) {
  const item = pane.nodes[at];
  if (!item.children.length) return;
  const li = pane.rendered.get(at);
  if (folded) {
    pane.expanded.delete(at);
    const group = li?.querySelector(":scope > ul");
    if (group) {
      for (const below of pane.nodes.slice(at + 1, item.end)) pane.rendered.delete(below.index);
      group.remove();
    }
  } else {
    pane.expanded.add(at);
    if (li) drawChildren(pane, item, li);
  }
  li?.setAttribute("aria-expanded", String(!folded));
  if (update) refresh(pane);
}

function foldAll(pane) {
  pane.expanded.clear();
  pane.focused = 0;
  drawTree(pane);
}

function unfoldAll(pane) {
  for (const item of pane.nodes.slice(0, MAX_UNFOLD_ALL)) if (item.children.length) pane.expanded.add(item.index);
  drawTree(pane);
}

// -- the tree's keys and clicks (the WAI-ARIA tree pattern) ----------------------------------------
function visibleItems(pane) {
  return [...pane.tree.querySelectorAll("li[role=treeitem]")].filter((li) => !li.hidden && li.offsetParent !== null);
}

function focusItem(pane, li) {
  if (!li) return;
  pane.focused = Number(li.dataset.index);
  for (const other of pane.rendered.values()) other.tabIndex = -1;
  li.tabIndex = 0;
  li.focus();
}

function treeKeys(pane, event) {
  const li = event.target.closest("li[role=treeitem]");
  if (!li) return;
  explore.activePane = pane.index;
  const at = Number(li.dataset.index);
  const item = pane.nodes[at];
  const items = visibleItems(pane);
  const place = items.indexOf(li);
  const keys = {
    ArrowDown: () => focusItem(pane, items[place + 1]),
    ArrowUp: () => focusItem(pane, items[place - 1]),
    Home: () => focusItem(pane, items[0]),
    End: () => focusItem(pane, items[items.length - 1]),
    ArrowRight: () => {
      if (!item.children.length) return;
      if (!pane.expanded.has(at)) setFolded(pane, at, false);
      else focusItem(pane, pane.rendered.get(item.children[0]));
    },
    ArrowLeft: () => {
      if (item.children.length && pane.expanded.has(at)) setFolded(pane, at, true);
      else if (item.parent !== null) focusItem(pane, pane.rendered.get(item.parent));
    },
    Enter: () => setStep(pane, pane.iterative ? firstIterationThrough(pane, at) : at + 1),
  };
  const action = keys[event.key];
  if (!action) return;
  event.preventDefault();
  event.stopPropagation();
  action();
  const now = pane.rendered.get(pane.focused);
  if (now && document.activeElement !== now) focusItem(pane, now);
}

function firstIterationThrough(pane, at) {
  return pane.born[at] === Infinity ? pane.step : Math.max(pane.born[at], 1);
}

function treeClick(pane, event) {
  const li = event.target.closest("li[role=treeitem]");
  if (!li) return;
  explore.activePane = pane.index;
  const at = Number(li.dataset.index);
  if (event.target.dataset.toggle) setFolded(pane, at, pane.expanded.has(at));
  focusItem(pane, pane.rendered.get(at));
}

// -- the position of a node -----------------------------------------------------------------------
function hovered(pane, event) {
  const li = event.target.closest("li[role=treeitem]");
  if (!li) return;
  showPreview(pane, pane.nodes[Number(li.dataset.index)]);
}

async function showPreview(pane, item) {
  const settings = explore.settings;
  const moves = [...settings.moves, ...item.moves];
  const token = ++explore.previewToken;
  $("preview-path").textContent = item.moves.length
    ? `After ${settings.moves.length ? "the moves played, then " : ""}${item.moves.join(" ")}`
    : "The position searched (the root)";
  $("preview-node").textContent = `${pane.data.algorithm}: ${nodeWords(pane, item)}`;
  const key = moves.join(" ");
  let state = explore.states.get(key);
  if (!state) {
    try {
      state = await getState(settings.game, explore.options, moves);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (token === explore.previewToken) $("preview-board").textContent = `No board for this node: ${error.message}`;
      return;
    }
    explore.states.set(key, state);
  }
  if (token !== explore.previewToken) return;
  const board = $("preview-board");
  board.inert = true; // a picture: its cells are not for playing here
  drawBoard(board, state, { marks: null, pv: null, canMove: false, onMove() {} });
  board.classList.add("preview-board");
}

// -- two algorithms side by side -----------------------------------------------------------------
function renderComparison() {
  const box = $("comparison");
  box.hidden = explore.panes.length < 2;
  if (box.hidden) return;
  const [first, second] = explore.panes.map((pane) => pane.data);
  const units = (data) => (ITERATION_ALGORITHMS.has(data.algorithm) ? "iterations" : data.algorithm === "grundy" ? "positions" : "nodes");
  const words = [`${first.algorithm} searched ${count(first.nodes)} ${units(first)}, ${second.algorithm} ${count(second.nodes)} ${units(second)}.`];
  if (units(first) === "nodes" && units(second) === "nodes" && first.nodes !== second.nodes) {
    const [more, fewer] = first.nodes > second.nodes ? [first, second] : [second, first];
    const saved = more.nodes - fewer.nodes;
    const cause = fewer.algorithm.startsWith("alphabeta") ? "the cut-offs" : fewer.algorithm;
    words.push(`${capital(cause)} of ${fewer.algorithm} saved ${count(saved)} nodes (${(100 * saved / more.nodes).toFixed(1)}% of ${more.algorithm}'s).`);
  }
  if (first.value !== null && second.value !== null) {
    words.push(first.value === second.value ? `Both value the position ${signed(first.value)}.`
      : `Their values differ: ${signed(first.value)} and ${signed(second.value)}.`);
  }
  box.replaceChildren();
  element("h2", {}, box, "Side by side");
  element("p", { id: "comparison-text" }, box, words.join(" "));
  const label = element("label", { className: "check" }, box);
  const together = element("input", { type: "checkbox", id: "together" }, label);
  together.checked = explore.together;
  together.addEventListener("change", () => { explore.together = together.checked; });
  label.append(" Step both trees together (to the same count of nodes or iterations)");
}

// -- keys anywhere: step the pane last used --------------------------------------------------------
document.addEventListener("keydown", (event) => {
  if (event.target.closest?.("input, select, textarea")) return;
  const pane = explore.panes[explore.activePane];
  if (!pane || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === ".") setStep(pane, pane.step + 1);
  else if (event.key === ",") setStep(pane, pane.step - 1);
});

async function start() {
  try {
    explore.games = (await listGames()).games;
  } catch (error) {
    $("message").textContent = error.message;
    return;
  }
  buildForm();
  const settings = readUrl();
  if (!explore.games.some((game) => game.name === settings.game)) {
    $("message").textContent = `There is no game called "${settings.game}".`;
    $("message").className = "message error";
    settings.game = explore.games[0].name;
  }
  if (!settings.algorithm) [settings.algorithm, settings.compare] = await defaultAlgorithms(settings);
  settings.depth ??= settings.algorithm === "expectimax" ? "2" : "3";
  settings.iterations ??= "200";
  settings.maxNodes ??= "5000";
  fillForm(settings);
  await run(readForm());
}

start();
