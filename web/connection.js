"use strict";
// The WebSocket: connect (to the page's room), hello with the page's name, reconnect with backoff while
// showing a banner over the dimmed world, and turn every server message into page state. Commands sent
// with an id remember what they were, so that the answer can say what happened.
let ws = null, backoff = 500, nextID = 1, pingTimer = null, retryAt = 0, bannerTimer = null;
const pending = new Map();   // id -> {type, ...what the answer needs}
const history = [];          // [{at, tick, poses: Map(id -> [x, y, angle, vx, vy]), drags}]
let framePoses = new Map();  // compact frames: the last applied state (deltas apply to it)

function send(message) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(message)); dyn.sent++;
  return true;
}
/// A command the user asked for: it gets an id, its answer clears or shows the error row.
function command(message, what) {
  const id = message.type + "-" + nextID++;
  message.id = id;
  pending.set(id, Object.assign({ type: message.type, what: what || message.type }, message));
  if (!send(message)) { pending.delete(id); showError("not connected: " + (what || message.type) + " not sent"); return null; }
  return id;
}

function setConnection(state) {
  dyn.state = state;
  const c = el("conn"); c.textContent = state === "open" ? "connected" : state; c.className = state;
  setStatusData("state", state);
  const offline = state !== "open";
  el("view").classList.toggle("offline", offline && dyn.everConnected === true);
  el("banner").hidden = !(offline && dyn.everConnected === true);
}

function wsURL() {
  const base = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  return dyn.room === "main" ? base : base + "?room=" + encodeURIComponent(dyn.room);
}

/// hello with the page's name and packed frames (or `?snapshots=full|compact` from the address, for scripts
/// and tests), ?token=T from the address, and `room`: the room this page
/// created, with its room_token (so the page keeps its rights there), or "main" after its room was refused.
/// Then whether this server has rooms: an error answer hides the picker (docs/PROTOCOL.md, rooms).
function sayHello(room) {
  // Packed frames: binary messages of a few bytes per moving body, deltas against what this connection
  // received (docs/PROTOCOL.md, "packed"; web/packed.js decodes them).
  const asked = new URLSearchParams(location.search).get("snapshots");
  const snapshots = asked === "full" || asked === "compact" ? asked : "packed";
  const hello = { type: "hello", name: dyn.name, id: "hello", subscribe: { snapshots, contacts: el("contacts").checked } };
  // A server started with --token (or an admin) lets this page in with ?token=T in its address.
  const token = new URLSearchParams(location.search).get("token");
  if (token) hello.token = token;
  const kept = room === null && dyn.room !== "main" ? roomToken(dyn.room) || new URLSearchParams(location.search).get("room_token") : null;
  if (kept) { hello.room = dyn.room; hello.room_token = kept; } else if (room) hello.room = room;
  send(hello);
  send({ type: "rooms", id: "rooms-probe" });
}

function connect() {
  setConnection("connecting");
  ws = new WebSocket(wsURL());
  ws.binaryType = "arraybuffer";
  ws.onopen = () => {
    packed.base = null; packed.previous = null;
    backoff = 500;
    setConnection("open");
    dyn.everConnected = true;
    dyn.byeReason = null;
    dyn.failuresHere = 0;
    clearInterval(bannerTimer);
    clearError();
    pending.clear();
    sayHello(null);
    clearInterval(pingTimer);
    pingTimer = setInterval(() => send({ type: "ping", t: performance.now() }), 2000);
    send({ type: "ping", t: performance.now() });
  };
  ws.onmessage = event => {
    if (typeof event.data !== "string") { receivePacked(event.data); return; }
    let m = null;
    try { m = JSON.parse(event.data); } catch (e) { return; }
    receive(m);
  };
  ws.onclose = () => {
    clearInterval(pingTimer);
    // A page the fleet redirected here goes back to where it started when this server is gone, so the
    // fleet can send it to the room's new owner (docs/PROTOCOL.md, A fleet of servers).
    const from = new URLSearchParams(location.search).get("from");
    if (from && dyn.everConnected && ++dyn.failuresHere >= 2) { location.href = pageURL(from, dyn.room, 0); return; }
    setConnection("closed");
    el("motion").textContent = "offline"; el("ping").textContent = "-";
    retryAt = performance.now() + backoff;
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);
    clearInterval(bannerTimer);
    const tell = () => {
      const s = Math.max(0, (retryAt - performance.now()) / 1000);
      const why = dyn.byeReason ? "the server said goodbye (" + dyn.byeReason + ")" : "the server is not answering";
      el("bannerText").textContent = why + ": reconnecting" + (s > 0.05 ? " in " + s.toFixed(1) + " s" : "…");
    };
    tell(); bannerTimer = setInterval(tell, 200);
  };
  ws.onerror = () => {};
}

function receive(m) {
  switch (m.type) {
  case "welcome":
    dyn.client = m.client; dyn.world = m.world; dyn.snapshotHz = m.snapshot_hz || 30;
    // A narrow screen sizes the world's area to the world's shape (style.css): no empty band above or below.
    document.documentElement.style.setProperty("--world-aspect", m.world.width + " / " + m.world.height);
    // On a token server the room is joined at the token hello: until then the welcome says main.
    if (typeof m.room === "string" && !m.auth_required) arrivedIn(m.room);
    setStatusData("client", m.client); resize(); break;
  case "scene": applyScene(m); break;
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
  case "ack": acked(m); break;
  case "error": failed(m); break;
  case "notice": showNotice((m.name || "client " + m.client) + " " + (m.summary || m.command)); break;
  case "contact":
    if (m.phase === "began" && m.point) { dyn.flashes.push({ x: m.point.x, y: m.point.y, at: performance.now() }); while (dyn.flashes.length > 64) dyn.flashes.shift(); }
    break;
  case "bye": dyn.byeReason = m.reason; break;
  case "redirect": followRedirect(m); break;
  }
}

/// A `redirect`: the room lives on another server of the fleet; the page goes to that server's page for it,
/// carrying ?token=, the room's token (localStorage is per server), the address it started from, and how
/// many redirects in a row it followed: at most 3, then it stays and says so.
function followRedirect(m) {
  if (typeof m.http !== "string") return;
  const params = new URLSearchParams(location.search);
  const hops = Number(params.get("hops") || 0);
  if (hops >= 3) { showError("room " + m.room + " is on " + m.http + ": not following a 4th redirect in a row"); return; }
  location.href = pageURL(m.http, null, hops + 1, m.room);
}

/// A page address with the parameters that travel with redirects: `base` is a page URL or, with `room`,
/// a server's origin.
function pageURL(base, room, hops, redirectedRoom) {
  const params = new URLSearchParams(location.search);
  const next = new URL(room ? base.replace(/\/$/, "") + roomPath(room) : base);
  const token = params.get("token"); if (token) next.searchParams.set("token", token);
  const name = redirectedRoom || room;
  const kept = name ? roomToken(name) || params.get("room_token") : null;
  if (kept) next.searchParams.set("room_token", kept);
  if (hops > 0) {
    next.searchParams.set("hops", String(hops));
    next.searchParams.set("from", params.get("from") || location.origin);
  }
  return next.toString();
}

/// The room the server put this connection in: another than asked when a join was refused (the error says
/// why, in words), so the address says where the page is and a reload does not ask again.
function arrivedIn(room) {
  // Joined: a redirect that brought the page here ends its row, and its room token is kept for this server.
  const params = new URLSearchParams(location.search);
  if (params.get("room_token") && room !== "main") keepRoomToken(room, params.get("room_token"));
  if (params.has("hops")) { params.delete("hops"); window.history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : "")); }
  if (room !== dyn.room) window.history.replaceState(null, "", roomPath(room) + location.search);
  setRoom(room);
}

function applyScene(m) {
  dyn.scene = m; dyn.bodies = new Map(m.bodies.map(b => [b.id, b]));
  setStatusData("scene", m.name); el("scenes").value = m.name;
  setCaption(m.caption || "");
  el("collision").value = m.collision_mode;
  el("gravity").value = gravityName(m.gravity);
  // A selection the new structure does not have is dropped, never sent again.
  if (dyn.selected != null && !dyn.bodies.has(dyn.selected)) select(null);
  else renderProps();
  // Poses are kept: items the scene no longer lists are not drawn, and the keyframe after a scene replaces
  // them (clearing them here would blink every item on each anchor move, which sends a scene). A room that
  // was just joined counts its ids anew, so what was drawn of the old room goes.
  if (dyn.joining) { dyn.joining = false; history.length = 0; framePoses = new Map(); }
}

function gravityName(g) {
  if (!g || g.magnitude === 0 || (g.dx === 0 && g.dy === 0)) return "off";
  if (Math.abs(g.dx) < 1e-9) return g.dy > 0 ? "down" : "up";
  if (Math.abs(g.dy) < 1e-9) return g.dx > 0 ? "right" : "left";
  return "down";
}

function acked(m) {
  if (m.id === "rooms-probe") { roomsAnswered(true, m.rooms); return; }
  // A join's ack (the page's own, the hello's, or the one without id of /ws?room=NAME): where and what rights.
  if (typeof m.room === "string") {
    arrivedIn(m.room);
    if (typeof m.room_token === "string") keepRoomToken(m.room, m.room_token);
    if (typeof m.admin === "boolean") { dyn.admin = m.admin; setStatusData("admin", m.admin); }
  }
  const asked = pending.get(m.id); pending.delete(m.id);
  if (!asked) return;
  clearError();
  if (typeof m.body === "number" && m.body > 0 && (asked.type === "tap" || asked.type === "spawn")) select(m.body);
  switch (asked.type) {
  case "tap":
    dyn.taps++; setStatusData("taps", dyn.taps);
    showResult("tap pushed #" + m.body); break;
  case "spawn": showResult("spawned #" + m.body); break;
  case "scene": showResult("loaded " + asked.name); break;
  case "remove": showResult("removed #" + asked.body); break;
  case "set": showResult("set #" + asked.body); break;
  case "collision": showResult("collision mode " + asked.mode); break;
  case "gravity": showResult("gravity " + el("gravity").value); break;
  case "field": if (typeof m.field === "number") showResult((asked.kind || "field") + " field #" + m.field); break;
  case "pause": showResult("world held: step moves it one tick, resume lets it run"); break;
  case "resume": showResult("world resumed"); break;
  case "step": showResult("stepped " + asked.ticks + " tick" + (asked.ticks === 1 ? "" : "s")); break;
  case "snap": showResult("snapped #" + asked.body); break;
  case "hello": showResult("you are " + dyn.name); break;
  case "rooms": showRooms(m.rooms || []); break;
  case "join": joined(m.room || asked.room); break;
  case "subscribe": showResult("contacts " + (el("contacts").checked ? "shown" : "hidden")); break;
  default: break;
  }
}

const ROOM_REFUSALS = ["room_limit", "forbidden", "unavailable", "bad_value"];
function failed(m) {
  dyn.lastError = m;
  // Not let in (yet): says nothing about rooms. Anything else: a server without them.
  if (m.id === "rooms-probe") { if (m.code !== "unauthorized") roomsAnswered(false); return; }
  // On a token server the page's room is joined at its hello: refused, the page says why and goes to main.
  if (m.id === "hello" && dyn.room !== "main" && ROOM_REFUSALS.includes(m.code)) {
    showError(errorWords(m, "room " + dyn.room));
    window.history.replaceState(null, "", roomPath("main") + location.search);
    setRoom("main");
    sayHello("main");
    return;
  }
  const asked = m.id != null ? pending.get(m.id) : null;
  if (asked) pending.delete(m.id);
  if (asked && asked.type === "velocity" && m.code === "unknown_type") { dyn.velocityKnown = false; return; }
  if (asked && (asked.type === "rooms" || asked.type === "join") && (m.code === "unknown_type" || m.code === "bad_message")) { roomsAnswered(false); return; }
  // A drag that lost its item (another client removed it, the scene changed) ends quietly.
  if (m.code === "not_dragging") return;
  if (m.code === "unauthorized" && m.id === "hello") { showError("this server needs a token: open the page with ?token=T at the end of its address"); return; }
  if (m.code === "unknown_body" && asked && asked.body === dyn.selected) select(null);
  showError(errorWords(m, asked ? asked.what : null));
}

function record(tick, paused, held, clients, drags, poses) {
  dyn.lastTick = tick; dyn.clients = clients || 0; dyn.held = !!held;
  // "at rest" is the animator's own pause: the tick shown is the one it came to rest at (keep-alive
  // snapshots count on); "held" is a pause command: the tick stands still by itself.
  const motion = held ? "held" : paused ? "at rest" : "running";
  if (motion !== "at rest") dyn.restTick = null; else if (dyn.motion !== "at rest") dyn.restTick = tick;
  dyn.motion = motion;
  el("motion").textContent = motion === "at rest" ? "at rest since tick " + dyn.restTick : motion + " · tick " + tick;
  el("hold").textContent = held ? "resume" : "hold"; el("hold").classList.toggle("on", !!held);
  el("step").disabled = !held;
  el("clients").textContent = clients === undefined ? "-" : clients;
  const s = el("status").dataset; s.tick = tick; s.bodies = poses.size; s.motion = motion;
  history.push({ at: performance.now(), tick, poses, drags: drags || [] });
  while (history.length > 8) history.shift();
}
