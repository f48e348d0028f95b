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

// The day's challenge card: today's link for each game and whether it is played (the store
// of web/app/daily_store.py, pygames:daily); a damaged value is simply no day played.
(() => {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  const day = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const today = day(now);
  let days = {};
  try {
    const raw = localStorage.getItem("pygames:daily");
    if (raw && raw.length < 400_000) {
      const store = JSON.parse(raw);
      if (store && store.format === "pygames-daily/1" && store.days && typeof store.days === "object") {
        days = store.days;
      }
    }
  } catch {
    days = {};
  }
  const entry = (family, date) => {
    const dates = Object.prototype.hasOwnProperty.call(days, family) ? days[family] : null;
    const found = dates && typeof dates === "object" && Object.prototype.hasOwnProperty.call(dates, date)
      ? dates[date] : null;
    return found && typeof found === "object" ? found.status : null;
  };
  const t = (id, params) => window.pygames?.t?.(id, params) ?? "";
  const date = document.getElementById("daily-card-date");
  if (date) {
    date.textContent = today;
    date.setAttribute("datetime", today);
  }
  for (const item of document.querySelectorAll("[data-daily]")) {
    const family = item.dataset.daily;
    const link = item.querySelector("a");
    if (link) link.href = `${family}.html?daily=${today}`;
    const status = entry(family, today);
    const state = item.querySelector(".daily-state");
    if (state && (status === "done" || status === "abandoned")) {
      state.textContent = t("home.daily.played");
      item.classList.add("played");
    } else if (state && status === "playing") {
      state.textContent = t("home.daily.playing");
    }
  }
  // The streak: consecutive days with a game played, up to today (or yesterday).
  const played = (d) => Object.keys(days).some((f) => ["done", "abandoned"].includes(entry(f, day(d))));
  const cursor = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (!played(cursor)) cursor.setDate(cursor.getDate() - 1);
  let n = 0;
  while (n < 400 && played(cursor)) {
    n += 1;
    cursor.setDate(cursor.getDate() - 1);
  }
  const streak = document.querySelector(".daily-streak");
  if (streak && n > 0) {
    streak.textContent = t("home.daily.streak", { n });
    streak.hidden = false;
  }
})();
