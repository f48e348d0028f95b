"""Playing at a distance, by links, on a game page (the links and their rules: remote.py).

* **Handing a turn over.**  In a game of two persons or more, the *Partager* dialog offers
  *Jouer à distance*: the person to play is elsewhere.  The game becomes a game by links
  (an id, each person's seat on a device) and the page waits: the panel ``#remote`` above
  the table says whose turn it is and offers **Envoyer mon coup** (the phone's share sheet,
  ``navigator.share``, where there is one, else the clipboard; the link is shown in any
  case) and **Jouer quand même ici** (the seat comes to this device).  From then on the
  page waits, and offers the same, whenever the turn passes to a person of another device;
  the end of the game too is sent (the others see it).
* **Opening a link** (``#play=…``; a link pasted in an open page reloads it): the fragment
  is dropped from the address at once (a reload resumes the saved game, it never opens the
  link again).  If this device has the same game (its id) further on, the link is older: it
  is said and the device's game kept; if the link carries it further (or the device does
  not have it), it is taken up and what happened since is listed ("Paul a joué :"…, as the
  moves were announced); if both were played from one position, it is said plainly and the
  device's game kept, with **Prendre la partie du lien** to take the link's instead.  An
  unrelated game in progress in the page's slot is set aside only if the player agrees.
* A link that cannot be opened (damaged, forged, of another page, an illegal move) gives
  its reason above whatever the page shows, and changes nothing.

Focus: the panel's title after a link is taken up (its news are read), *Envoyer mon coup*
when the turn passes to another device; everything is said in the live region too.
"""

import remote
from ask import ask
from dom import (
    by_id,
    clear,
    copy_text,
    document,
    el,
    later,
    on,
    pieces_of,
    said,
    set_text,
    show,
    spawn,
    storage,
    to_js,
    window,
)
from guard import BadStored, check_saved_match, read_json, short
from replay import Replay, ReplayError
from replay_view import page_url

from pygames.messages import Name, Series, plain, render, text


class Remote:
    def __init__(self, shell):
        self.shell = shell
        self._ledger = None
        self.screen_name = None
        self.news = None  # [(pieces), …] of the moves a link brought, until the next move here
        self.news_players = []
        self.pending = None  # the link's game when it diverges from this device's
        self.sent = None  # the length of the history when the link was last sent

    # --- the device ---------------------------------------------------------------------

    @property
    def ledger(self):
        if self._ledger is None:
            raw = storage.get(remote.LEDGER_KEY)
            try:
                self._ledger = remote.Ledger.parse(raw)
            except BadStored:
                self.shell.set_aside(remote.LEDGER_KEY, raw)
                self._ledger = remote.Ledger()
            if raw is None:
                self._write_ledger()
        return self._ledger

    @property
    def device(self):
        return self.ledger.device

    def _write_ledger(self):
        storage.set(remote.LEDGER_KEY, self._ledger.dumps())

    def _saw(self, match):
        if match.remote is not None:
            self.ledger.saw(self.shell.family.id, match.remote["id"], len(match.history))
            self._write_ledger()

    # --- the shell's hooks --------------------------------------------------------------

    def bind(self):
        for id_, act in (("remote-send", self._send), ("remote-here", self._here), ("remote-copy", self._copy),
                         ("remote-take", self._take), ("remote-start", self._start_remote)):
            node = by_id(id_)
            if node:
                on(node, "click", lambda e, act=act: act())
        if by_id("share-open"):
            on(by_id("share-open"), "click", lambda e: self._offer_in_share())
        on(window, "hashchange", lambda e: self._on_hash_change())

    def waiting(self):
        """The person to play is on another device: this page does not play that turn."""
        match = self.shell.match
        return (match is not None and match.remote is not None and self.shell.replay is None
                and remote.waiting(match, self.device))

    def locks_undo(self):
        """No Annuler in a game by links for a decision taken on another device, nor once the
        game's link went to another device (which plays on from it)."""
        match = self.shell.match
        if match is None or match.remote is None:
            return False
        if self.sent is not None and self.sent == len(match.history):
            return True
        player = match.undo_player()
        return player is not None and match.remote["seats"][player] != self.device

    def hint_text(self):
        """The line under the table while another device plays."""
        match = self.shell.match
        return render("site.remote.elsewhere", player=Name(match.players[remote.person_to_play(match)].name))

    def screen(self, name):
        self.screen_name = name
        self.refresh()

    def played(self, actor, by_bot):
        """A move was played on this page (before it is saved): a person's seat is this
        device's from now on; the news of the last link are read."""
        match = self.shell.match
        if match.remote is None:
            return
        if not by_bot and actor is not None:
            remote.claim(match, actor, self.device)
        self.news = None
        self.pending = None
        self.sent = None
        self._saw(match)
        later(0, self._after_move)  # once the dice have landed and the move is drawn

    def _after_move(self):
        if self.waiting():  # (never before a move: this page plays only its own turns)
            self._now_waiting()
        else:
            self.refresh()

    # --- opening a link -----------------------------------------------------------------

    def _on_hash_change(self):
        if remote.from_fragment(window.location.hash) is not None:
            window.location.reload()  # the page opens it as it starts

    @staticmethod
    def _drop_fragment():
        """The link is read once: a reload resumes the game, never the link again."""
        location = window.location
        window.history.replaceState(None, "", location.pathname + location.search)

    def start(self, saved):
        """At start-up: a play link in the address. True if this takes the page over (the
        link's game is on the table, or a question is asked over the saved game)."""
        data = remote.from_fragment(window.location.hash)
        if data is None:
            return False
        self._drop_fragment()
        shell = self.shell
        try:
            match = remote.read(data, shell.family.id, shell._sampler())
        except ReplayError as err:
            self.notice(text("site.remote.refused", why=str(err)))
            return False
        except Exception:  # never a page that breaks on a link
            self.notice(text("site.remote.refused", why=text("site.replay.unreadable")))
            return False
        record, finished = self._saved_record(saved)
        theirs = match.to_record()["actions"]
        if record is not None and remote.same_game(record, match):
            how = remote.compare(record["actions"], theirs)
            if how == "newer":
                self.adopt(match, base=len(record["actions"]))
                return True
            if how == "same":
                self.notice(text("site.remote.same"))
            elif how == "older":
                self.notice(text("site.remote.older", n=len(theirs), mine=len(record["actions"])))
            else:
                self.pending = match
                self.notice(text("site.remote.diverged"), take=True)
            return False
        if self.ledger.most(shell.family.id, match.remote["id"]) > len(theirs):
            self.notice(text("site.remote.older_seen"))
            return False
        if record is None or finished:
            if saved is not None:
                shell.set_aside(shell.store_key, saved)
            self.adopt(match)
            return True
        try:  # another game is going on here: on the table, and the question over it
            shell._resume(check_saved_match(read_json(saved)))
        except Exception:
            shell.set_aside(shell.store_key, saved)
            self.adopt(match)
            return True

        def take():
            current = storage.get(shell.store_key)
            if current is not None:
                shell.set_aside(shell.store_key, current)
            self.adopt(match)

        def keep():
            self.notice(text("site.remote.kept"))

        ask(text("site.remote.other_title"), text("site.remote.other_text", title=str(match.game.title)),
            text("site.remote.other_accept"), take, cancel=text("site.remote.other_cancel"), on_cancel=keep)
        return True

    @staticmethod
    def _saved_record(saved):
        """(the saved game's record, finished) or (None, True) when there is none to keep."""
        if saved is None:
            return None, True
        try:
            blob = check_saved_match(read_json(saved))
        except Exception:
            return None, True
        record = blob["record"]
        actions = record.get("actions")
        if not isinstance(actions, list) or not actions:
            return None, True
        return record, bool(blob.get("finished"))

    def adopt(self, match, base=None):
        """The link's game on the table, saved as this device's; what happened since `base`
        moves (None: since the last move of the person to play) listed above the table."""
        shell = self.shell
        shell.drive.take()
        remote.received(match, self.device)  # the link was sent to the person to play, here
        self.notice(None)
        self.pending = None
        self.sent = None
        shell._adopt(match)
        shell.save(replace=True)
        self._saw(match)
        self.news, self.news_players = self._news(match, base)
        shell.show_table()
        if match.state.is_terminal():
            shell.show_end()
        else:
            shell.schedule_bots()
        self.refresh()
        title = by_id("remote-title")
        shell.announce(plain(pieces_of(self._title_pieces())) + " " + by_id("remote-text").textContent)
        if title:
            title.focus()

    def _news(self, match, base):
        """The moves since `base` (as announced when they were played) and who made them."""
        view = self.shell.view
        try:
            replay = Replay(match)
        except Exception:
            return [], []
        steps = range(1, replay.last + 1)
        if base is None:  # a device without the game: since the last move of the person to play
            p = remote.person_to_play(match)
            mine = [k for k in steps if replay.move(k)[0] == p]
            base = replay.positions[mine[-1]][0] if mine else 0
        items, who = [], []
        for k in steps:
            if replay.positions[k][0] <= base:
                continue
            actor, action, before = replay.move(k)
            try:
                pieces = pieces_of(view.describe(before, action, replay.positions[k][1]))
            except Exception:
                pieces = said(action.notation())
            items.append(pieces)
            if actor not in who:
                who.append(actor)
        return items[-remote.MAX_NEWS:], who

    def _take(self):
        """The diverged link's game instead of this device's (which is set aside)."""
        match = self.pending
        if match is None:
            return
        current = storage.get(self.shell.store_key)
        base = 0
        if current is not None:
            try:
                mine = check_saved_match(read_json(current))["record"]["actions"]
                theirs = match.to_record()["actions"]
                base = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
            except Exception:
                base = None
            self.shell.set_aside(self.shell.store_key, current)
        self.adopt(match, base=base)

    # --- handing a turn over ------------------------------------------------------------

    def _offer_in_share(self):
        """The Partager dialog's "Jouer à distance": when a person of this device is to play."""
        box = by_id("remote-offer")
        match = self.shell.match
        if not box:
            return
        ok = match is not None and self.shell.replay is None and remote.can_go_remote(match, self._device(match))
        show(box, ok)
        if ok:
            name = Name(match.players[remote.person_to_play(match)].name)
            set_text(by_id("remote-offer-text"), render("site.remote.offer", player=name))
            set_text(by_id("remote-start"), render("site.remote.offer_button", player=name))

    def _device(self, match):
        """This device's id, asked for only for a game by links (a new device writes its id)."""
        return self.device if match.remote is not None else None

    def _start_remote(self):
        """The person to play is elsewhere: the game goes by links from now on."""
        shell = self.shell
        match = shell.match
        if match is None or shell.stale() or not remote.can_go_remote(match, self._device(match)):
            return
        dialog = by_id("share")
        if dialog and dialog.open:
            dialog.close()
        header, toggle = document.querySelector("header.site"), by_id("menu-toggle")
        if toggle:  # the header's Menu (js/menu.js), opened for Partager, folds: the panel shows
            header.removeAttribute("data-menu-open")
            toggle.setAttribute("aria-expanded", "false")
        remote.hand_over(match, self.device)
        shell.close_advice()
        shell.save()
        self._saw(match)
        shell.view.render()
        shell.tools.refresh()
        self._now_waiting(send=True)

    def _now_waiting(self, send=False):
        """The turn went to a person of another device: the panel, its button focused."""
        self.refresh()
        if not self.waiting() or self.shell.duo.active:  # two devices linked: no link to send
            return
        live = by_id("live").textContent or ""
        shell = self.shell
        shell.announce((live + " " if live and not send else "") + by_id("remote-text").textContent)
        button = by_id("remote-send")
        if send:
            self._send()
        elif button:
            button.focus()

    def _here(self):
        """Jouer quand même ici: the seat of the person to play comes to this device."""
        shell = self.shell
        match = shell.match
        p = remote.person_to_play(match) if match else None
        if p is None or shell.stale():
            return
        remote.claim(match, p, self.device)
        self.sent = None
        shell.save()
        shell.view.render()
        shell.flow.mark_turn()
        shell.tools.refresh()
        self.refresh()
        shell.announce(render("site.remote.here_done", player=Name(match.players[p].name)))
        shell.focus_view()

    def _send(self):
        """Envoyer mon coup: the game's link, to the share sheet or the clipboard, and shown."""
        shell = self.shell
        match = shell.match
        if match is None or match.remote is None or shell.stale():
            return
        remote.sent_by(match, self.device)
        shell.save()
        self._saw(match)
        url = remote.link(page_url(), match.to_record())
        self.sent = len(match.history)
        shell.tools.refresh()  # no Annuler once the link is sent
        field = by_id("remote-link")
        field.value = url
        show(by_id("remote-sent"), True)
        by_id("remote-status").textContent = ""
        p = remote.person_to_play(match)
        to = Name(match.players[p].name) if p is not None else None
        message = text("site.remote.share_text" if to else "site.remote.share_end", player=to or "",
                       title=str(match.game.title))
        if getattr(window.navigator, "share", None):
            data = to_js({"title": str(match.game.title), "text": message, "url": url})
            try:
                promise = window.navigator.share(data)
            except Exception:
                promise = None
            if promise is not None:
                spawn(self._shared(promise))
                return
        self._copy()

    async def _shared(self, promise):
        try:
            await promise
            by_id("remote-status").textContent = text("site.remote.shared")
        except Exception:  # closed, or refused: the link is there to copy
            self._copy()

    def _copy(self):
        copy_text(by_id("remote-link").value, self._copied)

    def _copied(self, ok):
        field, status = by_id("remote-link"), by_id("remote-status")
        if not ok:  # (to copy by hand)
            field.focus()
            field.select()
        status.textContent = text("site.remote.copied" if ok else "site.remote.not_copied")

    # --- the panel ----------------------------------------------------------------------

    def notice(self, message, take=False):
        """A line above whatever the page shows (a refused link, an older one…); None: none."""
        box = by_id("remote-notice")
        if not box:
            return
        by_id("remote-notice-text").textContent = short(message or "", 600)
        show(box, bool(message))
        show(by_id("remote-take"), bool(message) and take)

    def _title_pieces(self):
        match = self.shell.match
        if self.news:
            names = [Name(match.players[p].name) for p in self.news_players]
            return render("site.remote.played", n=len(names), players=Series(names))
        if match.state.is_terminal():
            return render("site.remote.over")
        p = remote.person_to_play(match)
        if p is None:
            return render("site.remote.title")
        return render("site.remote.turn", player=Name(match.players[p].name))

    def refresh(self):
        panel = by_id("remote")
        shell = self.shell
        match = shell.match
        if not panel:
            return
        visible = (self.screen_name in ("table", "end") and match is not None and match.remote is not None
                   and shell.replay is None and not shell.duo.active)
        show(panel, visible)
        if not visible:
            return
        waiting = self.waiting()
        over = match.state.is_terminal()
        p = remote.person_to_play(match)
        name = Name(match.players[p].name) if p is not None else None
        set_text(by_id("remote-title"), self._title_pieces())
        if over:
            about = render("site.remote.over_text")
        elif waiting:
            about = render("site.remote.waiting", player=name)
        elif name is not None:
            about = render("site.remote.yours", player=name)
        else:
            about = render("site.remote.about")
        set_text(by_id("remote-text"), about)
        news = by_id("remote-news")
        clear(news)
        for pieces in self.news or []:
            item = el("li")
            set_text(item, pieces)
            news.appendChild(item)
        show(news, bool(self.news))
        show(by_id("remote-send"), waiting or over)
        show(by_id("remote-here"), waiting)
        show(by_id("remote-sent"), self.sent is not None and self.sent == len(match.history))
        panel.classList.toggle("waiting", waiting)
        document.body.toggleAttribute("data-remote-waiting", waiting)
