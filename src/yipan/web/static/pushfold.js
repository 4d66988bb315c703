// The push-or-fold page: the two ranges at one stack, or the threshold charts, as 13 x 13 grids
// (pairs on the diagonal, suited hands above it, offsuit below) drawn by boards.js.

import { drawRangeGrid } from "./boards.js";

const $ = (id) => document.getElementById(id);

async function fetchJson(url) {
  const response = await fetch(url);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

async function refresh() {
  const stack = $("stack").value, ante = $("ante").value || "0";
  const chart = $("mode").value === "chart";
  $("status").textContent = chart ? "Solving 191 stacks…" : "Solving…";
  try {
    if (chart) {
      const data = await fetchJson(`/api/poker/pushfold/chart?ante=${encodeURIComponent(ante)}`);
      const top = data.stacks[1];
      const scale = { kind: "threshold", top };
      $("push-title").textContent = "Small blind shoves up to (bb)";
      $("call-title").textContent = "Big blind calls up to (bb)";
      drawRangeGrid($("push-grid"), data.push, scale);
      drawRangeGrid($("call-grid"), data.call, scale);
      $("status").textContent = `Largest stack from 1 to ${top} bb at which each hand shoves or calls (${top}+: at ${top} or more).`;
    } else {
      const data = await fetchJson(`/api/poker/pushfold?stack=${encodeURIComponent(stack)}&ante=${encodeURIComponent(ante)}`);
      $("push-title").textContent = `Small blind shoves ${data.stack} bb`;
      $("call-title").textContent = "Big blind calls";
      drawRangeGrid($("push-grid"), data.push, { kind: "probability" });
      drawRangeGrid($("call-grid"), data.call, { kind: "probability" });
      $("status").textContent = `Small blind's value ${data.value >= 0 ? "+" : ""}${data.value.toFixed(3)} bb; exploitability ${data.exploitability.toExponential(1)} bb.`;
    }
  } catch (error) {
    $("status").textContent = error.message;
  }
}

for (const id of ["stack", "ante", "mode"]) $(id).addEventListener("change", refresh);
refresh();
