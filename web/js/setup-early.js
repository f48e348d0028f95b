// The setup screen, usable before Python is (a classic script at the end of <main>, after
// js/view-early.js). The form is plain HTML written by web/build.py from the registry; this
// script keeps it working for the whole life of the page, before and after Python: the
// ruleset changes its options (a <template> per ruleset) and the seats offered, player rows
// are added and removed within the ruleset's range, and the last setup's choices come back
// from localStorage (pygames:<id>:setup, checked as app/guard.py's check_setup does; a bad
// value is ignored). "Commencer la partie" before Python is ready marks the form as pending
// ("Démarrage…"): the shell (app/shell.py) reads the form as it is when it starts and begins
// the game at once. The shell asks for pygamesSetup.reset() when it shows the setup again.
(function () {
  "use strict";
  var form = document.getElementById("setup-form");
  var dataNode = document.getElementById("setup-data");
  var early = window.pygamesEarly;
  if (!form || !dataNode || !early) return;
  var data;
  try { data = JSON.parse(dataNode.textContent); } catch (err) { return; }
  var rulesets = data.rulesets || {};
  var body = document.body;
  var params = new URLSearchParams(location.search);
  var setup = document.getElementById("setup");
  var rowsBox = document.getElementById("player-rows");
  var optionsBox = document.getElementById("option-choices");
  var addButton = document.getElementById("add-player");
  var start = document.getElementById("start");
  var START_TEXT = start ? start.textContent : "";
  var embed = body.hasAttribute("data-embed");
  // An embed URL with options or players fixes the ruleset too (the first one by default).
  var fixedGame = embed && (params.has("game") || params.has("options") || params.has("players"));

  function radios() { return Array.prototype.slice.call(form.querySelectorAll("input[name=ruleset]")); }
  function rows() { return Array.prototype.slice.call(rowsBox.children); }
  function chosen() {
    var all = radios();
    var on = all.filter(function (r) { return r.checked; })[0] || all[0];
    return on ? on.value : Object.keys(rulesets)[0];
  }
  function spec() { return rulesets[chosen()] || { min: 1, max: 6, seats: [["human", "Humain"]], options: [], players: [] }; }
  function seatIds(game) { return game.seats.map(function (s) { return s[0]; }); }

  function validValue(opt, value) {
    if (!opt.choices.length) return typeof value === "boolean";
    return opt.choices.some(function (c) { return typeof c === typeof value && c === value; });
  }

  // --- the form -------------------------------------------------------------------------
  function renderOptions(values) {
    var game = spec(), template = document.getElementById("options-" + chosen());
    if (!template) return;
    optionsBox.replaceChildren(template.content.cloneNode(true));
    game.options.forEach(function (opt) {
      var node = optionsBox.querySelector('[data-option="' + CSS.escape(opt.id) + '"]');
      if (!node || !values || !Object.prototype.hasOwnProperty.call(values, opt.id)) return;
      var value = values[opt.id];
      if (!validValue(opt, value)) return;
      if (node.type === "checkbox") node.checked = value === true;
      else node.value = String(value);
    });
  }

  function fillSeats(select, seat) {
    var game = spec(), ids = seatIds(game);
    if (ids.indexOf(seat) < 0) seat = "human";
    select.replaceChildren();
    game.seats.forEach(function (s) {
      var option = document.createElement("option");
      option.value = s[0];
      option.textContent = s[1];
      option.selected = s[0] === seat;
      select.appendChild(option);
    });
  }

  function refresh() {
    var game = spec(), all = rows(), ids = seatIds(game);
    all.forEach(function (row, i) {
      var n = i + 1, name = row.querySelector("input"), seat = row.querySelector("select");
      name.setAttribute("aria-label", "Nom du joueur " + n);
      seat.setAttribute("aria-label", "Joueur " + n + " : humain ou ordinateur");
      var offered = Array.prototype.map.call(seat.options, function (o) { return o.value; });
      if (offered.join() !== ids.join()) fillSeats(seat, seat.value);
      row.querySelector(".remove").disabled = all.length <= game.min;
    });
    addButton.disabled = all.length >= game.max;
  }

  function addRow(name, seat) {
    var game = spec(), template = document.getElementById("player-row");
    if (!template || rows().length >= game.max) return;
    var row = template.content.firstElementChild.cloneNode(true);
    var n = rows().length + 1;
    row.querySelector("input").value = name === undefined ? "Joueur " + n : name;
    fillSeats(row.querySelector("select"), seat || "human");
    rowsBox.appendChild(row);
    refresh();
  }

  // The Règles dialog follows the chosen ruleset and options (as the shell's _update_rules_panel).
  function updateRules() {
    var game = chosen(), values = {};
    optionsBox.querySelectorAll("[data-option]").forEach(function (node) {
      values[node.dataset.option] = node.type === "checkbox" ? node.checked : node.value;
    });
    document.querySelectorAll("#rules [data-ruleset]").forEach(function (s) {
      s.hidden = s.dataset.ruleset !== game;
    });
    document.querySelectorAll("#rules [data-option]").forEach(function (node) {
      var wanted = node.dataset.when, value = values[node.dataset.option];
      node.hidden = !(wanted === "true" || wanted === "false"
        ? Boolean(value === true || (typeof value === "string" && value !== "")) === (wanted === "true")
        : value !== undefined && String(value) === wanted);
    });
  }

  // --- the stored choices ---------------------------------------------------------------
  function readSetup() {  // {} unless the whole value is well-formed (as guard.check_setup)
    var raw = null;
    try { raw = window.localStorage.getItem(early.keys.setup); } catch (err) { return {}; }
    if (raw === null || raw.length > 100000) return {};
    var value;
    try { value = JSON.parse(raw); } catch (err) { return {}; }
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    var clean = {};
    if (value.game !== undefined && value.game !== null) {
      if (typeof value.game !== "string") return {};
      if (Object.prototype.hasOwnProperty.call(rulesets, value.game)) clean.game = value.game;
    }
    if (value.options !== undefined) {
      var options = value.options;
      if (!options || typeof options !== "object" || Array.isArray(options)) return {};
      clean.options = {};
      Object.keys(options).forEach(function (key) { clean.options[key] = options[key]; });
    }
    if (value.players !== undefined) {
      var players = value.players;
      if (!Array.isArray(players) || players.length > 20) return {};
      clean.players = [];
      for (var i = 0; i < players.length; i++) {
        var p = players[i];
        if (!p || typeof p !== "object" || Array.isArray(p)) return {};
        var name = p.name === undefined ? "" : p.name, seat = p.seat === undefined ? "human" : p.seat;
        if (typeof name !== "string" || typeof seat !== "string") return {};
        clean.players.push({ name: name.slice(0, 40), seat: seat.slice(0, 20) });
      }
    }
    return clean;
  }

  function preferred() {
    var wanted = (params.get("game") || "").trim();
    if (Object.prototype.hasOwnProperty.call(rulesets, wanted)) return wanted;
    return fixedGame ? radios()[0].value : null;
  }

  // A device preference of the setup (web/build.py's SETUP_PREFERENCES): as stored in
  // pygames:prefs (app/prefs.py; anything but false asks).
  function askZero() {
    var box = document.getElementById("ask-zero");
    if (!box) return;
    var prefs = null;
    try { prefs = JSON.parse(window.localStorage.getItem("pygames:prefs")); } catch (err) { /* asks */ }
    box.checked = !(prefs && typeof prefs === "object" && prefs.confirm_zero === false);
  }

  // The form from the stored choices (or the ruleset's defaults), as the shell built it.
  function reset() {
    var saved = readSetup(), all = radios();
    if (!all.length) return;
    var game = preferred() || saved.game || all[0].value;
    all.forEach(function (r) { r.checked = r.value === game; });
    renderOptions(saved.game === game ? saved.options : {});
    rowsBox.replaceChildren();
    var g = spec(), ids = seatIds(g);
    (saved.players || g.players).slice(0, g.max).forEach(function (p) {
      addRow(p.name, ids.indexOf(p.seat) >= 0 ? p.seat : "human");
    });
    while (rows().length < g.min) addRow(undefined, ids.indexOf("simple") >= 0 ? "simple" : "human");
    refresh();
    updateRules();
    askZero();
    if (start) { start.textContent = START_TEXT; start.removeAttribute("aria-busy"); }
    delete form.dataset.pending;
  }

  // --- events (this script's listeners come first: the shell's run after them) ----------
  document.getElementById("ruleset-choices").addEventListener("change", function () {
    renderOptions({});
    refresh();
    updateRules();
  });
  optionsBox.addEventListener("change", updateRules);
  addButton.addEventListener("click", function () { addRow(); });
  rowsBox.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".remove");
    if (!button || !rowsBox.contains(button) || rows().length <= spec().min) return;
    button.closest("li").remove();
    refresh();
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();  // never a navigation; the shell starts the game
    if (form.dataset.owner === "python") return;
    form.dataset.pending = "1";
    if (start) {
      start.textContent = "Démarrage…";
      start.setAttribute("aria-busy", "true");
    }
    var live = document.getElementById("live");
    if (live) live.textContent = "Démarrage… La partie commence dès que le jeu est prêt.";
  });

  window.pygamesSetup = { reset: reset };
  try {
    reset();
  } catch (err) { /* the build's defaults stay */ }
  if (embed && fixedGame) {  // the embedder's choices (the shell's _embed_setup does the same)
    form.querySelector("fieldset.rulesets").hidden = true;
    var title = form.querySelector("input[name=ruleset]:checked + span strong");
    if (title) document.getElementById("setup-title").textContent = title.textContent;
    if (params.has("options")) optionsBox.parentNode.hidden = true;
  }
  var saved = null;
  try { saved = window.localStorage.getItem(early.keys.match); } catch (err) { /* none */ }
  var startsAtOnce = (embed && params.has("players")) || early.replay;  // no setup first
  if (body.dataset.early !== "view" && (saved === null || params.has("fresh")) && !startsAtOnce) {
    var title = document.getElementById("setup-title");
    if (title) title.setAttribute("elementtiming", "pygames-setup");  // measured by e2e/bench/bench_early.py
    setup.hidden = false;
    var loading = document.getElementById("loading");
    if (loading) loading.hidden = true;
    body.dataset.early = "setup";
    window.pygamesEarlyAt = performance.now();
  }
  // Python failed to start (js/boot.js shows the error): no setup that cannot start.
  var error = document.getElementById("error");
  if (error && "MutationObserver" in window) {
    new MutationObserver(function () {
      if (!error.hidden && !body.dataset.ready) setup.hidden = true;
    }).observe(error, { attributes: true, attributeFilter: ["hidden"] });
  }
})();
