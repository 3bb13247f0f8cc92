"use strict";
// The bar's and the side's controls: scene picker, rooms (hidden when the server has none), name, spawn,
// remove, hold/step, collision mode, gravity, fields, contacts, and the property panel, whose edits
// send `set`. Then the page starts: layout, connection, drawing.
el("scenes").addEventListener("change", e => command({ type: "scene", name: e.target.value }, "scene"));
for (const kind of FIELD_KINDS) { const o = document.createElement("option"); o.value = kind; o.textContent = kind.replace("_", " "); el("fieldKind").appendChild(o); }

function spawn(shape) {
  const w = dyn.world, size = shape === "ellipse" ? 40 : 50;
  const x = w.width / 2 + (Math.random() - 0.5) * w.width * 0.4, y = Math.min(w.height / 2, 80 + Math.random() * 40);
  command({ type: "spawn", shape, width: size, height: size, x, y }, "spawn");
}
function removeSelected() {
  if (dyn.selected == null) { showError("select an item first (tap it, or Tab)"); return; }
  command({ type: "remove", body: dyn.selected }, "remove");
}
function toggleHold() { command({ type: dyn.held ? "resume" : "pause" }, dyn.held ? "resume" : "hold"); }
function setCollision(mode) { command({ type: "collision", mode }, "collision mode"); }
const GRAVITY = { down: [0, 1], up: [0, -1], left: [-1, 0], right: [1, 0] };
function setGravity(name) {
  const magnitude = dyn.scene && dyn.scene.gravity && dyn.scene.gravity.magnitude > 0 ? dyn.scene.gravity.magnitude : 1;
  if (name === "off") command({ type: "gravity", magnitude: 0 }, "gravity");
  else command({ type: "gravity", dx: GRAVITY[name][0] * magnitude, dy: GRAVITY[name][1] * magnitude, magnitude }, "gravity");
}
function fieldArmed() { return el("placeField").classList.contains("armed"); }
function disarmField() { el("placeField").classList.remove("armed"); el("placeField").textContent = "place field"; }
function placeField(pt) {
  disarmField();
  const kind = el("fieldKind").value, m = { type: "field", kind, x: pt.x, y: pt.y, region: { radius: 120 } };
  if (kind === "linear_gravity" || kind === "velocity") m.direction = { dx: 1, dy: 0 };
  command(m, kind.replace("_", " ") + " field");
}
el("spawnBox").addEventListener("click", () => spawn("rect"));
el("spawnBall").addEventListener("click", () => spawn("ellipse"));
el("remove").addEventListener("click", removeSelected);
el("hold").addEventListener("click", toggleHold);
el("step").addEventListener("click", () => command({ type: "step", ticks: 1 }, "step"));
el("collision").addEventListener("change", e => setCollision(e.target.value));
el("gravity").addEventListener("change", e => setGravity(e.target.value));
el("placeField").addEventListener("click", () => {
  if (fieldArmed()) { disarmField(); return; }
  el("placeField").classList.add("armed"); el("placeField").textContent = "tap the world…";
});
el("fit").addEventListener("click", fitWorld);
el("contacts").addEventListener("change", e => command({ type: "subscribe", contacts: e.target.checked }, "contacts"));

// ---- the property panel: one input per item property; a change sends `set` -----------------------------
const PROPS = [
  ["elasticity", "number", 0, 1, 0.05], ["friction", "number", 0, 1, 0.05], ["density", "number", 0.01, 100, 0.1],
  ["resistance", "number", 0, 1000, 0.1], ["angular_resistance", "number", 0, 1000, 0.1], ["charge", "number", -100, 100, 0.5],
  ["allows_rotation", "checkbox"], ["anchored", "checkbox"], ["color", "color"],
];
function showValue(input, b) {
  if (input.type === "checkbox") input.checked = !!b[input.name];
  else if (input.type === "color") input.value = b.color || "#888888";
  else input.value = b[input.name] === undefined ? "" : b[input.name];
}
function renderProps() {
  const form = el("props");
  const b = dyn.selected != null ? dyn.bodies.get(dyn.selected) : null;
  el("selected").textContent = b ? "#" + b.id + " " + b.shape + " " + Math.round(b.width) + "×" + Math.round(b.height) : "-";
  // The same item again (a scene for any change, someone's anchor move too): refresh the values in place,
  // leaving the field being typed in alone.
  if (b && form.dataset.body === String(b.id)) {
    for (const input of form.querySelectorAll("input")) if (input !== document.activeElement) showValue(input, b);
    return;
  }
  form.textContent = ""; form.dataset.body = b ? String(b.id) : "";
  if (!b) { const p = document.createElement("span"); p.className = "empty"; p.textContent = "tap an item (or Tab) to see and edit it"; form.appendChild(p); return; }
  for (const [name, type, min, max, step] of PROPS) {
    const label = document.createElement("label"); label.textContent = name.replace("_", " "); label.htmlFor = "prop-" + name;
    const input = document.createElement("input"); input.type = type; input.id = "prop-" + name; input.name = name;
    if (type === "number") { input.min = min; input.max = max; input.step = step; }
    showValue(input, b);
    input.addEventListener("change", () => {
      let value = type === "checkbox" ? input.checked : type === "number" ? Number(input.value) : input.value;
      if (type === "number" && (input.value === "" || !Number.isFinite(value))) { showError(name.replace("_", " ") + ": a number, please"); return; }
      command({ type: "set", body: b.id, [name]: value }, "set " + name.replace("_", " "));
    });
    form.append(label, input);
  }
}
el("props").addEventListener("submit", e => e.preventDefault());

// ---- name ------------------------------------------------------------------------------------------------
el("name").textContent = dyn.name;
el("name").addEventListener("click", () => {
  const f = el("nameForm"); f.hidden = !f.hidden;
  if (!f.hidden) { el("nameInput").value = dyn.name; el("nameInput").focus(); el("nameInput").select(); }
  resize();
});
el("nameForm").addEventListener("submit", e => {
  e.preventDefault();
  const name = el("nameInput").value.trim().slice(0, 64);
  if (!name) { showError("a name needs at least one character"); return; }
  dyn.name = name; el("name").textContent = name;
  try { localStorage.setItem("dyn.name", name); } catch (err) { /* private mode: the name lasts this visit */ }
  el("nameForm").hidden = true; resize();
  command({ type: "hello", name }, "name");
});

// ---- rooms (docs/PROTOCOL.md, rooms): the picker shows only when the server answers `rooms` ---------------
function setRoom(name) { dyn.room = name; el("room").textContent = name; setStatusData("room", name); document.title = name === "main" ? "dyn" : "dyn · " + name; }
function roomsAnswered(supported, rooms) {
  dyn.roomsSupported = supported;
  setStatusData("rooms", supported ? "supported" : "unsupported");
  el("roomBox").hidden = !supported;
  if (!supported) { el("rooms").hidden = true; resize(); }
  else if (rooms && !el("rooms").hidden) showRooms(rooms);
}
function showRooms(rooms) {
  const list = el("roomList"); list.textContent = "";
  for (const r of rooms) {
    const b = document.createElement("button"); b.type = "button";
    b.textContent = r.name + " (" + r.clients + ")"; b.title = (r.scene || "") + ", " + r.bodies + " items";
    if (r.name === dyn.room) b.className = "current";
    b.addEventListener("click", () => joinRoom(r.name));
    list.appendChild(b);
  }
}
function joinRoom(name) {
  if (!ROOM_NAME.test(name)) { showError("a room name is 1 to 64 letters, digits, - _ or ., starting with a letter or digit"); return; }
  if (command({ type: "join", room: name }, "join " + name)) dyn.joining = true;
}
function joined(name) {
  setRoom(name);
  // The query stays: a ?token=T must still be there for a reload.
  window.history.replaceState(null, "", roomPath(name) + location.search);
  el("rooms").hidden = true; resize();
  showResult("you are in room " + name);
}
el("room").addEventListener("click", () => {
  const box = el("rooms"); box.hidden = !box.hidden; resize();
  if (!box.hidden) command({ type: "rooms" }, "rooms");
});
el("roomForm").addEventListener("submit", e => { e.preventDefault(); joinRoom(el("roomInput").value.trim()); });

setRoom(dyn.room);
renderProps();
applyPointerWords();
// The tools and the panel start open where there is room for them beside the world; on a phone they are
// one tap away and the world keeps the screen.
const wide = window.matchMedia("(min-width: 721px)").matches;
el("toolsBox").open = wide; el("propsBox").open = wide;
for (const box of [el("toolsBox"), el("propsBox")]) box.addEventListener("toggle", resize);
resize();
requestAnimationFrame(draw);
// The scene names come from the server (GET /scenes.json) before the connection opens, so that the picker
// and the 1-9 keys are ready when the first scene arrives; without them the page still connects.
fetch("/scenes.json").then(r => r.ok ? r.json() : []).catch(() => []).then(names => {
  for (const name of names) { SCENES.push(name); const o = document.createElement("option"); o.value = o.textContent = name; el("scenes").appendChild(o); }
  connect();
});
