// "A moment of joy" on every game page: a short burst over the table (a Yams, the 421, a
// win) and, if the player turned the sound on, a little chime synthesised here with the
// Web Audio API (no sound file, nothing fetched). The page's Python calls
// window.pygames.joy.celebrate(text, withSound) and .chime(kind); the text is set with
// textContent. No burst at all under prefers-reduced-motion (the words are announced by
// the page's live region anyway).
//
// The burst never covers a control or the hint (issue 20, item 9): it takes the free place
// nearest the middle of the felt (else of the screen) that no visible button, field, link
// or hint crosses, smaller if it must; its paper pieces stay inside its box. While it shows,
// the page may change under it (the end screen, a scroll): each frame it checks its place
// again, and moves (or goes) if a control came under it. No free place: no burst.

const reduced = matchMedia("(prefers-reduced-motion: reduce)");
const SHOW_MS = 1800;
const PIECES = 14;
let audio = null;
let shown = null;

// Notes (Hz) of each chime: a rising arpeggio; a win gets one more note.
const TUNES = {
  joy: [659.25, 783.99, 1046.5],
  win: [523.25, 659.25, 783.99, 1046.5],
  on: [880],
};

function chime(kind = "joy") {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return false;
  try {
    audio ??= new Context();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.02;
    (TUNES[kind] || TUNES.joy).forEach((frequency, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const t = start + i * 0.11;
      osc.type = "triangle";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.15, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.38);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.4);
    });
  } catch {
    return false;  // no audio here: the moment stays silent
  }
  api.chimes += 1;
  return true;
}

//: What a burst must leave clear: every control, and the line that says what to do next.
const CLEAR = "button, select, input, textarea, a[href], summary, [role=button], #hint, .hint";
const SCALES = [1, 0.8, 0.65, 0.5];
const EDGE = 4;      // px kept free at the screen's edges
const STEP = 8;      // px between two places tried

function obstacles() {
  const out = [];
  for (const e of document.querySelectorAll(CLEAR)) {
    if (e.closest(".joy, .sr-only")) continue;
    if (e.checkVisibility && !e.checkVisibility({ visibilityProperty: true })) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.top >= innerHeight
        || r.right <= 0 || r.left >= innerWidth) continue;
    out.push(r);
  }
  return out;
}

function crosses(box, rects) {
  return rects.some((r) => box.left < r.right && box.right > r.left
    && box.top < r.bottom && box.bottom > r.top);
}

//: Where the burst would like to be: the middle of the felt in view, else of the screen.
function wanted() {
  const felt = document.querySelector(".table:not([hidden]) .play");
  const r = felt?.checkVisibility() ? felt.getBoundingClientRect() : null;
  if (r && r.bottom > 0 && r.top < innerHeight && r.width > 0) {
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
    return [r.left + r.width / 2, (top + bottom) / 2];
  }
  return [innerWidth / 2, innerHeight / 2];
}

//: The free place nearest the wanted point, at the largest scale that has one: its box
//: (the words at their largest in the pop, plus room for the paper pieces) and its scale.
function findPlace(burst) {
  const rects = obstacles();
  const [cx, cy] = wanted();
  const words = burst.firstChild;
  for (const scale of SCALES) {
    burst.style.setProperty("--joy-scale", String(scale));
    const w = Math.ceil(words.offsetWidth * 1.12) + 24;
    const h = Math.ceil(words.offsetHeight * 1.12) + 24 + 12;  // the pop's 12 % and its rise
    if (w > innerWidth - 2 * EDGE || h > innerHeight - 2 * EDGE) continue;
    let best = null;
    for (let y = EDGE; y + h <= innerHeight - EDGE; y += STEP) {
      for (let x = EDGE; x + w <= innerWidth - EDGE; x += STEP) {
        const box = { left: x, top: y, right: x + w, bottom: y + h };
        const d = Math.hypot(x + w / 2 - cx, y + h / 2 - cy);
        if ((!best || d < best.d) && !crosses(box, rects)) best = { box, d };
      }
    }
    if (best) return { box: best.box, scale };
  }
  return null;
}

function place(burst, spot) {
  burst.style.setProperty("--joy-scale", String(spot.scale));
  burst.style.left = `${spot.box.left}px`;
  burst.style.top = `${spot.box.top}px`;
  burst.style.width = `${spot.box.right - spot.box.left}px`;
  burst.style.height = `${spot.box.bottom - spot.box.top}px`;
}

function celebrate(text, withSound = false, kind = "joy") {
  if (withSound) chime(kind);
  if (reduced.matches) return;
  shown?.remove();
  shown = null;
  const burst = document.createElement("div");
  burst.className = "joy" + (kind === "win" ? " joy-win" : "");
  burst.setAttribute("aria-hidden", "true");
  const words = document.createElement("span");
  words.className = "joy-text";
  words.textContent = String(text);
  burst.appendChild(words);
  for (let i = 0; i < PIECES; i++) {
    const piece = document.createElement("i");
    piece.style.setProperty("--a", `${(360 / PIECES) * i}deg`);
    piece.style.setProperty("--d", `${(i % 3) * 0.5}`);
    burst.appendChild(piece);
  }
  burst.style.visibility = "hidden";
  burst.style.width = `${innerWidth}px`;
  burst.style.height = `${innerHeight}px`;
  document.body.appendChild(burst);
  const spot = findPlace(burst);
  if (!spot) { burst.remove(); return; }  // no free place: the live region says it
  place(burst, spot);
  burst.style.visibility = "";
  shown = burst;
  const end = performance.now() + SHOW_MS;
  const watch = () => {
    if (shown !== burst) return;
    if (performance.now() >= end) { burst.remove(); shown = null; return; }
    if (crosses(burst.getBoundingClientRect(), obstacles())) {
      const again = findPlace(burst);
      if (!again) { burst.remove(); shown = null; return; }
      place(burst, again);
    }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
  // A hidden tab runs no frames: the burst still goes in time.
  setTimeout(() => { if (shown === burst) { burst.remove(); shown = null; } }, SHOW_MS + 100);
}

const api = { chimes: 0, chime, celebrate };
(window.pygames ??= {}).joy = api;
