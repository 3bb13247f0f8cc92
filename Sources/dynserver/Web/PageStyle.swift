/// The page's CSS: one column that fills the screen (bar, caption, the world, messages, help) with the tools
/// and the property panel beside the world on a wide screen and under it on a narrow one. Nothing is
/// positioned over the world but the disconnection banner; every row wraps instead of overflowing; nothing
/// depends on colour alone (states are also words: `open`, `held`, the banner).
enum PageStyle {
    static let css = #"""
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { margin: 0; height: 100%; background: #14161a; color: #d8dde6; font: 13px/1.4 system-ui, sans-serif; }
body { -webkit-tap-highlight-color: transparent; display: flex; flex-direction: column; height: 100vh; height: 100dvh; overflow: hidden; }
button, select, input { font: inherit; color: #d8dde6; background: #2a2e36; border: 1px solid #3a3f49; border-radius: 4px; padding: 2px 8px; min-height: 26px; }
input[type=checkbox] { min-height: 0; width: 18px; height: 18px; padding: 0; accent-color: #6fcf7f; justify-self: start; }
button:disabled { opacity: 0.45; }
button:hover:not(:disabled) { background: #343944; }
b { color: #8fa3bf; font-weight: 500; margin-right: 4px; }
#bar { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center; padding: 4px 10px; background: #1e2127; border-bottom: 1px solid #2c3038; }
#bar .group { display: inline-flex; align-items: center; white-space: nowrap; }
#conn::before { content: "● "; }
#conn.open { color: #6fcf7f; } #conn.connecting { color: #e0b85a; } #conn.closed { color: #e06a5a; }
#rooms, #nameForm { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 6px 10px; background: #1b1e24; border-bottom: 1px solid #2c3038; }
#roomList { display: flex; flex-wrap: wrap; gap: 6px; }
#roomList button.current { border-color: #6fcf7f; }
#roomForm, #nameForm { display: flex; gap: 6px; }
#roomInput, #nameInput { width: 12em; max-width: 50vw; }
#caption { margin: 0; padding: 4px 10px; color: #aab4c3; font-size: 12.5px; background: #181a1f; border-bottom: 1px solid #23262c; }
#caption:empty { display: none; }
#stage { flex: 1; min-height: 0; display: flex; }
#view { position: relative; flex: 1; min-width: 0; min-height: 0; }
#world { position: absolute; inset: 0; width: 100%; height: 100%; touch-action: none; cursor: crosshair; display: block; }
#view.offline #world { filter: grayscale(0.8) brightness(0.45); }
#banner { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); max-width: 90%; padding: 14px 22px;
          background: #2b1d1d; border: 2px solid #e06a5a; border-radius: 8px; color: #f3d6d2; text-align: center;
          display: flex; flex-direction: column; gap: 4px; }
#banner strong { font-size: 16px; letter-spacing: 0.05em; text-transform: uppercase; }
#side { width: 240px; flex: none; overflow-y: auto; padding: 8px; background: #1b1e24; border-left: 1px solid #2c3038;
        display: flex; flex-direction: column; gap: 8px; }
#tools { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
#tools label { display: inline-flex; align-items: center; white-space: nowrap; }
#tools b { line-height: 26px; }
#tools .check { gap: 4px; }
#placeField.armed { background: #4a3f1f; border-color: #e0b85a; }
#hold.on { background: #3d2f2f; border-color: #e06a5a; }
#side summary { cursor: pointer; color: #8fa3bf; padding: 2px 0; }
#toolsBox[open] summary { margin-bottom: 6px; }
#props { display: grid; grid-template-columns: auto 1fr; gap: 4px 8px; align-items: center; margin-top: 6px; }
#props input[type=number] { width: 100%; min-width: 0; }
#props input[type=color] { padding: 0 2px; width: 100%; }
#props .empty { grid-column: 1 / -1; color: #6b7383; }
#messages { min-height: 24px; padding: 3px 10px; display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center;
            background: #1e2127; border-top: 1px solid #2c3038; }
#messages span:empty { display: none; }
#error { color: #ffb0a6; font-weight: 600; }
#error:not(:empty)::before { content: "⚠ "; }
#result { color: #9fdcaa; }
#notices { color: #c9b8ff; }
#help { padding: 3px 10px 5px; color: #8790a0; font-size: 12px; background: #1e2127; }
#keys { padding: 6px 10px; color: #d8dde6; background: #23262d; border-top: 1px solid #2c3038; }
@media (max-width: 720px) {
  #stage { flex-direction: column; }
  #side { width: auto; border-left: 0; border-top: 1px solid #2c3038; flex-direction: row; flex-wrap: wrap; gap: 4px 18px;
          max-height: 45%; padding: 4px 8px; }
  #side details[open] { flex-basis: 100%; }
  #bar { gap: 2px 10px; padding: 3px 8px; }
  #caption { font-size: 12px; padding: 3px 8px; }
  button, select { min-height: 30px; }
}
"""#
}
