/// The browser client served at `GET /`: one self-contained page (HTML, CSS and JavaScript inline; no CDN,
/// no build step) that joins the same world over `GET /ws` with the same commands as any other client.
///
/// What it guarantees to people: the world drawn on a canvas at the display's frame rate, interpolated
/// between snapshots (full snapshots or compact frames), with boundaries, attachments and their anchors,
/// snaps, fields and every client's drag with its name; click or touch = `tap`, press and move = `drag`
/// (release flings with `velocity` when the server knows the command), right click or long press = `snap`
/// of the selected item; a status bar (connection, scene, clients, tick, ping), a scene picker, and
/// reconnection with backoff. For tests and curious people, `window.dyn` exposes the page's state and
/// `#status` carries it as `data-*` attributes.
enum WebPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no">
<title>dyn</title>
<style>
  html, body { margin: 0; height: 100%; background: #14161a; color: #d8dde6; font: 13px/1.4 system-ui, sans-serif; overflow: hidden; }
  #bar { position: fixed; left: 0; right: 0; top: 0; height: 30px; display: flex; gap: 14px; align-items: center;
         padding: 0 10px; background: #1e2127; border-bottom: 1px solid #2c3038; white-space: nowrap; }
  #bar b { color: #8fa3bf; font-weight: 500; margin-right: 3px; }
  #conn.open { color: #6fcf7f; } #conn.connecting { color: #e0b85a; } #conn.closed { color: #e06a5a; }
  #msg { margin-left: auto; color: #e0b85a; overflow: hidden; text-overflow: ellipsis; }
  select { background: #2a2e36; color: #d8dde6; border: 1px solid #3a3f49; border-radius: 3px; }
  canvas { position: fixed; left: 0; top: 31px; touch-action: none; cursor: crosshair; }
  #help { position: fixed; right: 10px; bottom: 8px; color: #6b7383; font-size: 12px; pointer-events: none; }
</style>
</head>
<body>
<div id="bar">
  <span id="status" data-state="connecting" data-bodies="0" data-tick="0" data-client="" data-scene="" data-taps="0">
    <span id="conn" class="connecting">connecting</span></span>
  <span><b>scene</b><select id="scenes"></select></span>
  <span><b>clients</b><span id="clients">-</span></span>
  <span><b>tick</b><span id="tick">-</span></span>
  <span><b>ping</b><span id="ping">-</span></span>
  <span><b>selected</b><span id="selected">-</span></span>
  <span id="msg"></span>
</div>
<canvas id="world"></canvas>
<div id="help">click: tap &middot; press and move: drag (release flings) &middot; right click / long press: snap the selected item there</div>
<script>
"use strict";
const SCENES = \#(sceneNamesJSON);
const canvas = document.getElementById("world");
const ctx = canvas.getContext("2d");
const el = id => document.getElementById(id);
const dyn = window.dyn = {
  state: "connecting", client: null, world: { width: 800, height: 600 }, snapshotHz: 30,
  scene: null, bodies: new Map(), snaps: [], lastTick: 0, clients: 0, ping: null, selected: null,
  taps: 0, frames: 0, lastError: null, velocityKnown: true,
};
let ws = null, backoff = 500, nextID = 1, pingTimer = null;
const history = [];        // [{at, tick, poses: Map(id -> [x, y, angle]), drags, paused}]
let framePoses = new Map();  // compact frames: the last applied state (deltas apply to it)

function setStatus(state) {
  dyn.state = state;
  const c = el("conn"); c.textContent = state; c.className = state;
  el("status").dataset.state = state;
}
function note(text) { el("msg").textContent = text; }
for (const name of SCENES) { const o = document.createElement("option"); o.value = o.textContent = name; el("scenes").appendChild(o); }
el("scenes").addEventListener("change", e => send({ type: "scene", name: e.target.value, id: "scene-" + nextID++ }));

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return true; }
  return false;
}

function connect() {
  setStatus("connecting");
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  ws = new WebSocket(url);
  ws.onopen = () => {
    backoff = 500;
    setStatus("open");
    // Compact frames: positions only, deltas against what this connection received (docs/PROTOCOL.md).
    send({ type: "hello", name: "web-" + Math.random().toString(36).slice(2, 6), id: "hello", subscribe: { snapshots: "compact" } });
    clearInterval(pingTimer);
    pingTimer = setInterval(() => send({ type: "ping", t: performance.now() }), 2000);
    send({ type: "ping", t: performance.now() });
  };
  ws.onmessage = event => { try { receive(JSON.parse(event.data)); } catch (e) { note("bad message: " + e); } };
  ws.onclose = () => {
    clearInterval(pingTimer);
    setStatus("closed");
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);
  };
  ws.onerror = () => {};
}

function receive(m) {
  switch (m.type) {
  case "welcome":
    dyn.client = m.client; dyn.world = m.world; dyn.snapshotHz = m.snapshot_hz || 30;
    el("status").dataset.client = m.client; resize(); break;
  case "scene":
    dyn.scene = m; dyn.bodies = new Map(m.bodies.map(b => [b.id, b]));
    el("status").dataset.scene = m.name; el("scenes").value = m.name;
    history.length = 0; framePoses = new Map(); break;
  case "snapshot":
    record(m.tick, m.paused, m.held, m.clients, m.drags, new Map(m.bodies.map(b => [b.id, [b.x, b.y, b.angle, b.vx || 0, b.vy || 0]]))); break;
  case "frame": {
    if (m.base === null || m.base === undefined) framePoses = new Map();
    else framePoses = new Map(framePoses);
    for (const [id, x, y, a] of m.bodies) framePoses.set(id, [x / 100, y / 100, a / 1000, 0, 0]);
    for (const id of framePoses.keys()) if (!dyn.bodies.has(id)) framePoses.delete(id);
    record(m.tick, m.paused, m.held, m.clients, m.drags, framePoses); break;
  }
  case "pong":
    if (typeof m.t === "number") { dyn.ping = performance.now() - m.t; el("ping").textContent = dyn.ping.toFixed(1) + " ms"; }
    break;
  case "ack":
    if (typeof m.body === "number" && m.body > 0) { dyn.selected = m.body; el("selected").textContent = m.body; }
    if (typeof m.id === "string" && m.id.startsWith("tap-")) { dyn.taps++; el("status").dataset.taps = dyn.taps; }
    break;
  case "error":
    dyn.lastError = m;
    if (m.code === "unknown_type" && String(m.id || "").startsWith("fling-")) { dyn.velocityKnown = false; break; }
    note(m.code + ": " + m.message); break;
  case "notice": note((m.name || "client " + m.client) + ": " + (m.summary || m.command)); break;
  case "bye": note("server: " + m.reason); break;
  case "redirect": note("room " + m.room + " is on another server: following"); location.href = m.http; break;
  }
}

function record(tick, paused, held, clients, drags, poses) {
  dyn.lastTick = tick; dyn.clients = clients || 0;
  el("tick").textContent = tick + (held ? " (held)" : paused ? " (at rest)" : "");
  el("clients").textContent = clients === undefined ? "-" : clients;
  const s = el("status").dataset; s.tick = tick; s.bodies = poses.size;
  history.push({ at: performance.now(), tick, poses, drags: drags || [] });
  while (history.length > 8) history.shift();
}

// ---- view: world points <-> canvas pixels -------------------------------------------------------------
let scale = 1, offX = 0, offY = 0;
function resize() {
  const w = window.innerWidth, h = window.innerHeight - 31, dpr = window.devicePixelRatio || 1;
  canvas.style.width = w + "px"; canvas.style.height = h + "px";
  canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
  scale = Math.min(w / dyn.world.width, h / dyn.world.height) * 0.96;
  offX = (w - dyn.world.width * scale) / 2; offY = (h - dyn.world.height * scale) / 2;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
}
window.addEventListener("resize", resize);
function toWorld(px, py) { return { x: (px - offX) / scale, y: (py - offY) / scale }; }
function toScreen(x, y) { return { x: x * scale + offX, y: y * scale + offY + 31 }; }  // page coordinates
dyn.screenPointOf = id => { const p = currentPoses().get(id); return p ? toScreen(p[0], p[1]) : null; };

// ---- interpolation: draw one snapshot period behind the newest ----------------------------------------
function currentPoses() {
  if (history.length === 0) return new Map();
  if (history.length === 1) return history[0].poses;
  const delay = 1000 / dyn.snapshotHz;
  const t = performance.now() - delay;
  let i = history.length - 1;
  while (i > 0 && history[i - 1].at > t) i--;
  if (i === 0) return history[0].poses;
  const a = history[i - 1], b = history[i];
  const f = Math.max(0, Math.min(1, (t - a.at) / Math.max(1, b.at - a.at)));
  const out = new Map();
  for (const [id, pb] of b.poses) {
    const pa = a.poses.get(id);
    if (!pa) { out.set(id, pb); continue; }
    let da = pb[2] - pa[2];
    if (da > Math.PI) da -= 2 * Math.PI; else if (da < -Math.PI) da += 2 * Math.PI;
    out.set(id, [pa[0] + (pb[0] - pa[0]) * f, pa[1] + (pb[1] - pa[1]) * f, pa[2] + da * f, pb[3], pb[4]]);
  }
  return out;
}

function itemPoint(poses, id, offset) {
  const p = poses.get(id); if (!p) return null;
  const o = offset || { x: 0, y: 0 }, c = Math.cos(p[2]), s = Math.sin(p[2]);
  return { x: p[0] + o.x * c - o.y * s, y: p[1] + o.x * s + o.y * c };
}

function shapePath(b) {
  ctx.beginPath();
  if (b.shape === "ellipse") ctx.ellipse(0, 0, b.width / 2, b.height / 2, 0, 0, 2 * Math.PI);
  else if (b.shape === "polygon" && b.points) { b.points.forEach(([x, y], i) => i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)); ctx.closePath(); }
  else ctx.rect(-b.width / 2, -b.height / 2, b.width, b.height);
}

function draw() {
  dyn.frames++;
  const w = canvas.width, h = canvas.height;
  ctx.save(); ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.fillStyle = "#14161a"; ctx.fillRect(0, 0, w, h); ctx.restore();
  ctx.save();
  ctx.translate(offX, offY); ctx.scale(scale, scale);
  ctx.fillStyle = "#1b1e24"; ctx.fillRect(0, 0, dyn.world.width, dyn.world.height);
  ctx.lineWidth = 2 / scale; ctx.strokeStyle = "#4a5160"; ctx.strokeRect(0, 0, dyn.world.width, dyn.world.height);
  const scene = dyn.scene, poses = currentPoses();
  if (scene) {
    ctx.strokeStyle = "#8fa3bf"; ctx.lineWidth = 3 / scale;
    for (const bd of scene.boundaries || []) {
      ctx.beginPath(); bd.points.forEach(([x, y], i) => i ? ctx.lineTo(x, y) : ctx.moveTo(x, y));
      if (bd.closed) ctx.closePath(); ctx.stroke();
    }
    for (const f of scene.fields || []) {
      // The region when it has one (a circle or a rectangle centred on the field), else a small marker.
      const g = f.region || {};
      ctx.strokeStyle = "rgba(120,170,255,0.5)"; ctx.setLineDash([6 / scale, 6 / scale]); ctx.beginPath();
      if (g.width && g.height) ctx.rect(f.x - g.width / 2, f.y - g.height / 2, g.width, g.height);
      else ctx.arc(f.x, f.y, g.radius || 40, 0, 2 * Math.PI);
      ctx.stroke(); ctx.setLineDash([]);
      ctx.fillStyle = "rgba(120,170,255,0.8)"; ctx.font = (12 / scale) + "px system-ui"; ctx.fillText(f.kind || "field", f.x + 4 / scale, f.y - 4 / scale);
    }
    for (const [id, b] of dyn.bodies) {
      const p = poses.get(id); if (!p) continue;
      ctx.save(); ctx.translate(p[0], p[1]); ctx.rotate(p[2]);
      shapePath(b); ctx.fillStyle = b.color || "#888"; ctx.fill();
      ctx.lineWidth = (id === dyn.selected ? 3 : 1) / scale; ctx.strokeStyle = id === dyn.selected ? "#ffffff" : "rgba(0,0,0,0.45)"; ctx.stroke();
      ctx.restore();
    }
    ctx.lineWidth = 1.5 / scale;
    for (const a of scene.attachments || []) {
      const from = itemPoint(poses, a.body, a.offset); if (!from) continue;
      const to = a.anchor ? a.anchor : itemPoint(poses, a.to_body, a.to_offset); if (!to) continue;
      ctx.strokeStyle = "#e0b85a"; ctx.beginPath(); ctx.moveTo(from.x, from.y); ctx.lineTo(to.x, to.y); ctx.stroke();
      ctx.fillStyle = "#e0b85a"; ctx.beginPath(); ctx.arc(to.x, to.y, 4 / scale, 0, 2 * Math.PI); ctx.fill();
    }
    for (const s of scene.snaps || []) {
      const p = poses.get(s.body); if (!p) continue;
      ctx.strokeStyle = "#6fcf7f"; ctx.setLineDash([4 / scale, 4 / scale]);
      ctx.beginPath(); ctx.moveTo(p[0], p[1]); ctx.lineTo(s.point.x, s.point.y); ctx.stroke(); ctx.setLineDash([]);
      ctx.beginPath(); ctx.arc(s.point.x, s.point.y, 5 / scale, 0, 2 * Math.PI); ctx.stroke();
    }
  }
  const newest = history[history.length - 1];
  for (const d of newest ? newest.drags : []) {
    const grab = itemPoint(poses, d.body, d.offset) || { x: d.x, y: d.y };
    const mine = d.client === dyn.client;
    ctx.strokeStyle = mine ? "#ffffff" : "#ff7ab8"; ctx.lineWidth = 2 / scale;
    ctx.beginPath(); ctx.moveTo(grab.x, grab.y); ctx.lineTo(d.x, d.y); ctx.stroke();
    ctx.beginPath(); ctx.arc(d.x, d.y, 6 / scale, 0, 2 * Math.PI); ctx.stroke();
    ctx.fillStyle = ctx.strokeStyle; ctx.font = (12 / scale) + "px system-ui";
    ctx.fillText(d.name || ("client " + d.client), d.x + 8 / scale, d.y - 8 / scale);
  }
  ctx.restore();
  requestAnimationFrame(draw);
}

// ---- input: tap, drag (fling on release), snap --------------------------------------------------------
let press = null;   // {id, x, y, t, moved, dragging, samples, timer}
function bodyAt(pt) {
  const poses = currentPoses(); let best = null;
  for (const [id, b] of dyn.bodies) {
    const p = poses.get(id); if (!p) continue;
    const c = Math.cos(-p[2]), s = Math.sin(-p[2]), dx = pt.x - p[0], dy = pt.y - p[1];
    const lx = dx * c - dy * s, ly = dx * s + dy * c;
    if (Math.abs(lx) <= b.width / 2 && Math.abs(ly) <= b.height / 2) best = id;
  }
  return best;
}
function eventPoint(e) { const r = canvas.getBoundingClientRect(); return toWorld(e.clientX - r.left, e.clientY - r.top); }
function snapHere(pt) {
  if (dyn.selected == null) { note("tap or drag an item first to select it"); return; }
  send({ type: "snap", body: dyn.selected, x: pt.x, y: pt.y, id: "snap-" + nextID++ });
}
canvas.addEventListener("contextmenu", e => { e.preventDefault(); snapHere(eventPoint(e)); });
canvas.addEventListener("pointerdown", e => {
  if (e.button !== 0) return;
  canvas.setPointerCapture(e.pointerId);
  const pt = eventPoint(e), under = bodyAt(pt);
  if (under != null) { dyn.selected = under; el("selected").textContent = under; }
  press = { pointer: e.pointerId, start: pt, last: pt, t: performance.now(), dragging: false, long: false, samples: [[performance.now(), pt]] };
  press.timer = setTimeout(() => { if (press && !press.dragging) { press.long = true; snapHere(press.start); } }, 550);
});
canvas.addEventListener("pointermove", e => {
  if (!press || e.pointerId !== press.pointer) return;
  const pt = eventPoint(e);
  press.last = pt; press.samples.push([performance.now(), pt]); while (press.samples.length > 6) press.samples.shift();
  if (!press.dragging && !press.long && Math.hypot(pt.x - press.start.x, pt.y - press.start.y) * scale > 6) {
    clearTimeout(press.timer); press.dragging = true;
    send({ type: "drag", phase: "begin", x: press.start.x, y: press.start.y, id: "drag-" + nextID++ });
  }
  if (press.dragging) send({ type: "drag", phase: "move", x: pt.x, y: pt.y });
});
function release(e) {
  if (!press || e.pointerId !== press.pointer) return;
  clearTimeout(press.timer);
  const p = press; press = null;
  if (p.long) return;
  if (!p.dragging) { send({ type: "tap", x: p.start.x, y: p.start.y, id: "tap-" + nextID++ }); return; }
  send({ type: "drag", phase: "end", id: "drag-" + nextID++ });
  const first = p.samples[0], last = p.samples[p.samples.length - 1], dt = (last[0] - first[0]) / 1000;
  if (dyn.velocityKnown && dyn.selected != null && dt > 0.01) {
    const vx = (last[1].x - first[1].x) / dt, vy = (last[1].y - first[1].y) / dt;
    if (Math.hypot(vx, vy) > 30) send({ type: "velocity", body: dyn.selected, vx, vy, add: false, id: "fling-" + nextID++ });
  }
}
canvas.addEventListener("pointerup", release);
canvas.addEventListener("pointercancel", release);

resize();
connect();
requestAnimationFrame(draw);
</script>
</body>
</html>
"""#

    /// The scene picker's entries, as a JSON array.
    static var sceneNamesJSON: String {
        "[" + Scenes.names.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
