"""The day's challenge ("Défi du jour") on a game page: one try per day and game, on the
day's dice (pygames.core.DailySampler), the same for everyone.

* ``?daily=YYYY-MM-DD`` opens that day's challenge (``?daily`` alone: today's); the setup's "Défi du jour" button
  opens today's (the visitor's local date).  A date that does not parse gets a notice in
  the page's language and changes nothing.
* Yams: a solitaire sheet of the ruleset chosen on the setup; the other games: the person
  against the expert computer.  The game lives in the page's saved-game slot like any
  other (a reload resumes it) and carries its date in its record (``"daily"``).
* One try: the day's entry is written in `daily_store.DAILY_KEY` when the game starts; a
  finished game is "done", a game left is "abandoned" (seen the next time the day is
  asked for); asking again shows the result and the share, never a new game.
* The share: a short text (game, date, result, a picture in plain characters) and the
  replay link; copied to the clipboard, or handed to ``navigator.share`` where there is one.
* Counted apart from the other games: the statistics dialog has its own section
  (`render_stats`): the best day, the streak of days played, the history.
"""

import daily_store
from dom import by_id, clear, copy_text, document, el, on, query_params, show, spawn, storage, to_js, window
from guard import BadStored, check_saved_match, read_json
from replay import KEY as REPLAY_KEY
from replay import encode
from replay_view import page_url

from pygames import GameError, Match, Player, parse_daily
from pygames.core import default_name
from pygames.messages import text


def local_today() -> str:
    """Today in the visitor's own time zone (the same challenge for everyone on that date)."""
    now = window.Date.new()
    return daily_store.today(int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))


class Daily:
    def __init__(self, shell):
        self.shell = shell
        self.family = shell.family
        self.share = ""  # the share text shown
        self.match_daily = None  # the date of the game on the table (None: not a daily)

    def bind(self):
        if by_id("daily-start"):
            on(by_id("daily-start"), "click", lambda e: self.open(local_today()))
        if by_id("daily-copy"):
            on(by_id("daily-copy"), "click", lambda e: self._copy())
            on(by_id("daily-native"), "click", lambda e: self._native())
            on(by_id("daily-new"), "click", lambda e: self.shell.show_setup())
            show(by_id("daily-native"), bool(getattr(window.navigator, "share", None)))

    # --- the store ----------------------------------------------------------------------

    def read(self) -> dict:
        raw = storage.get(daily_store.DAILY_KEY)
        try:
            return daily_store.load(raw)
        except BadStored as err:  # set aside, never an obstacle
            self.shell.set_aside(daily_store.DAILY_KEY, raw)
            self.notice(text("site.daily.set_aside", why=str(err)))
            return daily_store.empty()

    def write(self, store) -> None:
        storage.set(daily_store.DAILY_KEY, daily_store.dumps(store))

    def notice(self, message) -> None:
        note = by_id("daily-notice")
        if note:
            note.textContent = message or ""
            show(note, bool(message))

    # --- opening a day --------------------------------------------------------------------

    def start(self, saved) -> bool:
        """At start-up: ``?daily=`` asks for a day. True if the page shows it (the game is
        resumed by the shell when the saved game is that day's, unfinished)."""
        raw = query_params().get("daily")
        if raw is None:
            return False
        try:
            date = local_today() if raw == "" else parse_daily(raw)  # ?daily alone: today
        except GameError as err:
            self.notice(str(err))
            return False
        return self.open(date, saved, at_start=True)

    def _saved_game(self, saved):
        """(its daily date or None, finished) of the saved game; (None, True) if none."""
        if saved is None:
            return None, True
        try:
            record = check_saved_match(read_json(saved)).get("record") or {}
            date = record.get("daily") if isinstance(record, dict) else None
            match = self.shell.match
            if match is not None and match.to_record().get("actions") == record.get("actions"):
                return date, match.state.is_terminal()
            return date, False
        except Exception:
            return None, True

    def open(self, date, saved=None, at_start=False) -> bool:
        if not at_start:
            saved = storage.get(self.shell.store_key)
        self.notice(None)
        store = self.read()
        found = daily_store.entry(store, self.family.id, date)
        saved_date, saved_over = self._saved_game(saved)
        if saved_date == date and (found is None or found["status"] == "playing"):
            if found is None:  # (the store was lost or set aside: the saved game is that try)
                self.write(daily_store.started(store, self.family.id, date, self.family.games[0].id))
            if at_start:
                return False  # the shell resumes it
            if self.shell.match is not None and self.shell.match.daily == date:
                self.shell._resumed()
                return True
            try:
                self.shell._resume(check_saved_match(read_json(saved)))
            except Exception:
                self.show_done(date, daily_store.entry(store, self.family.id, date))
            return True
        if found is not None:
            if found["status"] == "playing":  # left for another game: that was the try
                store = daily_store.abandoned(store, self.family.id, date)
                self.write(store)
                found = daily_store.entry(store, self.family.id, date)
            self.show_done(date, found)
            return True
        if saved is not None and not saved_over:
            from ask import ask

            ask(text("site.daily.replace.title"), text("site.daily.replace.text"),
                text("site.daily.replace.accept"), lambda: self.begin(date),
                cancel=text("site.daily.replace.cancel"))
            return False  # the saved game is resumed meanwhile
        self.begin(date)
        return True

    def begin(self, date):
        """Start the day's challenge: the chosen ruleset, the person (and the expert)."""
        shell = self.shell
        game, options = shell._setup_choice()
        names = shell.setup_names() if shell.setup_rows else []
        name = names[0] if names else str(default_name(1, "human"))
        players = [Player(name, "human")]
        if game.min_players > 1:
            seat = "expert" if "expert" in game.seats else game.seats[-1]
            players.append(Player(str(default_name(2, seat)), seat))
        try:
            match = Match(game, players, options, None, undo=True, daily=date)
        except GameError as err:
            self.notice(str(err))
            return
        self.write(daily_store.started(self.read(), self.family.id, date, game.id))
        shell._begin(match)

    # --- on the table and at the end ------------------------------------------------------

    def adopt(self, match):
        """The table says it is the day's challenge (a badge above it)."""
        self.match_daily = getattr(match, "daily", None)
        badge = by_id("daily-badge")
        if badge is not None:
            badge.textContent = text("site.daily.badge", date=self.match_daily) if self.match_daily else ""
            show(badge, bool(self.match_daily))
        show(by_id("daily-share"), False)

    def screen(self, name):
        """The badge shows with the day's game (its table and its end screen) only."""
        badge = by_id("daily-badge")
        if badge is not None:
            show(badge, bool(self.match_daily) and name in ("table", "end") and self.shell.replay is None)

    def finished(self, match):
        """A day's challenge is over: kept as played, its share shown on the end screen."""
        try:
            score = match.state.scores()[0]
            result = daily_store.outcome_result(match)
            picture = daily_store.picture(match)
            data = encode(match.to_record())
            store = daily_store.finished(self.read(), self.family.id, match.daily, match.game.id,
                                         result=result, score=score, picture=picture, replay=data)
            self.write(store)
            found = daily_store.entry(store, self.family.id, match.daily)
        except Exception as err:  # the end screen is drawn already: the share is a bonus
            self.notice(text("site.daily.not_kept", why=str(err)[:80]))
            return
        self._fill_share(match.daily, found, by_id("end"), by_id("ranking"))

    def _score_text(self, found) -> str:
        if found["score"] is None:
            return ""
        try:
            return str(text(self.shell.view.score_text(0, found["score"])))
        except Exception:
            return str(found["score"])

    def _fill_share(self, date, found, parent, after):
        box = by_id("daily-share")
        if box is None:
            return
        games = {g.id: g for g in self.family.games}
        game = games.get(found["game"])
        title = str(text(game.title if game is not None else self.family.title))
        link = page_url() + "#" + REPLAY_KEY + found["replay"] if found["replay"] else ""
        self.share = daily_store.share_text(title, date, found["result"], self._score_text(found),
                                            found["picture"], link)
        # Shown without the link (a long line of letters: "Voir la partie" is it); copied with it.
        by_id("daily-share-text").textContent = daily_store.share_text(
            title, date, found["result"], self._score_text(found), found["picture"], "")
        watch = by_id("daily-watch")
        watch.setAttribute("href", link or "#")
        show(watch, bool(link))
        by_id("daily-status").textContent = ""
        if box.parentNode is not parent:
            parent.insertBefore(box, after.nextSibling if after is not None else None)
        show(box, True)

    def show_done(self, date, found):
        """The day's try is used: its result and share, not a new game."""
        shell = self.shell
        section = by_id("daily")
        shell.show_screen("daily")
        by_id("daily-title").textContent = text("site.daily.done.title", date=date)
        result = (daily_store.result_text(None, found["result"], self._score_text(found))
                  if found["status"] == "done" else text("site.daily.result.abandoned"))
        by_id("daily-result").textContent = result
        clear(by_id("daily-stats"))
        store = self.read()
        by_id("daily-stats").textContent = text("site.daily.streak", n=daily_store.streak(store, None, local_today()))
        self._fill_share(date, found, section, by_id("daily-stats"))
        show(by_id("daily-share"), found["status"] == "done")
        shell.announce(by_id("daily-title").textContent + ". " + result)
        by_id("daily-title").focus()

    # --- sharing ----------------------------------------------------------------------------

    def _copy(self):
        copy_text(self.share, self._copied)

    def _copied(self, ok):
        if not ok:
            self._select()
        by_id("daily-status").textContent = text("site.daily.copied" if ok else "site.daily.copy_failed")

    def _select(self):
        node = by_id("daily-share-text")
        selection = window.getSelection()
        if selection:
            selection.selectAllChildren(node)

    def _native(self):
        if not getattr(window.navigator, "share", None):
            return
        data = to_js({"text": self.share})
        spawn(self._shared(window.navigator.share(data)))

    async def _shared(self, promise):
        try:
            await promise
        except Exception:
            pass  # (the person closed the share sheet)

    # --- the statistics -----------------------------------------------------------------------

    def render_stats(self, body):
        """The statistics dialog's section: the best day, the streak, the history."""
        store = self.read()
        days = daily_store.history(store, self.family.id)
        section = el("section", None, "stats-daily", aria_label=text("site.daily.stats.title"))
        section.appendChild(el("h3", text("site.daily.stats.title")))
        if not days:
            section.appendChild(el("p", text("site.daily.stats.none"), "hint"))
            body.insertBefore(section, body.firstChild)
            return
        section.appendChild(el("p", text("site.daily.streak", n=daily_store.streak(store, self.family.id,
                                                                                      local_today()))))
        lower = self.shell.view.stats_value(-1) > 0  # (the 421: fewer tokens is better)
        top = daily_store.best(store, self.family.id, lower)
        if top is not None:
            section.appendChild(el("p", text("site.daily.stats.best", date=top[0],
                                             result=self._result(top[1]))))
        listing = el("ol", None, "stats-games daily-history")
        for date, found in days[:30]:
            item = el("li")
            item.appendChild(el("time", date, "stats-when", datetime=date))
            item.appendChild(el("span", " " + self._result(found), "stats-scores"))
            if found["replay"]:
                item.appendChild(document_text(" "))
                item.appendChild(el("a", text("site.daily.watch"),
                                    href=page_url() + "#" + REPLAY_KEY + found["replay"]))
            listing.appendChild(item)
        section.appendChild(listing)
        body.insertBefore(section, body.firstChild)

    def _result(self, found) -> str:
        if found["status"] == "abandoned":
            return text("site.daily.result.abandoned")
        if found["status"] == "playing":
            return text("site.daily.result.playing")
        return daily_store.result_text(None, found["result"], self._score_text(found))


def document_text(value):
    return document.createTextNode(value)
