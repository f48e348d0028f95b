"""Replays on a game page: "Partager le replay", and the read-only replay a link opens.

The link's data is read by replay.py (pure, unit-tested).  The shell calls `start(shell)`
once at start-up: it binds the share controls (the end screen's button, the header's,
the #share dialog) and, when the URL's fragment is ``#replay=…`` (not in the embed form),
shows the replay instead of the visitor's game and returns True.

The replay is the game's own view drawing each position: the shell's `match` is replaced by
the match as it stood at position k (`Replay.match_at`), adopted by the view as a resumed
game would be, then the step's action is described (`describe`) and drawn (`render`), as
when it was played.  `shell.replay` is set for the whole visit: `human_turn()` is then False
(so no click on ``[data-action]`` and no key of the view plays anything), `save()` does
nothing (the visitor's own saved game is never touched), no computer plays, and keys go to
the replay's own: ← → (step), Début/Fin (first/last), when focus is not on a control.
A link that cannot be shown gives its French message and the way back, nothing else.
"""

import asyncio

from dom import by_id, clear, copy_text, document, el, on, pieces_of, said, set_text, show, spawn, window
from replay import ReplayError, from_fragment, link, load

from pygames.messages import Msg, Name, Series, plain, render, text

MIN_DELAY = 0.1  # seconds between two steps of the automatic play, at the fastest
#: The Lecture's speeds (the select beside it): seconds per step.
LECTURE_S = {"lente": 2.0, "normale": 1.0, "rapide": 0.4, "tres-rapide": 0.15}
DELAY_FACTOR = 1.5  # times the computer's pace (0.65 s by default: about a second a step)


def start(shell):
    """Bind the share controls; show the replay a link asks for. True if one was asked for."""
    Share(shell).bind()
    if document.body.hasAttribute("data-embed"):
        return False
    on(window, "hashchange", lambda e: _on_hash_change(shell))
    data = from_fragment(window.location.hash)
    if data is None:
        return False
    ReplayView(shell, data).start()
    return True


def _on_hash_change(shell):
    """Another replay link pasted in this tab: show it (a fragment such as the skip link's
    #main changes nothing)."""
    data = from_fragment(window.location.hash)
    if data is not None and (shell.replay is None or data != shell.replay.data):
        window.location.reload()


def page_url():
    """This game's full page (the embed form's links lead to it), without query or fragment."""
    url = window.location.href.split("#", 1)[0].split("?", 1)[0]
    head, _, name = url.rpartition("/")
    if name.startswith("embed-"):
        name = name[len("embed-"):]
    return f"{head}/{name}"


class Share:
    """ "Partager le replay": the link of the game as it stands, copied to the clipboard,
    shown in a text field of the #share dialog in any case."""

    def __init__(self, shell):
        self.shell = shell

    def bind(self):
        for id_ in ("share-open", "share-end"):
            button = by_id(id_)
            if button:
                on(button, "click", self._on_share)
        copy = by_id("share-copy")
        if copy:
            on(copy, "click", lambda e: self._copy())
            on(by_id("share-link"), "focus", lambda e: by_id("share-link").select())

    def _on_share(self, event):
        match = self.shell.match
        dialog = by_id("share")
        if match is None or dialog is None or self.shell.replay is not None:
            return
        url = link(page_url(), match.to_record())
        field = by_id("share-link")
        field.value = url
        size = "site.share.size_finished" if match.state.is_terminal() else "site.share.size_ongoing"
        by_id("share-size").textContent = text(size, n=len(url))
        by_id("share-status").textContent = ""
        dialog.showModal()
        self._copy()

    def _copy(self):
        """Copy the link (from the click itself: browsers ask for a user's gesture)."""
        copy_text(by_id("share-link").value, self._copied)

    def _copied(self, ok):
        field, status = by_id("share-link"), by_id("share-status")
        field.focus()
        field.select()
        status.textContent = text("site.share.copied" if ok else "site.share.not_copied")


class ReplayView:
    """The read-only replay of a link, position by position, with its step controls."""

    def __init__(self, shell, data):
        self.shell = shell
        self.data = data
        self.replay = None
        self.k = 0
        self.playing = False
        self.generation = 0  # bumps on pause: an automatic play left over stops

    @property
    def delay(self):
        speed = by_id("replay-speed")
        value = speed.value if speed else ""
        if value in LECTURE_S:
            return LECTURE_S[value]
        return max(MIN_DELAY, self.shell.pace * DELAY_FACTOR)

    def start(self):
        shell = self.shell
        shell.enter_replay(self)  # no computer loop, no left-over task acts
        document.body.dataset.replay = "on"
        leave = by_id("replay-leave")
        leave.setAttribute("href", window.location.href.split("#", 1)[0])
        shell.show_screen("replay")
        show(by_id("replay"), True)
        try:
            self.replay = load(self.data, shell.family.id)
        except ReplayError as err:
            self._fail(str(err))
            return
        except Exception:  # never a page that breaks on a link
            self._fail(text("site.replay.unreadable"))
            return
        match = self.replay.match
        # The seats as they were: the views describe a step as it was announced then (e.g.
        # "À Léa de lancer." only for a human); no computer plays (no loop is started).
        shell.put_match(match)
        shell.update_rules_panel(match.game, match.options)
        document.body.dataset.game = match.game.id
        by_id("replay-title").textContent = text("site.replay.title", title=str(match.game.title))
        if getattr(match, "daily", None):  # the day's challenge says so
            by_id("replay-title").textContent = text("site.daily.replay_title", title=str(match.game.title),
                                                     date=match.daily)
        names = match.names
        state = Msg("site.replay.finished" if self.replay.finished else "site.replay.ongoing")
        about = render("site.replay.about", n=len(names), players=Series(Name(name) for name in names), state=state)
        if match.dice == "real":  # the people's throws were typed in at the table
            about = about + said(" ") + render("site.replay.real")
        set_text(by_id("replay-about"), about)
        show(by_id("replay-body"), True)
        self._bind()
        show(by_id("table"), True)
        by_id("table").classList.add("replaying")
        self.go(0)
        by_id("replay-play").focus()

    def _fail(self, message):
        by_id("replay-title").textContent = text("site.replay.failed_title")
        show(by_id("replay-body"), False)
        note = by_id("replay-error")
        note.textContent = message  # text only: a hostile link shows as text
        show(note, True)
        show(by_id("table"), False)

    def _bind(self):
        actions = {
            "replay-first": lambda: self.go(0),
            "replay-back": lambda: self.go(self.k - 1),
            "replay-next": lambda: self.go(self.k + 1),
            "replay-last": lambda: self.go(self.replay.last),
        }
        for id_, act in actions.items():
            on(by_id(id_), "click", self._manual(act))
        on(by_id("replay-play"), "click", lambda e: self.toggle_play())

    def _manual(self, act):
        def handler(event):
            self.pause(quiet=True)
            act()
        return handler

    # --- positions --------------------------------------------------------------------

    def go(self, k, announce=True):
        replay, shell, view = self.replay, self.shell, self.shell.view
        k = max(0, min(k, replay.last))
        self.k = k
        if k == 0:
            shell.put_match(replay.match_at(0))
            view.adopt(shell.match)
            step = render("site.replay.start", players=Series(Name(name) for name in shell.match.names))
        else:
            # As in a game played live: the position before the step, then the step.
            shell.put_match(replay.match_at(k - 1))
            view.adopt(shell.match)
            shell.put_match(replay.match_at(k))
            _actor, action, before = replay.move(k)
            view.moved(before, action, shell.match.state)
            step = pieces_of(view.describe(before, action, shell.match.state))
            if any(ply in replay.match.typed for ply in range(replay.positions[k - 1][0], replay.positions[k][0])):
                step = step + said(" ") + render("site.replay.typed")  # real dice, typed in
            if k == replay.last and replay.finished:
                outcome = shell.match.outcome()
                reason = shell.family.text.reason(outcome, shell.match.names) if outcome else None
                if reason is not None and plain(render(reason)) not in plain(step):
                    step = step + said(" ") + render("site.replay.end", reason=reason)
        view.render()
        shell.hint(text("site.replay.hint"))
        by_id("replay-pos").textContent = text("site.replay.position", k=k, last=replay.last)
        set_text(by_id("replay-step"), step)
        by_id("replay-first").disabled = k == 0
        by_id("replay-back").disabled = k == 0
        by_id("replay-next").disabled = k == replay.last
        by_id("replay-last").disabled = k == replay.last
        self._play_label()
        if announce:
            shell.announce(render("site.replay.step", k=k, last=replay.last) + said(" ") + step)

    def on_key(self, event):
        """← → step, Début/Fin (Home/End) go to either end; not when focus is on a control
        (a button, a link or a field handles its own keys)."""
        target = event.target
        if self.replay is None or (target.closest("button, a, input, select, textarea, summary")
                                   and not target.closest(".replay-controls button")):
            return  # the replay's own buttons leave the arrows to it (their hint says so)
        moves = {
            "ArrowLeft": lambda: self.go(self.k - 1),
            "ArrowRight": lambda: self.go(self.k + 1),
            "Home": lambda: self.go(0),
            "End": lambda: self.go(self.replay.last),
        }
        act = moves.get(event.key)
        if act:
            event.preventDefault()
            self.pause(quiet=True)
            act()

    # --- automatic play ----------------------------------------------------------------

    def toggle_play(self):
        if self.playing:
            self.pause()
            return
        if self.k >= self.replay.last:
            self.go(0, announce=False)
        self.playing = True
        self.generation += 1
        self._play_label()
        self.shell.announce(text("site.replay.autoplay"))
        spawn(self._autoplay(self.generation))

    def pause(self, quiet=False):
        if not self.playing:
            return
        self.playing = False
        self.generation += 1
        self._play_label()
        if not quiet:
            self.shell.announce(text("site.replay.paused", k=self.k, last=self.replay.last))

    async def _autoplay(self, generation):
        while generation == self.generation and self.k < self.replay.last:
            await asyncio.sleep(self.delay)
            if generation != self.generation:
                return
            self.go(self.k + 1)
        if generation == self.generation:
            self.playing = False
            self._play_label()

    def _play_label(self):
        button = by_id("replay-play")
        clear(button)
        button.appendChild(el("span", "❚❚" if self.playing else "▶", "replay-icon", aria_hidden="true"))
        state = "pause" if self.playing else "play"
        button.appendChild(document.createTextNode(" " + text(f"site.replay.{state}")))
        button.setAttribute("aria-label", text(f"site.replay.{state}_label"))
