// Inside the embed page: tell the parent (embed.js on the host page) how tall the content
// is, every time it changes, so the iframe fits it. The message carries no secret (the
// instance id and a height), hence targetOrigin "*"; embed.js accepts it only from its
// own frames. Nothing here reaches into the parent.

const id = new URLSearchParams(location.search).get("id") || "";
let last = -1;

function report() {
  if (window.parent === window) return;  // opened on its own, not in a frame
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === last) return;
  last = height;
  window.parent.postMessage({ type: "pygames:height", id, height }, "*");
}

new ResizeObserver(report).observe(document.documentElement);
addEventListener("load", report);
