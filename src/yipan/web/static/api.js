// The JSON API of yipan's web app. Every request carries the whole position (game, options,
// moves): the server remembers nothing between requests.

export class ApiError extends Error {}

// A game whose engine the server is still preparing (its first run on a machine compiles it),
// or a server whose workers are all searching (many tabs at once), answers 503 with
// Retry-After: the request is asked again after that wait, as often as it takes, and
// `onPreparing(message)` (set by the page) hears of each wait.
let onPreparing = () => {};
export function whilePreparing(listener) {
  onPreparing = listener;
}

const pause = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => {
    clearTimeout(timer);
    reject(new DOMException("aborted", "AbortError"));
  }, { once: true });
});

async function post(path, body, signal) {
  for (;;) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    const retryAfter = response.headers.get("retry-after");
    if (response.status !== 503 || retryAfter === null) return response;
    const data = await response.json().catch(() => ({}));
    onPreparing(data.error ?? "the game's engine is being prepared…");
    await pause(1000 * Number(retryAfter || 1), signal);
  }
}

async function json(response) {
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ApiError(data.error || `HTTP ${response.status}`);
  return data;
}

export async function listGames() {
  return json(await fetch("/api/games"));
}

// {ready, games: {name: true once playable}}: the first run on a machine prepares the games'
// engines one by one while the page is already served
export async function readiness() {
  return json(await fetch("/api/ready"));
}

// viewer: the seat the board is drawn for (a game of hidden cards hides the other seat's)
export async function getState(game, options, moves, viewer = null) {
  return json(await post(`/api/games/${encodeURIComponent(game)}/state`, { options, moves, viewer }));
}

// Run a search and call onEvent(kind, data) for each server-sent event: "start" (data.search
// names it for stopSearch), "progress" each time its answer improves, then "done" with the
// answer. Aborting `signal` closes the connection, which ends the search.
export async function streamSearch(game, request, onEvent, signal) {
  const response = await post(`/api/games/${encodeURIComponent(game)}/stream`, request, signal);
  if (!response.ok) await json(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let answer = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseEvent(block);
      if (event.kind === "error") throw new ApiError(event.data.error);
      if (event.kind === "done") answer = event.data;
      if (["start", "progress", "done"].includes(event.kind)) onEvent(event.kind, event.data);
    }
  }
  if (answer === null) throw new ApiError("the search ended without an answer");
  return answer;
}

// "Move now": the running search named `search` (its start event's) answers with its best so far.
export async function stopSearch(search) {
  return json(await post(`/api/searches/${encodeURIComponent(search)}/stop`, {}));
}

function parseEvent(block) {
  let kind = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) kind = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trim());
  }
  return { kind, data: JSON.parse(data.join("\n") || "{}") };
}
