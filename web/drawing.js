"use strict";
// The world on the canvas: fitted to the canvas (world points <-> page pixels), interpolated one
// snapshot period behind the newest, with boundaries, fields and attachments with their handles, snaps,
// items (the selection outlined), drags with names, tap rings and contact flashes.
let scale = 1, offX = 0, offY = 0, viewW = 0, viewH = 0;
const RING_MS = 900, RING_RADIUS = 18, RING_COLOR = "#5fffff", HANDLE_RADIUS = 7, MAX_ZOOM = 5;
/// The view: zoom 1 fits the whole world in the canvas; above 1 it is magnified and panned (pinch, wheel,
/// dragging empty space), never past the world's edges.
const view = dyn.view = { zoom: 1, panX: 0, panY: 0 };
function resize() {
  const r = el("view").getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  viewW = Math.max(1, r.width); viewH = Math.max(1, r.height);
  canvas.width = Math.round(viewW * dpr); canvas.height = Math.round(viewH * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  place();
  paint();
}
/// Scale and offsets from the zoom and pan: centred along an axis where the world is smaller than the
/// canvas, else kept covering it.
function place() {
  scale = Math.min(viewW / dyn.world.width, viewH / dyn.world.height) * 0.98 * view.zoom;
  const w = dyn.world.width * scale, h = dyn.world.height * scale;
  const fit = (size, span, pan) => size <= span ? [(span - size) / 2, 0] : (() => {
    const o = Math.min(0, Math.max(span - size, (span - size) / 2 + pan)); return [o, o - (span - size) / 2]; })();
  [offX, view.panX] = fit(w, viewW, view.panX);
  [offY, view.panY] = fit(h, viewH, view.panY);
  el("fit").disabled = view.zoom <= 1.001;
}
/// Zooms to `zoom` keeping the world point under canvas point (px, py) where it is.
function zoomAt(px, py, zoom) {
  const at = toWorld(px, py);
  view.zoom = Math.min(MAX_ZOOM, Math.max(1, zoom));
  const base = Math.min(viewW / dyn.world.width, viewH / dyn.world.height) * 0.98 * view.zoom;
  view.panX = px - at.x * base - (viewW - dyn.world.width * base) / 2;
  view.panY = py - at.y * base - (viewH - dyn.world.height * base) / 2;
  place();
}
function panBy(dx, dy) { view.panX += dx; view.panY += dy; place(); }
function fitWorld() { view.zoom = 1; view.panX = 0; view.panY = 0; place(); }
window.addEventListener("resize", resize);
if (window.ResizeObserver) new ResizeObserver(resize).observe(el("view"));
function toWorld(px, py) { return { x: (px - offX) / scale, y: (py - offY) / scale }; }
/// A world point in page coordinates (what a synthesized click needs).
function toScreen(x, y) { const r = canvas.getBoundingClientRect(); return { x: x * scale + offX + r.left, y: y * scale + offY + r.top }; }
dyn.screenPointOf = id => { const p = drawnPoses().get(id); return p ? toScreen(p[0], p[1]) : null; };
dyn.toScreen = toScreen;
/// The world's rectangle on the page, in CSS pixels.
dyn.worldRect = () => { const a = toScreen(0, 0), b = toScreen(dyn.world.width, dyn.world.height); return { left: a.x, top: a.y, width: b.x - a.x, height: b.y - a.y }; };

function currentPoses() {
  if (history.length === 0) return new Map();
  if (history.length === 1) return history[0].poses;
  const t = performance.now() - 1000 / dyn.snapshotHz;
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

/// Every handle a pointer can move: attachments' anchors and fields, where they are drawn now.
function handles() {
  const out = [];
  const scene = dyn.scene; if (!scene) return out;
  for (const a of scene.attachments || []) if (a.anchor && a.id != null) out.push({ kind: "anchor", id: a.id, x: a.anchor.x, y: a.anchor.y });
  for (const f of scene.fields || []) out.push({ kind: "field", id: f.id, x: f.x, y: f.y });
  const moving = dyn.movingHandle;
  if (moving) for (const h of out) if (h.kind === moving.kind && h.id === moving.id) { h.x = moving.x; h.y = moving.y; }
  return out;
}
dyn.handles = handles;

function shapePath(b) {
  ctx.beginPath();
  if (b.shape === "ellipse") ctx.ellipse(0, 0, b.width / 2, b.height / 2, 0, 0, 2 * Math.PI);
  else if (b.shape === "polygon" && b.points) { b.points.forEach(([x, y], i) => i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)); ctx.closePath(); }
  else ctx.rect(-b.width / 2, -b.height / 2, b.width, b.height);
}

/// One frame of the display loop.
function draw() { paint(); requestAnimationFrame(draw); }

/// Draws the world as it is now (also right after a resize, which clears the canvas).
function paint() {
  dyn.frames++;
  const now = performance.now();
  ctx.save(); ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.fillStyle = "#14161a"; ctx.fillRect(0, 0, canvas.width, canvas.height); ctx.restore();
  ctx.save();
  ctx.translate(offX, offY); ctx.scale(scale, scale);
  ctx.fillStyle = "#1b1e24"; ctx.fillRect(0, 0, dyn.world.width, dyn.world.height);
  ctx.lineWidth = 2 / scale; ctx.strokeStyle = "#4a5160"; ctx.strokeRect(0, 0, dyn.world.width, dyn.world.height);
  const scene = dyn.scene, poses = drawnPoses();
  if (scene) {
    ctx.strokeStyle = "#8fa3bf"; ctx.lineWidth = 3 / scale;
    for (const bd of scene.boundaries || []) {
      ctx.beginPath(); bd.points.forEach(([x, y], i) => i ? ctx.lineTo(x, y) : ctx.moveTo(x, y));
      if (bd.closed) ctx.closePath(); ctx.stroke();
    }
    const hs = handles();
    for (const f of scene.fields || []) {
      const h = hs.find(h => h.kind === "field" && h.id === f.id) || f, g = f.region || {};
      ctx.strokeStyle = "rgba(120,170,255,0.5)"; ctx.lineWidth = 1.5 / scale; ctx.setLineDash([6 / scale, 6 / scale]); ctx.beginPath();
      if (g.width && g.height) ctx.rect(h.x - g.width / 2, h.y - g.height / 2, g.width, g.height);
      else if (g.radius) ctx.arc(h.x, h.y, g.radius, 0, 2 * Math.PI);
      ctx.stroke(); ctx.setLineDash([]);
      ctx.fillStyle = "rgba(150,190,255,0.9)"; ctx.font = (12 / scale) + "px system-ui";
      ctx.fillText((f.kind || "field").replace("_", " ") + " #" + f.id, h.x + 10 / scale, h.y - 10 / scale);
    }
    for (const [id, b] of dyn.bodies) {
      const p = poses.get(id); if (!p) continue;
      ctx.save(); ctx.translate(p[0], p[1]); ctx.rotate(p[2]);
      shapePath(b); ctx.fillStyle = b.color || "#888"; ctx.fill();
      if (b.anchored) { ctx.lineWidth = 2 / scale; ctx.strokeStyle = "rgba(255,255,255,0.35)"; ctx.setLineDash([4 / scale, 3 / scale]); ctx.stroke(); ctx.setLineDash([]); }
      // The selection: a white outline and a dark one inside it, visible on any colour.
      if (id === dyn.selected) { ctx.lineWidth = 4 / scale; ctx.strokeStyle = "#ffffff"; ctx.stroke(); ctx.lineWidth = 1.5 / scale; ctx.strokeStyle = "#000000"; ctx.stroke(); }
      else { ctx.lineWidth = 1 / scale; ctx.strokeStyle = "rgba(0,0,0,0.45)"; ctx.stroke(); }
      ctx.restore();
    }
    ctx.lineWidth = 1.5 / scale;
    for (const a of scene.attachments || []) {
      const from = itemPoint(poses, a.body, a.offset); if (!from) continue;
      const h = a.anchor && a.id != null ? hs.find(h => h.kind === "anchor" && h.id === a.id) : null;
      const to = h || a.anchor || itemPoint(poses, a.to_body, a.to_offset); if (!to) continue;
      ctx.strokeStyle = "#e0b85a"; ctx.beginPath(); ctx.moveTo(from.x, from.y); ctx.lineTo(to.x, to.y); ctx.stroke();
    }
    for (const h of hs) {
      // A handle: a ring a finger can find, filled while it moves.
      const moving = dyn.movingHandle && dyn.movingHandle.kind === h.kind && dyn.movingHandle.id === h.id;
      ctx.beginPath(); ctx.arc(h.x, h.y, HANDLE_RADIUS / scale, 0, 2 * Math.PI);
      ctx.fillStyle = moving ? (h.kind === "anchor" ? "#e0b85a" : "#8fb4ff") : "rgba(20,22,26,0.85)"; ctx.fill();
      ctx.lineWidth = 2.5 / scale; ctx.strokeStyle = h.kind === "anchor" ? "#e0b85a" : "#8fb4ff"; ctx.stroke();
    }
    for (const s of scene.snaps || []) {
      const p = poses.get(s.body); if (!p) continue;
      ctx.strokeStyle = "#6fcf7f"; ctx.lineWidth = 1.5 / scale; ctx.setLineDash([4 / scale, 4 / scale]);
      ctx.beginPath(); ctx.moveTo(p[0], p[1]); ctx.lineTo(s.point.x, s.point.y); ctx.stroke(); ctx.setLineDash([]);
      ctx.beginPath(); ctx.moveTo(s.point.x - 6 / scale, s.point.y); ctx.lineTo(s.point.x + 6 / scale, s.point.y);
      ctx.moveTo(s.point.x, s.point.y - 6 / scale); ctx.lineTo(s.point.x, s.point.y + 6 / scale); ctx.stroke();
    }
  }
  const newest = history[history.length - 1];
  for (const d of newest ? newest.drags : []) {
    const grab = itemPoint(poses, d.body, d.offset) || { x: d.x, y: d.y };
    const mine = d.client === dyn.client;
    // Your own drag's pointer is where your pointer is now, not where the server last saw it.
    const at = mine && echo.pointer ? echo.pointer : d;
    ctx.strokeStyle = mine ? "#ffffff" : "#ff7ab8"; ctx.lineWidth = 2 / scale;
    ctx.beginPath(); ctx.moveTo(grab.x, grab.y); ctx.lineTo(at.x, at.y); ctx.stroke();
    ctx.beginPath(); ctx.arc(at.x, at.y, 6 / scale, 0, 2 * Math.PI); ctx.stroke();
    ctx.fillStyle = ctx.strokeStyle; ctx.font = (12 / scale) + "px system-ui";
    ctx.fillText(d.name || ("client " + d.client), at.x + 8 / scale, at.y - 8 / scale);
  }
  dyn.rings = dyn.rings.filter(r => now - r.at < RING_MS);
  for (const r of dyn.rings) {
    // Where a tap landed: a solid ring, fading only in its last third.
    const age = (now - r.at) / RING_MS;
    ctx.globalAlpha = age < 0.66 ? 1 : Math.max(0, (1 - age) * 3);
    ctx.strokeStyle = RING_COLOR; ctx.lineWidth = 3 / scale;
    ctx.beginPath(); ctx.arc(r.x, r.y, RING_RADIUS, 0, 2 * Math.PI); ctx.stroke();
    ctx.beginPath(); ctx.arc(r.x, r.y, 2 / scale, 0, 2 * Math.PI); ctx.fillStyle = RING_COLOR; ctx.fill();
    ctx.globalAlpha = 1;
  }
  dyn.flashes = dyn.flashes.filter(f => now - f.at < 300);
  ctx.fillStyle = "#ff8700";
  for (const f of dyn.flashes) { ctx.beginPath(); ctx.arc(f.x, f.y, 4 / scale, 0, 2 * Math.PI); ctx.fill(); }
  ctx.restore();
}
