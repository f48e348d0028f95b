// Two devices at one table: the WebRTC link between them (web/app/duo.py is the page's side,
// web/app/pairing.py turns the descriptions into codes and back).
//
// One RTCPeerConnection with `iceServers: []`: no STUN or TURN server is named anywhere and
// nothing is sent to any host; the two devices reach each other through their own (host)
// candidates, on one Wi-Fi or a phone's hotspot.  One ordered data channel, negotiated (id 0),
// so that neither side waits for the other to announce it.  Each side waits for the
// gathering of its candidates to end, so that a description is complete in one code.
//
// What Python sees (window.pygames.duo): offer(), answer(sdp), accept(sdp), send(text),
// close(), state(); the QR codes: draw(canvas, text), scan(video), stopScan().  What
// happens on the link comes as "pygames-duo" events on window, detail {kind, data}: open,
// message (data: the text), closed, failed (no connection within CONNECT_MS).  Nothing
// received is evaluated: a message is handed to Python as text.

const LEAN_QR = new URL(/* build: lean_qr */ "../vendor/lean-qr/index.mjs", import.meta.url);
const QR_DECODE = new URL(/* build: qr_decode */ "../vendor/qr/decode.js", import.meta.url);
const CONFIG = Object.freeze({ iceServers: [] });
const GATHER_MS = 20000;  // the longest wait for the candidates (host candidates: ~0.1 s; much more on a busy machine)
const CONNECT_MS = 30000;  // the host applied the answer and no connection after this: said as such
const MAX_MESSAGE = 64000;  // characters (web/app/pairing.py MAX_MESSAGE): larger is dropped

const pygames = (window.pygames ??= {});
let pc = null;
let channel = null;
let timer = 0;
let wakeLock = null;
let scanning = null;
const timing = { started: 0, opened: 0 };

function emit(kind, data = "") {
  window.dispatchEvent(new CustomEvent("pygames-duo", { detail: { kind, data } }));
}

function stop() {
  clearTimeout(timer);
  const old = pc;
  pc = null;
  channel = null;
  releaseWakeLock();
  if (old) {
    try { old.close(); } catch { /* already closed */ }
  }
}

function fresh() {
  stop();
  if (typeof RTCPeerConnection !== "function") {
    throw new Error("no-webrtc");
  }
  const conn = new RTCPeerConnection(CONFIG);
  const dc = conn.createDataChannel("pygames", { negotiated: true, id: 0, ordered: true });
  pc = conn;
  channel = dc;
  timing.started = 0;
  timing.opened = 0;
  dc.onopen = () => {
    if (pc !== conn) return;
    clearTimeout(timer);
    timing.opened = performance.now();
    keepAwake();
    emit("open");
  };
  dc.onmessage = (event) => {
    if (pc !== conn) return;
    if (typeof event.data === "string" && event.data.length <= MAX_MESSAGE) {
      emit("message", event.data);
    } else {
      emit("oversized");
    }
  };
  dc.onclose = () => { if (pc === conn) { emit("closed"); stop(); } };
  conn.onconnectionstatechange = () => {
    if (pc !== conn) return;
    if (conn.connectionState === "failed" || conn.connectionState === "closed") {
      emit(timing.opened ? "closed" : "failed");
      stop();
    }
  };
  return conn;
}

async function gathered(conn) {
  if (conn.iceGatheringState !== "complete") {
    await new Promise((resolve) => {
      const done = () => { if (conn.iceGatheringState === "complete") resolve(); };
      conn.addEventListener("icegatheringstatechange", done);
      setTimeout(resolve, GATHER_MS);
    });
  }
  return conn.localDescription ? conn.localDescription.sdp : "";
}

function waitForOpen() {
  timing.started = performance.now();
  clearTimeout(timer);
  const conn = pc;
  timer = setTimeout(() => {
    if (pc === conn && channel && channel.readyState !== "open") {
      emit("failed");
      stop();
    }
  }, CONNECT_MS);
}

async function keepAwake() {
  try {
    if (navigator.wakeLock && document.visibilityState === "visible" && !wakeLock) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    }
  } catch { /* refused (battery saver): the game goes on */ }
}

function releaseWakeLock() {
  if (wakeLock) {
    wakeLock.release().catch(() => {});
    wakeLock = null;
  }
}

document.addEventListener("visibilitychange", () => {
  if (channel && channel.readyState === "open") keepAwake();  // a lock ends when the page hides
});

pygames.duo = {
  config: CONFIG,
  timing,
  supported: () => typeof RTCPeerConnection === "function",
  // The host: its offer (SDP), complete with its candidates.
  async offer() {
    const conn = fresh();
    await conn.setLocalDescription(await conn.createOffer());
    return gathered(conn);
  },
  // The guest: its answer to the host's offer (SDP rebuilt from the code).
  async answer(sdp) {
    const conn = fresh();
    await conn.setRemoteDescription({ type: "offer", sdp });
    await conn.setLocalDescription(await conn.createAnswer());
    // No timer here: the host may take its time to scan the answer (a minute is fine; the
    // connection's own checks fail it if the host never comes).
    timing.started = performance.now();
    return gathered(conn);
  },
  // The host: the guest's answer.
  async accept(sdp) {
    if (!pc || pc.signalingState !== "have-local-offer") throw new Error("no-offer");
    waitForOpen();
    await pc.setRemoteDescription({ type: "answer", sdp });
  },
  send(text) {
    if (!channel || channel.readyState !== "open" || typeof text !== "string") return false;
    channel.send(text);
    return true;
  },
  // The link ends here (this page's choice, or a test's drop): said as a drop is.
  close() {
    const open = channel && channel.readyState === "open";
    stop();
    if (open) emit("closed");
  },
  state: () => (channel ? channel.readyState : "none"),
  // A QR code of `text` on `canvas`, one module a pixel (CSS scales it); its version.
  async draw(canvas, text) {
    const { generate, correction } = await import(LEAN_QR.href);
    const code = generate(text, { minCorrectionLevel: correction.M });
    code.toCanvas(canvas, { padX: 4, padY: 4, on: [0, 0, 0, 255], off: [255, 255, 255, 255] });
    return (code.size - 17) / 4;
  },
  // The text of the first QR code the camera sees in `video` (BarcodeDetector where the
  // browser has one, else the pinned decoder, imported only now); null if stopped.
  async scan(video) {
    this.stopScan();
    const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    const run = { stream, stopped: false };
    scanning = run;
    video.srcObject = stream;
    await video.play();
    let detect;
    if ("BarcodeDetector" in window) {
      const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
      detect = async () => ((await detector.detect(video))[0] || {}).rawValue || null;
    } else {
      const { decodeQR } = await import(QR_DECODE.href);
      const canvas = document.createElement("canvas");
      detect = async () => {
        const width = video.videoWidth, height = video.videoHeight;
        if (!width || !height) return null;
        canvas.width = width;
        canvas.height = height;
        const context = canvas.getContext("2d", { willReadFrequently: true });
        context.drawImage(video, 0, 0, width, height);
        try {
          return decodeQR(context.getImageData(0, 0, width, height));
        } catch {
          return null;  // no code in this frame
        }
      };
    }
    try {
      while (!run.stopped) {
        const found = await detect().catch(() => null);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return null;
    } finally {
      if (scanning === run) this.stopScan();
    }
  },
  stopScan() {
    if (scanning) {
      scanning.stopped = true;
      scanning.stream.getTracks().forEach((track) => track.stop());
      scanning = null;
    }
  },
};
