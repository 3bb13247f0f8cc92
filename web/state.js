"use strict";
// What the page knows (`window.dyn`, read by tests too), its room and name, and the message row:
// errors in words, shown once and cleared by the next success or a new connection.
const el = id => document.getElementById(id);
const canvas = el("world");
const ctx = canvas.getContext("2d");
const FIELD_KINDS = ["radial_gravity", "vortex", "linear_gravity", "spring", "drag", "velocity", "noise", "turbulence", "electric", "magnetic"];
const SCENES = [];   // the scene picker's names, filled from GET /scenes.json at start (controls.js)
const ROOM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const dyn = window.dyn = {
  state: "connecting", client: null, world: { width: 800, height: 600 }, snapshotHz: 30,
  scene: null, bodies: new Map(), lastTick: 0, clients: 0, ping: null, selected: null,
  taps: 0, frames: 0, lastError: null, velocityKnown: true, motion: "", restTick: null, held: false,
  rings: [], notices: [], flashes: [], room: roomFromPath(), roomsSupported: null, name: storedName(),
  movingHandle: null, sent: 0, admin: null,
};

/// The room this page is for: /r/NAME, else main (docs/PROTOCOL.md, rooms).
function roomFromPath() {
  const m = /^\/r\/([^/?#]+)/.exec(location.pathname);
  const name = m ? decodeURIComponent(m[1]) : "main";
  return ROOM_NAME.test(name) ? name : "main";
}

/// The page's address for a room: `/` for main, else `/r/NAME`.
function roomPath(name) { return name === "main" ? "/" : "/r/" + encodeURIComponent(name); }

/// The `room_token` of a room this page created (kept in localStorage), so that a reload or a reconnect
/// says it in `hello` and is admin there again (docs/PROTOCOL.md, Rooms: rights).
function roomToken(name) {
  try { return localStorage.getItem("dyn.roomToken." + name); } catch (e) { return null; }
}
function keepRoomToken(name, token) {
  try { localStorage.setItem("dyn.roomToken." + name, token); } catch (e) { /* private mode: rights last this visit */ }
}

/// The name others see: set once by the user and kept in localStorage, else a random web-xxxx kept as well.
function storedName() {
  let name = null;
  try { name = localStorage.getItem("dyn.name"); } catch (e) { name = null; }
  if (!name) {
    name = "web-" + Math.random().toString(36).slice(2, 6);
    try { localStorage.setItem("dyn.name", name); } catch (e) { /* private mode: the name lasts this visit */ }
  }
  return name;
}

// ---- the message row ----------------------------------------------------------------------------------
let resultTimer = null;
function showError(text) {
  el("error").textContent = text; el("result").textContent = "";
}
function clearError() { el("error").textContent = ""; dyn.lastError = null; }
function showResult(text) {
  clearError();
  el("result").textContent = text;
  clearTimeout(resultTimer);
  resultTimer = setTimeout(() => { el("result").textContent = ""; }, 2500);
}
function showNotice(text) {
  const at = performance.now();
  dyn.notices.push({ text, at });
  while (dyn.notices.length > 3) dyn.notices.shift();
  renderNotices();
  setTimeout(() => { dyn.notices = dyn.notices.filter(n => n.at !== at); renderNotices(); }, 6000);
}
function renderNotices() { el("notices").textContent = dyn.notices.map(n => "› " + n.text).join("   "); }

/// An error in words: what the protocol's code means for someone using the page.
function errorWords(m, what) {
  const message = m.message || "";
  switch (m.code) {
  case "unknown_body": return "that item is gone (removed, or the scene changed)";
  case "no_body": return "there is no item there";
  case "forbidden":
    // No token helps in a room that plays a recording (docs/PROTOCOL.md, Replay).
    if (/plays a recording/.test(message)) return (what ? what + ": " : "") + "read-only: replay (this room plays a recording: watch it)";
    return (what ? what + ": " : "") + "only an admin may do that here (open the page with ?token=ADMIN)";
  case "unauthorized": return "this server needs a token";
  case "rate_limited": return "too many commands at once: slow down a little";
  case "bad_value": return (what ? what + ": " : "") + "not accepted (" + message + ")";
  case "room_limit": return "no room for another room on this server";
  case "server_full": return "the server is full";
  default: return (what ? what + ": " : "") + (message || m.code);
  }
}

function setStatusData(key, value) { el("status").dataset[key] = value; }

/// Words for the pointer in use: on a coarse pointer (a finger) the help and the caption say tap, long press
/// and pinch, never click, right click, wheel or keys; they follow a change (a tablet's keyboard and mouse).
const COARSE = window.matchMedia("(pointer: coarse)");
const HELP_FINE = "tap: push toward the point · drag an item: move it, let go to fling · drag a ◯ handle: move an anchor or field · long press / right click: snap the selection there · pinch / wheel: zoom · ? keys";
const HELP_TOUCH = "tap: push toward the point · drag an item: move it, let go to fling · drag a ◯ handle: move an anchor or field · long press: snap the selection there · pinch: zoom";
function touchWords(text) {
  return text.replace(/\s*\((?:or )?[^()]*\bat the cursor\)/g, "").replace(/, or Tab\b/g, "")
    .replace(/\bright[- ]click(?:s|ed|ing)? or long press\b/gi, "long press").replace(/\bright[- ]click\b/gi, "long press")
    .replace(/\b([Cc])lick(s|ed|ing)?\b/g, (_, c, end) => (c === "C" ? "T" : "t") + ({ s: "aps", ed: "apped", ing: "apping" }[end] || "ap"))
    .replace(/\b(?:mouse )?wheel\b/g, "pinch");
}
function setCaption(text) {
  dyn.caption = text;
  el("caption").textContent = COARSE.matches ? touchWords(text) : text;
}
function applyPointerWords() {
  el("help").textContent = COARSE.matches ? HELP_TOUCH : HELP_FINE;
  setCaption(dyn.caption || "");
  setStatusData("pointer", COARSE.matches ? "coarse" : "fine");
}
COARSE.addEventListener("change", applyPointerWords);
