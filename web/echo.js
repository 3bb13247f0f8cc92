"use strict";
// Your own drag without lag (docs/ARCHITECTURE.md, "The page"): while you drag an item it is drawn where
// your pointer is (its grab point under the pointer, at the server's angle) on the next frame, not a round
// trip plus the interpolation delay later. After the release it stays where you let go until the server's
// snapshots confirm the end (the first snapshot without your drag has been played), then eases into the
// server's pose: the offset between the two halves every ECHO_HALF_MS, so the item never jumps.
const ECHO_HALF_MS = 60, ECHO_CONFIRM_LIMIT_MS = 2000;
/// {body, grab: body-local point, pointer: world point while dragging, held: pose after the release,
///  offset: while easing, releasedAt, easingAt}, or body null when there is no echo.
const echo = dyn.echo = { body: null };

/// Starts the echo of a drag of `body` grabbed at world point `pt`.
function echoBegin(body, pt) {
  const p = currentPoses().get(body); if (!p) return;
  const c = Math.cos(-p[2]), s = Math.sin(-p[2]), dx = pt.x - p[0], dy = pt.y - p[1];
  Object.assign(echo, { body, grab: { x: dx * c - dy * s, y: dx * s + dy * c }, pointer: pt, held: null, offset: null });
}
function echoMove(pt) { if (echo.body != null && echo.pointer) echo.pointer = pt; }
/// The drag ended: hold the item where it is drawn until the server confirms.
function echoRelease() {
  if (echo.body == null || !echo.pointer) return;
  echo.held = drawnPoses().get(echo.body) || null;
  echo.pointer = null; echo.releasedAt = performance.now();
  if (!echo.held) echo.body = null;
}

/// The poses to draw now: the server's, interpolated (currentPoses), with your own dragged item replaced
/// by its echo.
function drawnPoses() {
  const poses = currentPoses();
  if (echo.body == null) return poses;
  const p = poses.get(echo.body);
  if (!p) { echo.body = null; return poses; }
  const now = performance.now();
  let x, y, angle = p[2];
  if (echo.pointer) {
    const c = Math.cos(p[2]), s = Math.sin(p[2]);
    x = echo.pointer.x - (echo.grab.x * c - echo.grab.y * s);
    y = echo.pointer.y - (echo.grab.x * s + echo.grab.y * c);
  } else if (!echo.offset) {
    // Confirmed once the first snapshot without this page's drag has arrived and has been played.
    const confirm = history.find(h => h.at > echo.releasedAt && !h.drags.some(d => d.client === dyn.client));
    const played = confirm && now - 1000 / dyn.snapshotHz >= confirm.at;
    if (played || now - echo.releasedAt > ECHO_CONFIRM_LIMIT_MS) {
      echo.offset = { x: echo.held[0] - p[0], y: echo.held[1] - p[1], angle: echo.held[2] - p[2] };
      echo.easingAt = now;
    }
    [x, y, angle] = echo.held;
  }
  if (echo.offset) {
    const k = Math.pow(0.5, (now - echo.easingAt) / ECHO_HALF_MS);
    if (k < 0.01) { echo.body = null; return poses; }
    x = p[0] + echo.offset.x * k; y = p[1] + echo.offset.y * k; angle = p[2] + echo.offset.angle * k;
  }
  const out = new Map(poses);
  out.set(echo.body, [x, y, angle, p[3], p[4]]);
  return out;
}
/// Where the page draws item `id` now (world points), for tests: {x, y, angle, echo: the echo's phase}.
dyn.drawnPose = id => {
  const p = drawnPoses().get(id); if (!p) return null;
  const phase = echo.body !== id ? "none" : echo.pointer ? "dragging" : echo.offset ? "easing" : "held";
  return { x: p[0], y: p[1], angle: p[2], echo: phase };
};
/// Where the server's snapshots, interpolated, put item `id` now (world points), for tests.
dyn.serverPose = id => { const p = currentPoses().get(id); return p ? { x: p[0], y: p[1], angle: p[2] } : null; };
