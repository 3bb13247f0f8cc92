"use strict";
// Packed frames (docs/PROTOCOL.md, "packed"): binary WebSocket messages of bit codes, applied to the
// baseline this connection holds. The same rules as NetProtocol's PackedApplier: a frame that does not
// decode throws and changes nothing (the page then asks for a keyframe).
const packed = { base: null, previous: null };

function PackedReader(bytes) { this.bytes = bytes; this.bit = 0; }
PackedReader.prototype.left = function () { return this.bytes.length * 8 - this.bit; };
PackedReader.prototype.read = function (n) {
  if (n > this.left()) throw new Error("the frame ends inside a field");
  let v = 0;
  for (let i = 0; i < n; i++) {
    v = v * 2 + ((this.bytes[this.bit >> 3] >> (7 - (this.bit & 7))) & 1);
    this.bit++;
  }
  return v;
};
// ue(k): Exp-Golomb of order k; numbers past 2^53 are refused (a world never needs them).
PackedReader.prototype.ue = function (k) {
  let zeros = 0;
  while (this.read(1) === 0) { if (++zeros > 52) throw new Error("a number code is too long"); }
  const q = 2 ** zeros + this.read(zeros) - 1;
  const v = q * 2 ** k + this.read(k);
  if (v > Number.MAX_SAFE_INTEGER) throw new Error("a number is too large");
  return v;
};
PackedReader.prototype.se = function (k) { const v = this.ue(k); return v % 2 === 0 ? v / 2 : -(v + 1) / 2; };
PackedReader.prototype.end = function () {
  const left = this.left();
  if (left >= 8) throw new Error("bytes follow the end of the frame");
  if (left > 0 && (this.bytes[this.bytes.length - 1] & ((1 << left) - 1)) !== 0) throw new Error("non-zero padding");
};

/// The prediction of one coordinate (docs/PROTOCOL.md, "packed"): the baseline moved on at its last speed.
function packedPredict(base, previous, ahead, behind) {
  const step = base - previous;
  return step === 0 ? base : base + Math.floor((2 * step * ahead + behind) / (2 * behind));
}

/// Decodes one frame against the baseline; returns the table it describes and its flags, clients, drags.
function packedDecode(bytes) {
  const r = new PackedReader(bytes);
  const flags = r.read(8);
  if (flags & 0x0f) throw new Error("reserved bits are set");
  const key = (flags & 0x80) !== 0, base = packed.base;
  if (!key && !base) throw new Error("a delta before any keyframe");
  const tick = key ? r.ue(0) : base.tick + r.ue(0);
  const time = key ? r.se(0) : base.time + r.se(4);
  const clients = r.ue(0);
  const drags = [];
  if (flags & 0x10) {
    const count = r.ue(0);
    if (count > r.left() / 39) throw new Error("more drags than the frame holds");
    for (let i = 0; i < count; i++) {
      const client = r.se(0), length = r.ue(0);
      if (length > r.left() / 8) throw new Error("a name runs past the end");
      const name = new Uint8Array(length);
      for (let j = 0; j < length; j++) name[j] = r.read(8);
      const text = new TextDecoder("utf-8", { fatal: true }).decode(name);
      const body = r.se(0), x = r.se(8) / 100, y = r.se(8) / 100, ox = r.se(8) / 100, oy = r.se(8) / 100;
      drags.push({ client, name: text, body, x, y, offset: { x: ox, y: oy } });
    }
  }
  const n = r.ue(0);
  let table;
  if (key) {
    if (n > r.left() / 4) throw new Error("more bodies than the frame holds");
    table = { tick, time, ids: [], x: [], y: [], a: [] };
    if (n > 0) {
      const k = [r.read(4), r.read(4), r.read(4), r.read(4)];
      let id = 0;
      for (let i = 0; i < n; i++) {
        id = id + 1 + r.se(k[0]);
        table.ids.push(id); table.x.push(r.se(k[1])); table.y.push(r.se(k[2])); table.a.push(r.se(k[3]));
      }
    }
  } else {
    const count = base.ids.length;
    if (n > count) throw new Error("more bodies than the baseline has");
    const prev = packed.previous, ahead = tick - base.tick, behind = prev ? base.tick - prev.tick : 0;
    const predicts = prev && ahead >= 0 && ahead < 2 ** 31 && behind > 0 && behind < 2 ** 31;
    const p = (b, q) => predicts ? packedPredict(b, q, ahead, behind) : b;
    table = { tick, time, ids: base.ids, x: base.x.map((v, i) => p(v, predicts ? prev.x[i] : 0)),
              y: base.y.map((v, i) => p(v, predicts ? prev.y[i] : 0)), a: base.a.map((v, i) => p(v, predicts ? prev.a[i] : 0)) };
    if (n > 0) {
      const k = [r.read(4), r.read(4), r.read(4), r.read(4)];
      let next = 0;
      for (let j = 0; j < n; j++) {
        const i = next + r.ue(k[0]);
        if (i >= count) throw new Error("a body index past the baseline");
        table.x[i] += r.se(k[1]); table.y[i] += r.se(k[2]); table.a[i] += r.se(k[3]);
        next = i + 1;
      }
    }
  }
  r.end();
  packed.previous = key ? null : base;
  packed.base = table;
  return { table, paused: (flags & 0x40) !== 0, held: (flags & 0x20) !== 0, clients, drags };
}

/// A binary message: a packed frame, recorded as the state it describes; one that does not decode asks
/// for a keyframe (subscribing to packed again sends one).
function receivePacked(buffer) {
  let frame;
  try { frame = packedDecode(new Uint8Array(buffer)); } catch (e) {
    packed.base = null; packed.previous = null;
    send({ type: "subscribe", snapshots: "packed" });
    return;
  }
  const t = frame.table, poses = new Map();
  const turn = 2 * Math.PI / 65536;
  for (let i = 0; i < t.ids.length; i++) if (dyn.bodies.has(t.ids[i])) poses.set(t.ids[i], [t.x[i] / 16, t.y[i] / 16, t.a[i] * turn, 0, 0]);
  dyn.packedFrames = (dyn.packedFrames || 0) + 1;
  record(t.tick, frame.paused, frame.held, frame.clients, frame.drags, poses);
}
