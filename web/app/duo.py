"""Two devices at one table ("Deux appareils"): one game, each device playing its own seats,
linked by WebRTC with no server (the codes: pairing.py; the link: js/duo-link.js).

* **The host** (the device where the game is set up: *Deux appareils* ticked, each person
  on *cet appareil* or *l'autre appareil*) holds the match: it throws the dice, plays the
  computer's seats and applies every move through the shell's one gate (`Shell.play_text`,
  where the table's `play` leads).  Its game is a game by links (the record's ``remote``
  field, remote.py): the seat of each person names the device it is played on.
* **The guest** opens the host's code (the QR is a link to this page, ``#pair=<code>``, or
  the code pasted), shows its answer (a QR and a text), and once linked sends its device
  (and its own copy of the game) and receives the whole game.  Each device says *Relié*
  (``data-duo-linked`` on <body>) once the game is the same on both: the host once it had
  the guest's hello, the guest once it had the game.  The guest sends its moves as
  notations; the host answers every change with the new moves and the hash of all of them
  (`pairing.record_hash`): the guest replays them and, on any mismatch, asks for the whole
  game again.  The guest never throws and never plays the computer.  Annuler on the guest
  asks the host, which takes the move back if the rules allow it and sends the game again.
* **Nothing lost.**  Both devices save the game after every move, as any game.  A dropped
  link is said plainly, with *Appairer de nouveau* (a new code; the game goes on from the
  host's record, or from the guest's if it played on further alone) and *Continuer seul
  ici* (the game becomes an ordinary one on this device: hot-seat).
* **The peer is untrusted.**  Its messages are read within bounds (`pairing.read_message`),
  a record through the replay links' bounds and the rules (`remote.read`); a move of the
  wrong seat, a stale or an illegal one is refused with its reason; a message the other
  device should not send is ignored and counted (``data-duo-ignored`` on <body>, for tests).
"""

import json

import pairing
import remote
from dom import by_id, clear, copy_text, document, el, on, set_text, show, spawn, storage, window
from guard import check_saved_match, read_json, short
from pairing import BadMessage, PairingError
from replay import ReplayError, encode
from replay_view import page_url

from pygames import GameError
from pygames.messages import Name, render, text

MAX_CANDIDATES = 2  # kept in a code: two host candidates (IPv4 and IPv6, say); one more is 19 bytes


def link_js():
    return getattr(window.pygames, "duo", None)


class Duo:
    def __init__(self, shell):
        self.shell = shell
        self.role = None  # "host", "guest", or None (no second device)
        self.linked = False  # the link is open
        self.shared = False  # ... and the game is the same on both (the host had the guest's
        # hello, the guest the host's game): "Relié", <body data-duo-linked>
        self.peer = None  # the guest's device (host side)
        self.mine = set()  # the seats played on the host (host side)
        self.ignored = 0  # messages from the other device that were not for this one
        self.scanning = False

    # --- what the shell asks ------------------------------------------------------------

    @property
    def active(self):
        """A game on two devices (linked now or not): the link's words, not the links'."""
        return self.role is not None and self.shell.match is not None and self.shell.match.remote is not None

    def bind(self):
        on(window, "pygames-duo", self._on_event)
        on(window, "hashchange", lambda e: self._on_hash())
        for id_, act in (("duo-connect", self._connect), ("duo-join-go", self._join), ("duo-copy", self._copy),
                         ("duo-reply-copy", self._copy),
                         ("duo-scan", self._scan), ("duo-again", self._again), ("duo-alone", self._alone),
                         ("duo-show", self._show_dialog), ("duo-join-open", self._open_join)):
            node = by_id(id_)
            if node:
                on(node, "click", lambda e, act=act: act())
        dialog = by_id("duo")
        if dialog:
            on(dialog, "close", lambda e: self._stop_scan())
        box = by_id("two-devices")
        if box:
            on(box, "change", lambda e: self.setup_changed())
            on(by_id("player-rows"), "input", lambda e: self.setup_changed())

    def start(self):
        """At start-up: a host's code in the address (``#pair=…``): this page joins its game.
        The page resumes as it would (its own saved game on the table) under the dialog."""
        code = pairing.from_fragment(window.location.hash)
        if code is None:
            return
        location = window.location
        window.history.replaceState(None, "", location.pathname + location.search)
        by_id("duo-reply").value = ""  # (an answer to an older code: see _join)
        spawn(self._answer(code))

    def _on_hash(self):
        code = pairing.from_fragment(window.location.hash)
        if code is not None:
            self.start()

    def holds_back(self):
        """The guest never plays the computer's seats: the host does, and sends their moves."""
        return self.role == "guest" and self.active

    def waiting_text(self):
        """The line under the table while the other device plays."""
        match = self.shell.match
        p = remote.person_to_play(match)
        name = Name(match.players[p].name) if p is not None else ""
        return render("site.duo.elsewhere" if self.linked else "site.duo.elsewhere_unlinked", player=name)

    def forward(self, action):
        """The guest: a person's move goes to the host (True: it is not played here)."""
        if not self.holds_back():
            return False
        if not self.linked:
            self.shell.hint(text("site.duo.not_linked"))
            return True
        n = len(self.shell.match.history)
        self._send("move", n=n, move=action.notation())
        self.shell.hint(text("site.duo.sent"))
        return True

    def forward_undo(self):
        """The guest: Annuler asks the host (True: nothing is taken back here)."""
        if not self.holds_back():
            return False
        if self.linked:
            self._send("undo", n=len(self.shell.match.history))
        else:
            self.shell.hint(text("site.duo.not_linked"))
        return True

    def played(self, ply):
        """The host: moves were played from `ply` on (a person's, the computer's, the dice)."""
        if self.role != "host" or not self.linked:
            return
        match = self.shell.match
        notations = [a.notation() for a in match.history]
        moves = notations[ply:]
        if not moves:
            return
        if len(moves) > pairing.MAX_BATCH:
            self._send_game()
            return
        self._send("moves", n=ply, moves=moves, hash=pairing.record_hash(notations))

    def changed(self):
        """The host: the game changed otherwise (Annuler): the whole game goes again."""
        if self.role == "host" and self.linked:
            self._send_game()

    def rehost(self, match):
        """The host's next game (Rejouer) goes to the same device: True if it does."""
        if self.role != "host":
            return False
        device = self.shell.remote.device
        match.remote = {"id": remote.new_id(), "by": device,
                        "seats": [device if p in self.mine else (None if match.players[p].is_computer else self.peer)
                                  for p in range(len(match.players))]}
        return True

    def new_match(self):
        """A new game on this page (set up, loaded, resumed from elsewhere): the link ends."""
        if self.role is not None:
            self._send("bye")
            self._close()
            self.role = None
            self.refresh()

    # --- the setup ----------------------------------------------------------------------

    def setup_changed(self):
        """The per-seat choice follows the players' rows (persons only)."""
        box, seats, fieldset = by_id("two-devices"), by_id("duo-seats"), by_id("duo-setup")
        if not box:
            return
        show(fieldset, bool(box.checked))
        if not box.checked:
            return
        old = {node.dataset.row: node.value for node in seats.querySelectorAll("select")}
        clear(seats)
        persons = 0
        for i, (_, name, seat) in enumerate(self.shell.setup_rows):
            if seat.value != "human":
                continue
            item = el("li")
            label = el("label", None, None, **{"for": f"duo-seat-{i}"})
            label.appendChild(el("bdi", name.value.strip() or str(self.shell.setup_names()[i]), "name"))
            item.appendChild(label)
            select = el("select", None, None, id=f"duo-seat-{i}", data_row=str(i))
            for value, words in (("here", "site.duo.seat_here"), ("other", "site.duo.seat_other")):
                select.appendChild(el("option", text(words), None, value=value))
            select.value = old.get(str(i), "here" if persons == 0 else "other")
            item.appendChild(select)
            seats.appendChild(item)
            persons += 1

    def setup_wanted(self):
        """The seats on the other device, if *Deux appareils* is ticked (else None)."""
        box = by_id("two-devices")
        if not box or not box.checked:
            return None
        self.setup_changed()
        return {int(node.dataset.row) for node in by_id("duo-seats").querySelectorAll("select")
                if node.value == "other"}

    def check_setup(self, match, others):
        """The reason a game cannot be played on two devices, or None."""
        if match.dice == "real":
            return text("site.duo.no_real_dice")
        if match.daily is not None:
            return text("site.duo.no_daily")
        if not others or any(match.players[p].is_computer for p in others):
            return text("site.duo.no_other_seat")
        if len(others) == len(remote.persons(match)):
            return text("site.duo.no_seat_here")
        if link_js() is None or not link_js().supported():
            return text("site.duo.no_webrtc")
        return None

    def host(self, match, others):
        """The game just set up is played on two devices: this one holds it."""
        device = self.shell.remote.device
        self.mine = {p for p in remote.persons(match) if p not in others}
        match.remote = {"id": remote.new_id(), "by": device,
                        "seats": [device if p in self.mine else None for p in range(len(match.players))]}
        self.role = "host"
        self.peer = None
        shell = self.shell
        shell.save()
        shell.view.render()
        shell.flow.mark_turn()
        shell.tools.refresh()
        shell.hint(shell.view.hint_text())
        self.refresh()
        self._show_dialog()

    # --- the dialog: codes, QR codes, the camera ------------------------------------------

    def _dialog_mode(self, mode):
        """host: the invitation and the answer's field; guest: the answer; join: a field for
        the host's code."""
        for part in ("host", "guest", "join"):
            show(by_id(f"duo-{part}"), part == mode)
        self._error(None)

    def _show_dialog(self):
        """The host: a new invitation (the previous one, if any, is dropped)."""
        if self.role != "host":
            return
        self._dialog_mode("host")
        by_id("duo-answer").value = ""
        by_id("duo-offer").value = ""
        self._status(text("site.duo.preparing"))
        dialog = by_id("duo")
        if not dialog.open:
            dialog.showModal()
        spawn(self._offer())

    async def _offer(self):
        js = link_js()
        try:
            sdp = await js.offer()
            code = pairing.encode(self._description(sdp, "offer"))
        except PairingError as err:
            self._error(str(err))
            self._status("")
            return
        except Exception as err:
            self._error(self._why(err))
            self._status("")
            return
        url = pairing.link(page_url(), code)
        by_id("duo-offer").value = url
        await self._draw(by_id("duo-offer-qr"), url)
        self._status(text("site.duo.offer_ready"))

    @staticmethod
    def _description(sdp, kind):
        d = pairing.parse_sdp(sdp, kind)
        d.candidates = d.candidates[:MAX_CANDIDATES]
        return d

    async def _draw(self, canvas, value):
        try:
            version = await link_js().draw(canvas, value)
            canvas.dataset.version = str(version)
            show(canvas, True)
        except Exception:
            show(canvas, False)  # the text is there to copy

    def _open_join(self):
        self._dialog_mode("join")
        by_id("duo-code").value = ""
        by_id("duo-reply").value = ""  # (an answer to an older code)
        self._status("")
        dialog = by_id("duo")
        if not dialog.open:
            dialog.showModal()
        by_id("duo-code").focus()

    def _join(self):
        """The guest pasted the host's code (or its link).  The previous answer, if any, goes
        at once, not when the task starts: it answered another code and must not be copied."""
        by_id("duo-reply").value = ""
        spawn(self._answer(by_id("duo-code").value))

    async def _answer(self, written):
        """The guest: the answer to a host's code, shown as a QR code and as text."""
        self._dialog_mode("guest")
        dialog = by_id("duo")
        if not dialog.open:
            dialog.showModal()
        by_id("duo-reply").value = ""
        show(by_id("duo-reply-qr"), False)
        self._status(text("site.duo.preparing"))
        js = link_js()
        try:
            if js is None or not js.supported():
                raise PairingError(text("site.duo.no_webrtc"))
            offer = pairing.decode(written, "offer")
            sdp = await js.answer(pairing.sdp(offer))
            code = pairing.encode(self._description(sdp, "answer"))
        except PairingError as err:
            self._dialog_mode("join")
            by_id("duo-code").value = written if isinstance(written, str) else ""
            self._error(str(err))
            self._status("")
            return
        except Exception as err:
            self._dialog_mode("join")
            self._error(self._why(err))
            self._status("")
            return
        self.role = "guest"
        self.linked = False
        by_id("duo-reply").value = code
        await self._draw(by_id("duo-reply-qr"), code)
        self._status(text("site.duo.answer_ready"))

    def _connect(self):
        """The host pasted the guest's answer."""
        spawn(self._accept(by_id("duo-answer").value))

    async def _accept(self, written):
        try:
            answer = pairing.decode(written, "answer")
            await link_js().accept(pairing.sdp(answer))
        except PairingError as err:
            self._error(str(err))
            return
        except Exception as err:
            self._error(self._why(err))
            return
        self._error(None)
        self._status(text("site.duo.connecting"))

    async def _scan_run(self):
        video = by_id("duo-video")
        show(video, True)
        self.scanning = True
        try:
            found = await link_js().scan(video)
        except Exception:
            found = None
            self._error(text("site.duo.no_camera"))
        finally:
            self.scanning = False
            show(video, False)
        if found:
            by_id("duo-answer").value = found
            await self._accept(found)

    def _scan(self):
        if not self.scanning:
            spawn(self._scan_run())

    def _stop_scan(self):
        js = link_js()
        if js is not None:
            js.stopScan()

    def _copy(self):
        field = by_id("duo-reply") if self.role == "guest" else by_id("duo-offer")
        field.focus()
        field.select()  # (copied by hand if the browser refuses)
        copy_text(field.value, lambda ok: self._status(text("site.duo.copied")) if ok else None)

    @staticmethod
    def _why(err):
        message = str(err)
        if "no-webrtc" in message:
            return text("site.duo.no_webrtc")
        return text("site.duo.failed")

    def _status(self, words):
        node = by_id("duo-status")
        if node:
            node.textContent = words

    def _error(self, words):
        node = by_id("duo-error")
        if node:
            node.textContent = short(words or "", 600)
            show(node, bool(words))

    # --- the link -----------------------------------------------------------------------------

    def _on_event(self, event):
        detail = event.detail
        kind = str(detail.kind)
        if kind == "open":
            self._opened()
        elif kind == "message":
            self._received(str(detail.data))
        elif kind == "oversized":
            self._ignore()
        elif kind == "closed":
            self._dropped()
        elif kind == "failed":
            self._error(text("site.duo.no_connection"))
            self._status("")
            self._dropped(failed=True)

    def _opened(self):
        self.linked = True
        self.shared = False  # (until the hello, and the game in answer to it)
        dialog = by_id("duo")
        if dialog and dialog.open:
            dialog.close()
        if self.role == "guest":
            self._send("hello", v=pairing.PROTOCOL, device=self.shell.remote.device, record=self._own_record())
        self.refresh()

    def _now_shared(self):
        """Both devices have the game: said once per link."""
        was = self.shared
        self.shared = self.linked
        self.refresh()
        if self.shared and not was:
            self.shell.announce(text("site.duo.linked"))

    def _own_record(self):
        """The guest's saved game by links of this page (the host takes it if it went further)."""
        saved = storage.get(self.shell.store_key)
        try:
            record = check_saved_match(read_json(saved))["record"] if saved else None
        except Exception:
            return ""
        if not isinstance(record, dict) or not isinstance(record.get("remote"), dict):
            return ""
        data = encode(record)
        return data if len(data) < pairing.MAX_MESSAGE - 200 else ""

    def _dropped(self, failed=False):
        was = self.linked
        self.linked = False
        self._close()
        self.refresh()
        if was:
            self.shell.announce(text("site.duo.dropped"))
            self.shell.hint(self.shell.view.hint_text())

    def _close(self):
        self.linked = False
        self.shared = False
        js = link_js()
        if js is not None:
            js.close()

    def _send(self, kind, **fields):
        js = link_js()
        if js is not None and self.linked:
            js.send(pairing.message(kind, **fields))

    def _send_game(self):
        self._send("game", record=encode(self.shell.match.to_record()))

    def _ignore(self):
        self.ignored += 1
        document.body.dataset.duoIgnored = str(self.ignored)

    def _received(self, raw):
        try:
            message = pairing.read_message(raw)
        except BadMessage:
            self._ignore()
            return
        kind = message["t"]
        handlers = (
            {"hello": self._hello, "move": self._move, "undo": self._undo, "sync": lambda m: self._send_game(),
             "bye": self._bye}
            if self.role == "host" else
            {"game": self._game, "moves": self._moves, "refused": self._refused, "bye": self._bye}
            if self.role == "guest" else {})
        handler = handlers.get(kind)
        if handler is None:
            self._ignore()
            return
        handler(message)

    def _bye(self, message):
        self._dropped()

    # --- the host's side ------------------------------------------------------------------------

    def _hello(self, message):
        """The guest is here: its seats are its device's; the game goes to it (the guest's
        own copy of it if that went further: it played on alone while the link was down)."""
        shell = self.shell
        match = shell.match
        device = message["device"]
        if not remote.remote_id(device) or device == shell.remote.device or match is None or match.remote is None:
            self._ignore()
            return
        if message["record"]:
            try:
                theirs = remote.read(message["record"], shell.family.id, shell._sampler())
            except (ReplayError, GameError, RecursionError):
                theirs = None
            mine = [a.notation() for a in match.history]
            if (theirs is not None and theirs.remote["id"] == match.remote["id"]
                    and remote.compare(mine, [a.notation() for a in theirs.history]) == "newer"):
                theirs.remote = match.remote
                shell.drive.take()
                shell._adopt(theirs)
                match = theirs
                shell.show_table()
        self.peer = device
        seats = [shell.remote.device if p in self.mine else (None if match.players[p].is_computer else device)
                 for p in range(len(match.players))]
        match.remote = {**match.remote, "seats": seats, "by": shell.remote.device}
        shell.save()
        shell.view.render()
        shell.tools.refresh()
        self.refresh()
        self._send_game()
        self._now_shared()
        shell.schedule_bots()

    def _move(self, message):
        shell = self.shell
        match = shell.match
        n = message["n"]
        if match is None or n != len(match.history):
            self._send("refused", why=text("site.duo.stale"), n=n)
            self._send_game()
            return
        p = remote.person_to_play(match)
        if p is None or match.remote is None or match.remote["seats"][p] != self.peer:
            self._send("refused", why=text("site.duo.not_your_turn"), n=n)
            return
        why = shell.play_text(message["move"], peer=True)
        if why:
            self._send("refused", why=short(str(why), 500), n=n)

    def _undo(self, message):
        """Annuler from the guest: its own last decision, if the rules still allow it."""
        shell = self.shell
        match = shell.match
        if (match is None or message["n"] != len(match.history) or not match.can_undo()
                or match.remote["seats"][match.undo_player()] != self.peer):
            self._send("refused", why=text("site.duo.no_undo"), n=message["n"])
            return
        shell.tools.undo(peer=True)

    # --- the guest's side -----------------------------------------------------------------------

    def _game(self, message):
        """The whole game, from the host: read as a link is (bounds, rules), then on the table."""
        shell = self.shell
        try:
            match = remote.read(message["record"], shell.family.id, shell._sampler())
        except (ReplayError, GameError, RecursionError):
            self._ignore()
            return
        device = shell.remote.device
        if device not in match.remote["seats"]:
            self._ignore()
            return
        current = storage.get(shell.store_key)
        if current is not None and not self._same_game(current, match):
            shell.set_aside(shell.store_key, current)
        shell.drive.take()
        shell._adopt(match)
        shell.save(replace=True)
        shell.remote._saw(match)
        shell.show_table()
        if match.state.is_terminal():
            shell.show_end()
        self._now_shared()

    @staticmethod
    def _same_game(saved, match):
        try:
            record = json.loads(saved).get("record")
        except Exception:
            return False
        return remote.same_game(record, match)

    def _moves(self, message):
        """New moves from the host: replayed here, then checked against the host's hash."""
        shell = self.shell
        match = shell.match
        if match is None or match.remote is None or message["n"] != len(match.history):
            self._send("sync")
            return
        before = match.state
        ply = len(match.history)
        actor = None if before.is_chance() else before.current_player()
        try:
            for notation in message["moves"]:
                match.apply(notation)
        except GameError:
            self._resync(ply)
            return
        if pairing.record_hash([a.notation() for a in match.history]) != message["hash"]:
            self._resync(ply)
            return
        self.note(None)
        shell.show_moves(before, match.history[ply], actor, ply)

    def _resync(self, ply):
        """The moves did not fit: the whole game is asked for (and replaces this one, which is
        not saved meanwhile)."""
        self._send("sync")

    def _refused(self, message):
        """The host refused a move of this device: its reason, in the bar (the line under the
        table says whose turn it is) until the next move."""
        self.note(message["why"])
        self.shell.announce(message["why"])

    @staticmethod
    def note(words):
        node = by_id("duo-note")
        if node:
            node.textContent = short(words or "", 300)
            show(node, bool(words))

    # --- after a drop ---------------------------------------------------------------------------

    def _again(self):
        """Appairer de nouveau: the host makes a new code; the guest waits for it."""
        if self.role == "host":
            self._show_dialog()
        elif self.role == "guest":
            self._open_join()

    def _alone(self):
        """Continuer seul ici: every person plays on this device (hot-seat); the other one
        is let go.  The game keeps its id: paired again, the host takes this game if it went
        further, and it can go on by links too."""
        shell = self.shell
        self._send("bye")
        self._close()
        self.role = None
        match = shell.match
        if match is not None and match.remote is not None:
            for p in remote.persons(match):
                remote.claim(match, p, shell.remote.device)
            shell.save()
            shell.view.render()
            shell.tools.refresh()
            shell.flow.mark_turn()
            shell.remote.refresh()
            shell.schedule_bots()
            shell.hint(shell.view.hint_text())
            shell.announce(text("site.duo.alone_done"))
        dialog = by_id("duo")
        if dialog and dialog.open:
            dialog.close()
        self.refresh()
        shell.focus_view()

    # --- the bar above the table ----------------------------------------------------------------

    def refresh(self):
        bar = by_id("duo-bar")
        if not bar:
            return
        shell = self.shell
        visible = self.active and not by_id("table").hidden
        show(bar, visible)
        together = self.linked and self.shared
        document.body.toggleAttribute("data-duo-linked", together)
        if self.role:
            document.body.dataset.duo = self.role
        elif document.body.hasAttribute("data-duo"):
            document.body.removeAttribute("data-duo")
        if not visible:
            return
        match = shell.match
        if together:
            words = render("site.duo.bar_linked")
        elif self.linked or self.role == "host" and self.peer is None:
            words = render("site.duo.bar_waiting")
        else:
            words = render("site.duo.bar_dropped")
        set_text(by_id("duo-bar-text"), words)
        show(by_id("duo-again"), not self.linked and self.peer is not None or self.role == "guest" and not self.linked)
        show(by_id("duo-show"), self.role == "host" and not self.linked and self.peer is None)
        show(by_id("duo-alone"), not self.linked or match.state.is_terminal())
        bar.classList.toggle("dropped", not self.linked)
