// "A moment of joy" on every game page: a short burst over the table (a Yams, the 421, a
// win) and, if the player turned the sound on, a little chime synthesised here with the
// Web Audio API (no sound file, nothing fetched). The page's Python calls
// window.pygames.joy.celebrate(text, withSound) and .chime(kind); the text is set with
// textContent. No burst at all under prefers-reduced-motion (the words are announced by
// the page's live region anyway).

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

function celebrate(text, withSound = false, kind = "joy") {
  if (withSound) chime(kind);
  if (reduced.matches) return;
  shown?.remove();
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
    piece.style.setProperty("--d", `${70 + (i % 3) * 35}px`);
    burst.appendChild(piece);
  }
  document.body.appendChild(burst);
  shown = burst;
  setTimeout(() => { burst.remove(); if (shown === burst) shown = null; }, SHOW_MS);
}

const api = { chimes: 0, chime, celebrate };
(window.pygames ??= {}).joy = api;
