"""The Statistiques dialog of every game page, and the recording of each finished game.

The figures come from web/app/stats.py (pure, unit-tested); this module reads and writes
its store (`stats.STATS_KEY`, one for the whole site), records a game when the shell
shows its end screen, and draws the dialog: per ruleset of this page's game, the games
played, each name's wins, best and average scores, what the view counts as highlights
(its optional `highlights(match)` hook, e.g. {"Yams": 2}), a chart of the scores (SVG
built node by node, with a text alternative) and the last games; export, import and
clear.  Nothing here may stop a game: a store it cannot read is set aside (as the shell
does for any stored value) with a notice, and a store it cannot write leaves the
end screen as it is, with a note.

View hooks (optional): `highlights(match)` → {label: count} for a finished game, a label
being a catalogue id (e.g. {"site.highlight.yams_made": 2}, summed over the games of a
ruleset; a French label of an older page is read as its id, stats.LEGACY_HIGHLIGHTS);
`stats_value(score)` → the number a player reads for a game score (the 421 counts tokens,
fewer is better: its scores are minus the tokens) and `stats_unit` (e.g. "jetons": the
catalogue's ``site.stats.unit.jetons``);
`stats_columns` and `stats_record` (view.py): each player's figures in the game's sense of
better.  Every figure is a player's (a name's), never a mean over every seat: the headline
is the record and who holds it; the chart alone shows every seat's scores, and says so.
"""


import stats
from ask import ask
from dom import by_id, clear, document, el, later, on, row, set_text, show, spawn, storage, to_js, window
from guard import BadStored, read_json, short

from pygames.messages import Msg, Name, Series, catalogue, render, text

SVG = "http://www.w3.org/2000/svg"
CHART_W, CHART_H, CHART_TOP, CHART_BOTTOM = 320, 130, 16, 22


def svg(tag, **attrs):
    node = document.createElementNS(SVG, tag)
    for name, value in attrs.items():
        node.setAttribute(name.rstrip("_").replace("_", "-"), str(value))
    return node


def unit_text(unit: str) -> str:
    """The name of a view's `stats_unit`: ``site.stats.unit.<unit>`` ("points", "jetons"),
    or the unit as a catalogue id of its own (else as it is)."""
    key = f"site.stats.unit.{unit}"
    return text(key if catalogue().get(key) is not None else unit)


def said_text(said) -> str:
    """A stored score as shown: its message's text, or the stored text as it is."""
    return text(said) if isinstance(said, Msg) else str(said)


class StatsView:
    def __init__(self, shell):
        self.shell = shell
        self.dialog = None
        self.newer = False  # the stored statistics are a newer version's: never written

    # --- start-up ---------------------------------------------------------------------

    def bind(self):
        """Wire the dialog (if the page has one) and check the store at once, so that a
        corrupt one is reported and replaced before anything needs it."""
        opener = by_id("open-stats")
        self.dialog = by_id("stats") or None  # (a missing node is a JS null, falsy, not None)
        if not opener or not self.dialog:
            self.dialog = None
            return  # the embed page keeps no statistics
        on(opener, "click", lambda e: self.open())
        on(by_id("stats-export"), "click", lambda e: self.export())
        on(by_id("stats-clear"), "click", lambda e: self.clear_all())
        on(by_id("stats-import"), "change", self._on_import)
        on(by_id("stats-trouble-ok"), "click", lambda e: show(by_id("stats-trouble"), False))
        on(window, "pygames-storage-refused", self._on_refused)
        again = by_id("again")
        if again and not by_id("end-stats"):
            button = el("button", text("site.stats.button"), "ghost", type="button", id="end-stats",
                        aria_haspopup="dialog")
            again.parentNode.appendChild(button)
            on(button, "click", lambda e: self.open())
        try:
            self.read()
        except Exception:
            pass  # never in the way of a game

    def read(self):
        """The store; a corrupt one is set aside, reported, and an empty one is used. One
        of a newer version is kept as it is (`write` then refuses) and the page asks to
        update."""
        raw = storage.get(stats.STATS_KEY)
        try:
            return stats.load(raw)
        except stats.NewerStats:
            self.newer = True
            self._trouble(text("site.stats.newer"))
            return stats.empty()
        except BadStored as err:
            why = str(err)
        except Exception:
            why = text("site.bad.value_unreadable")
        self.shell.set_aside(stats.STATS_KEY, raw)
        self._trouble(text("site.stats.set_aside", why=short(why, 120)))
        return stats.empty()

    def write(self, store):
        if self.newer:
            return False  # never over a newer version's store
        return storage.set(stats.STATS_KEY, stats.dumps(store))

    def _trouble(self, text):
        box = by_id("stats-trouble")
        if not box:
            return
        by_id("stats-trouble-text").textContent = text
        show(box, True)
        if self.dialog is not None and self.dialog.open:
            self._notice(text)

    # --- recording (the shell's end screen) -----------------------------------------

    def record(self, match):
        """Count a finished game once; never raises (the end screen is already drawn)."""
        if self.dialog is None:
            return
        try:
            self._record(match)
        except Exception as err:  # the game is over and shown: statistics are a bonus
            self._end_note(text("site.stats.not_counted", why=short(str(err), 80)))

    def _record(self, match):
        view = self.shell.view
        scores = match.state.scores()
        texts = []
        for p, score in enumerate(scores):
            try:
                texts.append(view.score_text(p, score))
            except Exception:
                texts.append(str(score))
        try:
            marks = {str(k): int(v) for k, v in (view.highlights(match) or {}).items()}
        except Exception:
            marks = {}
        args = stats.from_match(match, str(window.Date.new().toISOString()), texts, marks)
        store, added = stats.record_match(self.read(), **args)
        if not added:
            self._end_note(None)
            return
        if self.write(store):
            self._end_note(None)
            if self.dialog.open:
                self.render()
        elif self.newer:
            self._end_note(text("site.stats.not_counted_newer"))
        else:
            self._end_note(text("site.stats.not_added_full"))

    def _on_refused(self, event):
        """The statistics' write refused after the fact (the page's Python in a worker, whose
        copy of the storage took it: web/worker/worker_host.py): said as a refusal on the
        spot is (`_record`)."""
        if event.key == stats.STATS_KEY and not self.newer:
            self._end_note(text("site.stats.not_added_full"))

    def _end_note(self, text):
        note = by_id("stats-end-note")
        if not note:
            ranking = by_id("ranking")
            if not ranking:
                return
            note = el("p", None, "hint", id="stats-end-note")
            ranking.parentNode.insertBefore(note, ranking.nextSibling)
        note.textContent = text or ""
        show(note, bool(text))

    # --- the dialog -------------------------------------------------------------------

    def open(self):
        self._notice(None)
        show(by_id("stats-trouble"), False)
        self.render()
        if not self.dialog.open:
            self.dialog.showModal()

    def _notice(self, text):
        note = by_id("stats-notice")
        note.textContent = text or ""
        show(note, bool(text))

    def render(self):
        store = self.read()
        body = by_id("stats-body")
        clear(body)
        family = self.shell.family
        counted = False
        for game in family.games:
            summary = stats.summary(store, game.id)
            section = el("section", None, "stats-ruleset", aria_label=game.title)
            if len(family.games) > 1 or summary is None:
                section.appendChild(el("h3", game.title))
            if summary is None:
                if len(family.games) > 1:
                    section.appendChild(el("p", text("site.stats.none_ruleset"), "hint"))
                    body.appendChild(section)
            else:
                counted = True
                self._ruleset(section, game, summary, store)
                body.appendChild(section)
            # the games played with real dice, counted apart
            real = stats.summary(store, game.id + stats.REAL)
            if real is not None:
                counted = True
                title = text("site.stats.real_ruleset", title=str(game.title))
                section = el("section", None, "stats-ruleset stats-real", aria_label=title)
                section.appendChild(el("h3", title))
                self._ruleset(section, game, real, store, game.id + stats.REAL)
                body.appendChild(section)
        if not counted:
            body.insertBefore(el("p", text("site.stats.none"), "hint"), body.firstChild)
        self._history(body, store)
        self.shell.daily.render_stats(body)  # the day's challenges, counted apart (daily.py)
        by_id("stats-clear").disabled = stats.is_empty(store)

    def _value(self, score):
        return self.shell.view.stats_value(score)

    def _fmt(self, score):
        return stats.shown_number(None if score is None else self._value(score))

    def _ruleset(self, section, game, summary, store, key=None):
        view = self.shell.view
        unit = unit_text(view.stats_unit)
        facts = el("dl", None, "stats-facts")
        items = [(text("site.stats.played"), str(summary["played"]))]
        record = summary["record"]
        if record and view.stats_record:  # one player's best, never a mean of every seat
            items.append((text("site.stats.record", unit=unit),
                          f"{self._fmt(record['score'])}, {', '.join(record['names'])}"))
        items += [(stats.highlight_label(label), str(n)) for label, n in summary["highlights"].items()]
        for term, value in items:
            box = el("div")
            box.appendChild(el("dt", term))
            box.appendChild(el("dd", value))
            facts.appendChild(box)
        section.appendChild(facts)
        # Each name's line.
        table = el("table", None, "stats-players")
        sense = text("site.stats.sense" if view.stats_record else "site.stats.sense_fewer", unit=unit)
        table.appendChild(el("caption", text("site.stats.players_caption", title=str(game.title), sense=sense)))
        thead = el("thead")
        heads = {"best": "site.stats.col.best", "average": "site.stats.col.average"}
        columns = [c for c in view.stats_columns if c in heads]
        thead.appendChild(row(tuple(text(f"site.stats.col.{c}") for c in ("player", "played", "wins", "rate"))
                              + tuple(text(heads[c]) for c in columns), tag="th", scope="col"))
        table.appendChild(thead)
        tbody = el("tbody")
        for p in summary["players"]:
            cell = el("th", None, scope="row")
            cell.appendChild(el("bdi", p["name"], "name"))
            rate = "—" if p["rate"] is None else text("format.percent", n=round(100 * p["rate"]))
            tbody.appendChild(row((cell, str(p["played"]), str(p["wins"]), rate)
                                  + tuple(self._fmt(p[c]) for c in columns)))
        table.appendChild(tbody)
        # Scrolls sideways on a narrow phone; focusable, so the keyboard can scroll it too.
        wrap = el("div", None, "stats-scroll", tabindex="0", role="region",
                  aria_label=text("site.stats.players_region", title=str(game.title)))
        wrap.appendChild(table)
        section.appendChild(wrap)
        scores = store["rulesets"][key or game.id]["scores"]
        section.appendChild(self._chart(game, [self._value(s) for s in scores], unit))

    def _chart(self, game, values, unit):
        """Bars of the score distribution; the figure's text (and a table) say the same."""
        bins = stats.histogram(values)
        figure = el("figure", None, "stats-chart")
        label = text("site.stats.chart_many" if len(values) > 1 else "site.stats.chart_one",
                     n=len(values), unit=unit, title=str(game.title))
        caption = el("figcaption", label)
        words = "; ".join(text("site.stats.chart_bin", range=self._range(lo, hi), n=n) for lo, hi, n in bins)
        top = max((n for _, _, n in bins), default=1) or 1
        drawing = svg("svg", viewBox=f"0 0 {CHART_W} {CHART_H}", role="img",
                      aria_label=f"{label}. {words}.", focusable="false")
        drawing.setAttribute("class", "chart")
        title = svg("title")
        title.textContent = f"{label}. {words}."
        drawing.appendChild(title)
        step = CHART_W / max(1, len(bins))
        usable = CHART_H - CHART_TOP - CHART_BOTTOM
        drawing.appendChild(svg("line", x1=0, x2=CHART_W, y1=CHART_H - CHART_BOTTOM,
                                y2=CHART_H - CHART_BOTTOM, class_="axis"))
        for i, (lo, hi, n) in enumerate(bins):
            h = round(usable * n / top, 1)
            x = round(i * step + step * 0.12, 1)
            base = CHART_H - CHART_BOTTOM
            drawing.appendChild(svg("rect", x=x, y=round(base - h, 1), width=round(step * 0.76, 1),
                                    height=h, class_="bar"))
            count = svg("text", x=round(x + step * 0.38, 1), y=round(base - h - 3, 1), class_="count")
            count.textContent = str(n)
            drawing.appendChild(count)
            tick = svg("text", x=round(x + step * 0.38, 1), y=CHART_H - 6, class_="tick")
            tick.textContent = stats.shown_number(lo)
            drawing.appendChild(tick)
        figure.appendChild(drawing)
        figure.appendChild(caption)
        # The same figures as a table, for whoever prefers to read them.
        details = el("details", None, "stats-chart-table")
        details.appendChild(el("summary", text("site.stats.see_figures")))
        table = el("table")
        table.appendChild(row((text("site.stats.col.score", unit=unit), text("site.stats.col.count")),
                             tag="th", scope="col"))
        for lo, hi, n in bins:
            table.appendChild(row((self._range(lo, hi), str(n))))
        details.appendChild(table)
        figure.appendChild(details)
        return figure

    @staticmethod
    def _range(lo, hi):
        number = stats.shown_number
        return number(lo) if lo == hi else text("site.stats.range", lo=number(lo), hi=number(hi))

    def _history(self, body, store):
        games = stats.recent(store, self.shell.family.id)
        if not games:
            return
        titles = {g.id: g.title for g in self.shell.family.games}
        titles.update({key + stats.REAL: text("site.stats.real_ruleset", title=str(title))
                       for key, title in list(titles.items())})
        section = el("section", None, "stats-history")
        section.appendChild(el("h3", text("site.stats.recent")))
        listing = el("ol", None, "stats-games")
        for entry in games:
            item = el("li")
            when = window.Date.new(entry["date"])
            # The page's language says how a date is written (fr: 03/12/2026 17:30).
            shown = when.toLocaleString(document.documentElement.lang or "fr",
                                        to_js({"dateStyle": "short", "timeStyle": "short"}))
            item.appendChild(el("time", str(shown), "stats-when",
                                datetime=entry["date"]))
            if len(self.shell.family.games) > 1 or entry["game"].endswith(stats.REAL):
                item.appendChild(el("span", titles.get(entry["game"], entry["game"]), "stats-rules"))
            players = el("span", None, "stats-scores")
            for i, p in enumerate(entry["players"]):
                if i:
                    players.appendChild(document.createTextNode(", "))
                players.appendChild(el("bdi", p["name"], "name"))
                players.appendChild(document.createTextNode(f" {said_text(stats.said(p))}"))
            item.appendChild(players)
            if entry["winners"]:
                who = el("span", None, "stats-winner")
                names = Series(Name(name) for name in entry["winners"])
                set_text(who, render("site.stats.draw" if entry["draw"] else "site.stats.winners",
                                     players=names, n=len(names)))
                item.appendChild(who)
            listing.appendChild(item)
        section.appendChild(listing)
        body.appendChild(section)

    # --- export, import, clear --------------------------------------------------------

    def export(self):
        store = self.read()
        data = stats.dumps(store, indent=1)
        blob = window.Blob.new([data], {"type": "application/json"})
        url = window.URL.createObjectURL(blob)
        name = text("site.stats.file")
        link = el("a", None, href=url, download=name)
        document.body.appendChild(link)
        link.click()
        link.remove()
        later(1000, lambda: window.URL.revokeObjectURL(url))
        self._notice(text("site.stats.exported_file", file=name))
        self.shell.announce(text("site.stats.exported"))

    def clear_all(self):
        store = self.read()
        if stats.is_empty(store):
            return
        ask(text("site.stats.clear_title"), text("site.stats.clear_text"),
            text("site.stats.clear_button"), lambda: self._clear(self.read()))

    def _clear(self, store):
        if self.write(stats.cleared(store)):
            self.render()
            self._notice(text("site.stats.cleared"))
        else:
            self._notice(text("site.stats.not_cleared"))
        self.shell.announce(by_id("stats-notice").textContent)

    def _on_import(self, event):
        files = event.target.files
        if files and files.length:
            spawn(self._import(files.item(0), event.target))

    async def _import(self, file, field):
        try:
            try:
                if file.size > stats.MAX_TEXT:
                    raise stats.BadStats("site.bad.file_too_big")
                value = read_json(await file.text(), stats.MAX_TEXT, stats.MAX_DEPTH)
                current = self.read()
                new = stats.imported(current, value)
            except BadStored as err:
                raise stats.BadStats(err.message) from None
            except stats.BadStats:
                raise
            except Exception:
                raise stats.BadStats("site.bad.file_unreadable") from None
        except stats.BadStats as err:
            self._notice(text("site.stats.import_failed", why=short(str(err), 120)))
            self.shell.announce(by_id("stats-notice").textContent)
            field.value = ""
            return
        field.value = ""
        if stats.is_empty(current):
            self._take(new)
            return
        ask(text("site.stats.replace_title"), text("site.stats.replace_text"),
            text("site.stats.replace_button"), lambda: self._take(new),
            on_cancel=lambda: self._notice(text("site.stats.import_cancelled")))

    def _take(self, new):
        if self.write(new):
            self.render()
            self._notice(text("site.stats.imported"))
        else:
            self._notice(text("site.stats.not_saved_full"))
        self.shell.announce(by_id("stats-notice").textContent)

