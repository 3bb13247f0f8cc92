"use strict";
// Pointer and keys. A press on a handle moves it (`anchor`, or a `field` update of x/y); a press on an
// item and a move drags it (`drag`, release flings with `velocity`); a press on empty space and a move
// sends nothing (it pans a magnified world); a press without a move taps (`tap`, a ring where it
// landed), or places a field when one is armed; right click or a long press snaps the selection there;
// two fingers pinch to zoom and pan, as the wheel zooms.
let press = null;   // {pointer, start, last, body, handle, dragging, long, samples, timer}
let handleSentAt = 0;
const HANDLE_REACH = 16;   // CSS px around a handle that grab it (a finger's width)

function bodyAt(pt) {
  const poses = drawnPoses(); let best = null;
  for (const [id, b] of dyn.bodies) {
    const p = poses.get(id); if (!p) continue;
    const c = Math.cos(-p[2]), s = Math.sin(-p[2]), dx = pt.x - p[0], dy = pt.y - p[1];
    const lx = dx * c - dy * s, ly = dx * s + dy * c;
    const inside = b.shape === "ellipse" ? (lx * lx) / (b.width * b.width / 4) + (ly * ly) / (b.height * b.height / 4) <= 1
                                         : Math.abs(lx) <= b.width / 2 && Math.abs(ly) <= b.height / 2;
    if (inside) best = id;
  }
  return best;
}
function handleAt(pt) {
  let best = null, bestD = HANDLE_REACH / scale;
  for (const h of handles()) { const d = Math.hypot(h.x - pt.x, h.y - pt.y); if (d <= bestD) { best = h; bestD = d; } }
  return best;
}
function eventPoint(e) { const r = canvas.getBoundingClientRect(); return toWorld(e.clientX - r.left, e.clientY - r.top); }

function select(id) {
  dyn.selected = id;
  el("selected").textContent = id == null ? "-" : "#" + id;
  el("remove").disabled = id == null;
  renderProps();
}
function snapHere(pt) {
  if (dyn.selected == null) { showError("select an item first (tap or drag it), then snap it"); return; }
  command({ type: "snap", body: dyn.selected, x: pt.x, y: pt.y }, "snap");
}
function moveHandle(h, pt, final) {
  dyn.movingHandle = { kind: h.kind, id: h.id, x: pt.x, y: pt.y };
  const now = performance.now();
  if (!final && now - handleSentAt < 33) return;   // at most ~30 moves a second, like snapshots
  handleSentAt = now;
  const m = h.kind === "anchor" ? { type: "anchor", attachment: h.id, x: pt.x, y: pt.y } : { type: "field", field: h.id, x: pt.x, y: pt.y };
  if (final) command(m, h.kind === "anchor" ? "move anchor" : "move field"); else send(m);
}

const pointers = new Map();   // pointerId -> canvas point (CSS px), for a pinch
let pinch = null;             // {d0, zoom0, mid}
function canvasPoint(e) { const r = canvas.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; }
/// Ends a press without its effect (a second finger came: it is a pinch now).
function abandonPress() {
  if (!press) return;
  clearTimeout(press.timer);
  if (press.dragging) { send({ type: "drag", phase: "end", id: "drag-" + nextID++ }); echoRelease(); }
  if (press.handle) dyn.movingHandle = null;
  press = null;
}

canvas.addEventListener("contextmenu", e => { e.preventDefault(); snapHere(eventPoint(e)); });
canvas.addEventListener("pointerdown", e => {
  if (e.button !== 0) return;
  canvas.setPointerCapture(e.pointerId);
  pointers.set(e.pointerId, canvasPoint(e));
  if (pointers.size === 2) {
    abandonPress();
    const [a, b] = [...pointers.values()];
    pinch = { d0: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), zoom0: view.zoom, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
    return;
  }
  if (pointers.size > 2 || pinch) return;
  const pt = eventPoint(e), handle = handleAt(pt), under = handle ? null : bodyAt(pt);
  if (under != null) select(under);
  press = { pointer: e.pointerId, start: pt, last: pt, at: canvasPoint(e), body: under, handle, dragging: false, long: false, samples: [[performance.now(), pt]] };
  if (handle) { dyn.movingHandle = { kind: handle.kind, id: handle.id, x: handle.x, y: handle.y }; return; }
  press.timer = setTimeout(() => { if (press && !press.dragging && !press.panning && !press.handle) { press.long = true; snapHere(press.start); } }, 550);
});
canvas.addEventListener("pointermove", e => {
  if (pointers.has(e.pointerId)) pointers.set(e.pointerId, canvasPoint(e));
  if (pinch && pointers.size >= 2) {
    // Two fingers: zoom by their spread, pan by their midpoint's travel.
    const [a, b] = [...pointers.values()], mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    zoomAt(mid.x, mid.y, pinch.zoom0 * Math.hypot(a.x - b.x, a.y - b.y) / pinch.d0);
    panBy(mid.x - pinch.mid.x, mid.y - pinch.mid.y);
    pinch.mid = mid;
    return;
  }
  if (!press || e.pointerId !== press.pointer) return;
  const pt = eventPoint(e), at = canvasPoint(e);
  press.last = pt; press.samples.push([performance.now(), pt]); while (press.samples.length > 6) press.samples.shift();
  if (press.handle) { moveHandle(press.handle, pt, false); return; }
  if (press.panning) { panBy(at.x - press.at.x, at.y - press.at.y); press.at = at; return; }
  const far = Math.hypot(pt.x - press.start.x, pt.y - press.start.y) * scale > 6;
  if (!press.dragging && !press.long && far) {
    clearTimeout(press.timer);
    press.moved = true;
    // Empty space: nothing to drag and no drag is sent; a magnified world pans instead.
    if (press.body == null) {
      if (view.zoom > 1.001) { press.panning = true; panBy(at.x - press.at.x, at.y - press.at.y); press.at = at; }
      return;
    }
    press.dragging = true;
    send({ type: "drag", phase: "begin", x: press.start.x, y: press.start.y, body: press.body, id: "drag-" + nextID++ });
    echoBegin(press.body, press.start);
  }
  if (press.dragging) { send({ type: "drag", phase: "move", x: pt.x, y: pt.y }); echoMove(pt); }
});
function release(e) {
  pointers.delete(e.pointerId);
  if (pinch) { if (pointers.size === 0) pinch = null; return; }
  if (!press || e.pointerId !== press.pointer) return;
  clearTimeout(press.timer);
  const p = press; press = null;
  if (p.handle) { moveHandle(p.handle, p.last, true); dyn.movingHandle = null; return; }
  if (p.long || e.type === "pointercancel") { if (p.dragging) { send({ type: "drag", phase: "end", id: "drag-" + nextID++ }); echoRelease(); } return; }
  if (!p.dragging) {
    if (p.moved) return;
    if (fieldArmed()) { placeField(p.start); return; }
    dyn.rings.push({ x: p.start.x, y: p.start.y, at: performance.now() });
    command({ type: "tap", x: p.start.x, y: p.start.y }, "tap");
    return;
  }
  send({ type: "drag", phase: "end", id: "drag-" + nextID++ });
  echoRelease();
  const first = p.samples[0], last = p.samples[p.samples.length - 1], dt = (last[0] - first[0]) / 1000;
  if (dyn.velocityKnown && p.body != null && dt > 0.01) {
    const vx = (last[1].x - first[1].x) / dt, vy = (last[1].y - first[1].y) / dt;
    if (Math.hypot(vx, vy) > 30) command({ type: "velocity", body: p.body, vx, vy, add: false }, "fling");
  }
}
canvas.addEventListener("pointerup", release);
canvas.addEventListener("pointercancel", release);
canvas.addEventListener("wheel", e => {
  e.preventDefault();
  const at = canvasPoint(e);
  zoomAt(at.x, at.y, view.zoom * Math.exp(-e.deltaY * 0.0015));
}, { passive: false });

// ---- keys (not while typing in a field) -----------------------------------------------------------------
document.addEventListener("keydown", e => {
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key;
  if (key === "?") { el("keys").hidden = !el("keys").hidden; resize(); e.preventDefault(); return; }
  if (key === "Tab") {
    const ids = [...dyn.bodies.keys()].sort((a, b) => a - b);
    if (ids.length) {
      const i = ids.indexOf(dyn.selected), n = ids.length;
      select(ids[i < 0 ? (e.shiftKey ? n - 1 : 0) : (i + (e.shiftKey ? n - 1 : 1)) % n]);
    }
    e.preventDefault(); return;
  }
  if (key === "Escape") { select(null); disarmField(); el("keys").hidden = true; return; }
  if (key === "Delete" || key === "Backspace" || key === "x") { removeSelected(); return; }
  if (key === "p") { toggleHold(); return; }
  if (key === ".") { if (dyn.held) command({ type: "step", ticks: 1 }, "step"); return; }
  if (key === "c") { const order = ["everything", "items", "boundaries"]; const next = order[(order.indexOf(el("collision").value) + 1) % 3]; el("collision").value = next; setCollision(next); return; }
  if (key === "g") {
    // As the terminal's g: a quarter turn clockwise from where gravity points, at least magnitude 1.
    const g = (dyn.scene && dyn.scene.gravity) || { dx: 0, dy: 1, magnitude: 0 };
    const a = (g.dx || g.dy ? Math.atan2(g.dy, g.dx) : Math.PI / 2) + Math.PI / 2;
    command({ type: "gravity", angle: a > Math.PI ? a - 2 * Math.PI : a, magnitude: g.magnitude > 0 ? g.magnitude : 1 }, "gravity");
    return;
  }
  if (key === "n") { spawn("rect"); return; }
  if (key === "z") { fitWorld(); return; }
  if (/^[0-9]$/.test(key)) { const i = key === "0" ? 9 : Number(key) - 1; if (SCENES[i]) command({ type: "scene", name: SCENES[i] }, "scene"); return; }
});
