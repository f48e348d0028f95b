// Home page: a card whose game has a game in progress saved in this browser offers
// "Reprendre la partie" (its words: the page's catalogue, js/words.js). Plain JS (no Python on this page); reads only, and a value it
// cannot read is simply not a game in progress.
for (const card of document.querySelectorAll(".game-card[data-family]")) {
  let saved = null;
  try {
    saved = localStorage.getItem(`pygames:${card.dataset.family}:match`);
  } catch {
    saved = null;  // storage refused (private mode, policy): nothing to resume
  }
  let inProgress = false;
  if (saved && saved.length < 5_000_000) {
    try {
      const blob = JSON.parse(saved);
      inProgress = Boolean(blob && typeof blob === "object" && blob.record && !blob.finished);
    } catch {
      inProgress = false;
    }
  }
  const resume = card.querySelector(".resume-link");
  if (resume && inProgress) {
    resume.hidden = false;
    card.querySelector(".play-link").textContent = window.pygames?.t?.("page.new_game") ?? "";
    card.querySelector(".play-link").href += "?fresh=1";
  }
}
