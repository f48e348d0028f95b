// The setup screen, usable before Python is (a classic script at the end of <main>, after
// js/view-early.js). The form is plain HTML written by the build (web/tools/pages.py) from
// the registry; this script keeps it working for the whole life of the page, before and
// after Python: the ruleset changes its options (a <template> per ruleset) and the seats
// offered, player rows are added and removed within the ruleset's range, and the last
// setup's choices come back from localStorage (pygames:<id>:setup). "Commencer la partie"
// before Python is ready marks the form as pending ("Démarrage…"): the shell (app/shell.py)
// reads the form as it is when it starts and begins the game at once. The shell asks for
// pygames.setup.reset() when it shows the setup again.
//
// The stored setup is checked by pygames.setup.check against the setup's rules, the page's
// JSON #setup-data (the build's setup_rules): app/guard.py's check_setup reads the same
// JSON and applies the same steps, so the two agree on any stored value
// (tests/test_setup_rules.py runs both on hostile values).
(() => {
  "use strict";
  const pygames = (window.pygames ??= {});
  const t = (id, params) => (pygames.t ? pygames.t(id, params) : id);  // js/words.js

  // --- the stored setup, checked (no DOM here: Node runs it in the tests) --------------
  // The deepest nesting of [ and { in JSON text (strings skipped), stopping past `limit`.
  function nestingDepth(text, limit) {
    let depth = 0, deepest = 0, inString = false, escaped = false;
    for (const char of text) {
      if (inString) {
        if (escaped) escaped = false;
        else if (char === "\\") escaped = true;
        else if (char === '"') inString = false;
      } else if (char === '"') {
        inString = true;
      } else if (char === "[" || char === "{") {
        depth += 1;
        if (depth > deepest) {
          deepest = depth;
          if (deepest > limit) return deepest;
        }
      } else if (char === "]" || char === "}") {
        depth -= 1;
      }
    }
    return deepest;
  }

  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const kind = (v) => (typeof v === "boolean" || typeof v === "number" || typeof v === "string" ? typeof v : "other");
  const cut = (text, n) => Array.from(text).slice(0, n).join("");  // n code points, as Python's text[:n]

  // {game?, options?, players?} of a stored text, or null when it is bad (the shell sets it
  // aside with a notice). Any field of the wrong type makes the whole value bad; a game the
  // page does not have, or an option value it does not offer, is only left out.
  function check(raw, rules) {
    if (raw === null || raw === undefined) return {};
    const limits = rules.stored;
    if (typeof raw !== "string" || raw.length > limits.text || nestingDepth(raw, limits.depth) > limits.depth) return null;
    let value;
    try {
      value = JSON.parse(raw, (key, v) => {
        if (typeof v === "number" && !Number.isFinite(v)) throw new Error("not finite");
        return v;
      });
    } catch {
      return null;
    }
    if (!isObject(value)) return null;
    const clean = {};
    const game = Object.hasOwn(value, "game") ? value.game : null;
    if (game !== null) {
      if (typeof game !== "string") return null;
      if (Object.hasOwn(rules.rulesets, game)) clean.game = game;
    }
    if (Object.hasOwn(value, "options")) {
      if (!isObject(value.options)) return null;
      const offered = clean.game ? rules.rulesets[clean.game].options : [];
      clean.options = {};
      for (const opt of offered) {
        if (!Object.hasOwn(value.options, opt.id)) continue;
        const v = value.options[opt.id];
        const choice = opt.choices.length
          ? opt.choices.find((c) => kind(c) === kind(v) && c === v)
          : (typeof v === "boolean" ? v : undefined);
        if (choice !== undefined) clean.options[opt.id] = choice;
      }
    }
    if (Object.hasOwn(value, "players")) {
      const players = value.players;
      if (!Array.isArray(players) || players.length > limits.players) return null;
      clean.players = [];
      for (const p of players) {
        if (!isObject(p)) return null;
        const name = Object.hasOwn(p, "name") ? p.name : "";
        const seat = Object.hasOwn(p, "seat") ? p.seat : "human";
        if (typeof name !== "string" || typeof seat !== "string") return null;
        clean.players.push({ name: cut(name, limits.name), seat: cut(seat, limits.seat) });
      }
    }
    return clean;
  }

  pygames.setup = { check };

  // --- the form -------------------------------------------------------------------------
  const form = document.getElementById("setup-form");
  const dataNode = document.getElementById("setup-data");
  const early = pygames.early;
  if (!form || !dataNode || !early) return;
  let rules;
  try { rules = JSON.parse(dataNode.textContent); } catch { return; }
  const rulesets = rules.rulesets || {};
  const body = document.body;
  const params = new URLSearchParams(location.search);
  const setup = document.getElementById("setup");
  const rowsBox = document.getElementById("player-rows");
  const optionsBox = document.getElementById("option-choices");
  const addButton = document.getElementById("add-player");
  const start = document.getElementById("start");
  const START_TEXT = start ? start.textContent : "";
  const embed = body.hasAttribute("data-embed");
  // An embed URL with options or players fixes the ruleset too (the first one by default).
  const fixedGame = embed && (params.has("game") || params.has("options") || params.has("players"));

  const radios = () => Array.from(form.querySelectorAll("input[name=ruleset]"));
  const rows = () => Array.from(rowsBox.children);
  function chosen() {
    const all = radios();
    const on = all.find((r) => r.checked) || all[0];
    return on ? on.value : Object.keys(rulesets)[0];
  }
  const spec = () => rulesets[chosen()] || { min: 1, max: 6, seats: [["human", t("seat.human")]], options: [], players: [] };
  const seatIds = (game) => game.seats.map(([id]) => id);

  function renderOptions(values) {
    const template = document.getElementById(`options-${chosen()}`);
    if (!template) return;
    optionsBox.replaceChildren(template.content.cloneNode(true));
    for (const [id, value] of Object.entries(values || {})) {  // already checked (check above)
      const node = optionsBox.querySelector(`[data-option="${CSS.escape(id)}"]`);
      if (!node) continue;
      if (node.type === "checkbox") node.checked = value === true;
      else node.value = String(value);
    }
  }

  function fillSeats(select, seat) {
    const game = spec();
    if (!seatIds(game).includes(seat)) seat = "human";
    select.replaceChildren();
    for (const [id, label] of game.seats) {
      const option = document.createElement("option");
      option.value = id;
      option.textContent = label;
      option.selected = id === seat;
      select.appendChild(option);
    }
  }

  function refresh() {
    const game = spec(), all = rows(), ids = seatIds(game);
    all.forEach((row, i) => {
      const n = i + 1, name = row.querySelector("input"), seat = row.querySelector("select");
      name.setAttribute("aria-label", t("page.setup.name", { n }));
      seat.setAttribute("aria-label", t("page.setup.seat", { n }));
      const offered = Array.from(seat.options, (o) => o.value);
      if (offered.join() !== ids.join()) fillSeats(seat, seat.value);
      const remove = row.querySelector(".remove");
      remove.disabled = all.length <= game.min;
      remove.hidden = game.min === game.max;  // a game for exactly n players: nothing to offer
    });
    addButton.disabled = all.length >= game.max;
    addButton.hidden = game.min === game.max;
  }

  function addRow(name, seat) {
    const template = document.getElementById("player-row");
    if (!template || rows().length >= spec().max) return;
    const row = template.content.firstElementChild.cloneNode(true);
    row.querySelector("input").value = name ?? t("player.default", { n: rows().length + 1 });
    fillSeats(row.querySelector("select"), seat || "human");
    rowsBox.appendChild(row);
    refresh();
  }

  // The Règles dialog follows the chosen ruleset and options (as the shell's _update_rules_panel).
  function updateRules() {
    const game = chosen(), values = {};
    for (const node of optionsBox.querySelectorAll("[data-option]")) {
      values[node.dataset.option] = node.type === "checkbox" ? node.checked : node.value;
    }
    for (const section of document.querySelectorAll("#rules [data-ruleset]")) {
      section.hidden = section.dataset.ruleset !== game;
    }
    for (const node of document.querySelectorAll("#rules [data-option]")) {
      const wanted = node.dataset.when, value = values[node.dataset.option];
      node.hidden = !(wanted === "true" || wanted === "false"
        ? Boolean(value === true || (typeof value === "string" && value !== "")) === (wanted === "true")
        : value !== undefined && String(value) === wanted);
    }
  }

  // --- the stored choices ---------------------------------------------------------------
  function storedSetup() {  // {} unless the whole value is well-formed
    let raw = null;
    try { raw = localStorage.getItem(early.keys.setup); } catch { return {}; }
    return check(raw, rules) ?? {};
  }

  function preferred() {
    const wanted = (params.get("game") || "").trim();
    if (Object.hasOwn(rulesets, wanted)) return wanted;
    return fixedGame ? radios()[0].value : null;
  }

  // A device preference of the setup (web/templates/parts/setup.html's ask_zero): as stored
  // in pygames:prefs (app/prefs.py; anything but false asks).
  function askZero() {
    const box = document.getElementById("ask-zero");
    if (!box) return;
    let prefs = null;
    try { prefs = JSON.parse(localStorage.getItem("pygames:prefs")); } catch { /* asks */ }
    box.checked = !(isObject(prefs) && prefs.confirm_zero === false);
  }

  // The form from the stored choices (or the ruleset's defaults), as the shell built it.
  function reset() {
    const saved = storedSetup(), all = radios();
    if (!all.length) return;
    const game = preferred() || saved.game || all[0].value;
    for (const r of all) r.checked = r.value === game;
    renderOptions(saved.game === game ? saved.options : {});
    rowsBox.replaceChildren();
    const g = spec(), ids = seatIds(g);
    for (const p of (saved.players || g.players).slice(0, g.max)) {
      addRow(p.name, ids.includes(p.seat) ? p.seat : "human");
    }
    while (rows().length < g.min) addRow(undefined, ids.includes("simple") ? "simple" : "human");
    refresh();
    updateRules();
    askZero();
    // ?dice=real: "Avec de vrais dés" ticked (web/app/shell.py reads the same parameter)
    const real = document.getElementById("real-dice");
    if (real && !real.disabled) real.checked = params.get("dice") === "real";
    if (start) { start.textContent = START_TEXT; start.removeAttribute("aria-busy"); }
    delete form.dataset.pending;
  }

  // --- events (this script's listeners come first: the shell's run after them) ----------
  document.getElementById("ruleset-choices").addEventListener("change", () => {
    renderOptions({});
    refresh();
    updateRules();
  });
  optionsBox.addEventListener("change", updateRules);
  addButton.addEventListener("click", () => addRow());
  rowsBox.addEventListener("click", (event) => {
    const button = event.target.closest?.(".remove");
    if (!button || !rowsBox.contains(button) || rows().length <= spec().min) return;
    button.closest("li").remove();
    refresh();
  });
  let retried = false;  // a first visit's download was tried again (below)
  form.addEventListener("submit", (event) => {
    event.preventDefault();  // never a navigation; the shell starts the game
    if (form.dataset.owner === "python") return;
    form.dataset.pending = "1";
    if (start) {
      start.textContent = t(retried ? "js.setup.retrying" : "js.setup.starting");
      start.setAttribute("aria-busy", "true");
    }
    const live = document.getElementById("live");
    if (live) live.textContent = t(retried ? "js.boot.retrying" : "js.setup.starting.live");
  });
  // A first visit's download tried again (js/pyodide-fast.mjs): a player waiting on
  // Commencer is told why it takes longer (the button, and the status line in full),
  // whether the download was tried again before or after the press.
  addEventListener("pygames:retrying", () => {
    retried = true;
    if (!form.dataset.pending || form.dataset.owner === "python") return;
    if (start) start.textContent = t("js.setup.retrying");
    const live = document.getElementById("live");
    if (live) live.textContent = t("js.boot.retrying");
  });

  pygames.setup.reset = reset;
  try {
    reset();
  } catch { /* the build's defaults stay */ }
  if (embed && fixedGame) {  // the embedder's choices (the shell's _embed_setup does the same)
    form.querySelector("fieldset.rulesets").hidden = true;
    const title = form.querySelector("input[name=ruleset]:checked + span strong");
    if (title) document.getElementById("setup-title").textContent = title.textContent;
    if (params.has("options")) optionsBox.parentNode.hidden = true;
  }
  let saved = null;
  try { saved = localStorage.getItem(early.keys.match); } catch { /* none */ }
  const startsAtOnce = (embed && params.has("players")) || early.replay;  // no setup first
  if (body.dataset.early !== "view" && (saved === null || params.has("fresh")) && !startsAtOnce) {
    document.getElementById("setup-title")?.setAttribute("elementtiming", "pygames-setup");  // e2e/bench/bench_early.py
    setup.hidden = false;
    const loading = document.getElementById("loading");
    if (loading) loading.hidden = true;
    body.dataset.early = "setup";
    pygames.earlyAt = performance.now();
  }
  // Python failed to start (js/boot.js shows the error): no setup that cannot start.
  const error = document.getElementById("error");
  if (error) {
    new MutationObserver(() => {
      if (!error.hidden && !body.dataset.ready) setup.hidden = true;
    }).observe(error, { attributes: true, attributeFilter: ["hidden"] });
  }
})();
