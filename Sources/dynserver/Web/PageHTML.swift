/// The page's markup: the bar (connection, room, scene, name, world state), the caption, the world's canvas
/// with its disconnection banner, the message row (errors and notices), the tools, the property panel and
/// the help line. Every element a test or a script reads has an id.
enum PageHTML {
    static func document(style: String, script: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no, viewport-fit=cover">
        <title>dyn</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(body)
        <script>
        "use strict";
        const SCENES = \(WebPage.sceneNamesJSON);
        \(script)
        </script>
        </body>
        </html>
        """
    }

    static let body = #"""
<header id="bar">
  <span id="status" data-state="connecting" data-bodies="0" data-tick="0" data-client="" data-scene="" data-taps="0" data-motion="" data-room="" data-rooms="" data-admin="">
    <span id="conn" class="connecting" title="connection">connecting</span></span>
  <span class="group" id="roomBox"><b>room</b><button id="room" type="button" title="rooms: pick or create one">main</button></span>
  <label class="group"><b>scene</b><select id="scenes" title="load a scene (everyone sees it)"></select></label>
  <span class="group"><b>name</b><button id="name" type="button" title="set your name (others see it)">-</button></span>
  <span class="group"><span id="motion">-</span></span>
  <span class="group"><b>clients</b><span id="clients">-</span></span>
  <span class="group"><b>ping</b><span id="ping">-</span></span>
</header>
<div id="rooms" hidden>
  <div id="roomList"></div>
  <form id="roomForm"><input id="roomInput" maxlength="64" placeholder="new room name" autocomplete="off"><button type="submit">join</button></form>
</div>
<form id="nameForm" hidden><input id="nameInput" maxlength="64" placeholder="your name" autocomplete="off"><button type="submit">set name</button></form>
<p id="caption"></p>
<main id="stage">
  <div id="view">
    <canvas id="world" aria-label="the shared world"></canvas>
    <div id="banner" hidden><strong>Disconnected</strong><span id="bannerText">reconnecting…</span></div>
  </div>
  <aside id="side">
    <details id="toolsBox">
    <summary>tools</summary>
    <div id="tools">
      <button type="button" id="spawnBox" title="spawn a box (n)">+ box</button>
      <button type="button" id="spawnBall" title="spawn a ball">+ ball</button>
      <button type="button" id="remove" title="remove the selection (Delete or x)" disabled>remove</button>
      <button type="button" id="hold" title="hold / resume the world (p)">hold</button>
      <button type="button" id="step" title="step one tick while held (.)" disabled>step</button>
      <label><b>collide</b><select id="collision" title="collision mode (c)"><option>everything</option><option>items</option><option>boundaries</option></select></label>
      <label><b>gravity</b><select id="gravity" title="gravity (g turns it)"><option value="down">down</option><option value="left">left</option><option value="up">up</option><option value="right">right</option><option value="off">off</option></select></label>
      <label><b>field</b><select id="fieldKind" title="the kind the next field gets"></select></label>
      <button type="button" id="placeField" title="then tap the world where the field goes">place field</button>
      <label class="check"><input type="checkbox" id="contacts"> contacts</label>
      <button type="button" id="fit" title="show the whole world again (z)" disabled>fit world</button>
    </div>
    </details>
    <details id="propsBox">
      <summary>properties <span id="selected">-</span></summary>
      <form id="props"></form>
    </details>
  </aside>
</main>
<div id="messages"><span id="error" role="alert"></span><span id="result"></span><span id="notices"></span></div>
<footer id="help">tap: push toward the point · drag an item: move it, let go to fling · drag a ◯ handle: move an anchor or field · long press / right click: snap the selection there · pinch / wheel: zoom · ? keys</footer>
<div id="keys" hidden>
  <b>keys</b> Tab select next · Esc deselect · n spawn box · Delete/x remove · p hold/resume · . step · c collision mode · g turn gravity · z fit the world · 1-9 scenes · ? close
</div>
"""#
}
