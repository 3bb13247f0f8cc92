#!/usr/bin/env python3
"""Differential check of Part H's scenes (docs/ENGINE.md, "Only touching bodies interact", "Every pile
separates"): each scene runs in dyn (a real `dynserver --held`, stepped over the wire) and in an independent
engine, Box2D 2.3 (PyPI `box2d`, `pip install box2d`), and the script prints both engines' numbers side by
side. Not part of `make test`; run it by hand:

    swift build --product dynserver && scripts/box2d-diff.py [path/to/dynserver]

Units: dyn's points, y down; Box2D in metres with 100 pt = 1 m and gravity (0, +10) m/s² in the same y-down
frame. Both step 1/60 s; Box2D 2.3 with 8 velocity and 3 position iterations.
"""
import json, math, socket, subprocess, sys

import Box2D  # noqa: E402  (pip install box2d)

W, H = 800.0, 600.0


def scene_balls(gap, diameter, count, elasticity, stagger):
    return [dict(x=100 + k * (diameter + gap), y=200 - (k % 3) * stagger, d=diameter, e=elasticity) for k in range(count)]


def scene_one_point(count, diameter):
    return [dict(x=400.0, y=300.0, d=diameter, e=0.0) for _ in range(count)]


SCENES = {
    "30 elastic balls 1.6 pt apart": (scene_balls(1.6, 16, 30, 1.0, 30), True, 240),
    "two balls 9.6 pt apart, e 0, staggered 30 pt": (scene_balls(1.6, 8, 2, 0.0, 30), True, 180),
    "80 circles spawned at one point": (scene_one_point(80, 30), True, 600),
    "50 circles at one point, no gravity": (scene_one_point(50, 30), False, 600),
}


def measure(bodies, diameters):
    """Largest |vx|, deepest pair overlap, x spread."""
    vx = max(abs(b[2]) for b in bodies)
    deepest = 0.0
    for i in range(len(bodies)):
        for j in range(i + 1, len(bodies)):
            d = math.hypot(bodies[i][0] - bodies[j][0], bodies[i][1] - bodies[j][1])
            deepest = max(deepest, (diameters[i] + diameters[j]) / 2 - d)
    xs = [b[0] for b in bodies]
    return vx, deepest, max(xs) - min(xs)


def run_box2d(items, gravity, ticks):
    world = Box2D.b2World(gravity=(0, 10 if gravity else 0), doSleep=True)
    ground = world.CreateStaticBody(position=(0, 0))
    corners = [(0, 0), (W / 100, 0), (W / 100, H / 100), (0, H / 100)]
    for k in range(4):
        ground.CreateEdgeFixture(vertices=[corners[k], corners[(k + 1) % 4]], friction=0.2)
    bodies = []
    for it in items:
        b = world.CreateDynamicBody(position=(it["x"] / 100, it["y"] / 100))
        b.CreateCircleFixture(radius=it["d"] / 200, density=1, friction=0, restitution=it["e"])
        bodies.append(b)
    worst = 0.0
    for _ in range(ticks):
        world.Step(1 / 60, 8, 3)
        worst = max(worst, max(abs(b.linearVelocity.x) * 100 for b in bodies))
    state = [(b.position.x * 100, b.position.y * 100, b.linearVelocity.x * 100) for b in bodies]
    vx, deepest, spread = measure(state, [it["d"] for it in items])
    return max(worst, vx), deepest, spread


def run_dyn(server_path, items, gravity, ticks):
    proc = subprocess.Popen([server_path, "--scene", "empty", "--held", "--port", "0", "--no-http"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        host, port = line.split("listening on ")[1].strip().rsplit(":", 1)
        sock = socket.create_connection((host, int(port)))
        reader = sock.makefile("r")

        def send(obj):
            sock.sendall((json.dumps(obj) + "\n").encode())

        def wait(pred):
            for raw in reader:
                msg = json.loads(raw)
                if pred(msg):
                    return msg
            raise RuntimeError("server closed")

        wait(lambda m: m.get("type") == "snapshot")
        if not gravity:
            send({"type": "gravity", "id": 1, "dx": 0, "dy": 0})
            wait(lambda m: m.get("id") == 1)
        ids = []
        for k, it in enumerate(items):
            send({"type": "spawn", "id": 100 + k, "shape": "ellipse", "width": it["d"], "height": it["d"],
                  "x": it["x"], "y": it["y"], "elasticity": it["e"]})
            ids.append(wait(lambda m, k=k: m.get("id") == 100 + k)["body"])
        worst = 0.0
        snap = None
        for k in range(ticks // 10):
            send({"type": "step", "id": 10_000 + k, "ticks": 10})
            snap = wait(lambda m: m.get("type") == "snapshot" and m.get("held"))
            by_id = {b["id"]: b for b in snap["bodies"]}
            worst = max(worst, max(abs(by_id[i]["vx"]) for i in ids))
        by_id = {b["id"]: b for b in snap["bodies"]}
        state = [(by_id[i]["x"], by_id[i]["y"], by_id[i]["vx"]) for i in ids]
        vx, deepest, spread = measure(state, [it["d"] for it in items])
        return max(worst, vx), deepest, spread
    finally:
        proc.terminate()
        proc.wait()


def main():
    server = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/dynserver"
    print(f"{'scene':48} {'engine':10} {'max |vx| pt/s':>14} {'deepest overlap pt':>19} {'x spread pt':>12}")
    for name, (items, gravity, ticks) in SCENES.items():
        for engine, result in (("dyn", run_dyn(server, items, gravity, ticks)),
                               ("box2d 2.3", run_box2d(items, gravity, ticks))):
            vx, deepest, spread = result
            print(f"{name:48} {engine:10} {vx:14.2f} {deepest:19.2f} {spread:12.1f}")


if __name__ == "__main__":
    main()
