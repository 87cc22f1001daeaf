"""
The page's lobby and the ends of games, as a person meets them (Debian's
Chromium under Playwright, the service on 127.0.0.1; see
L{gameproto.test.test_web_page}): the server's refusals and a game's abort
said in sentences where the person looks.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer

from gameproto.test.service_helpers import Server
from gameproto.test.test_web_play import shot
from gameproto.test.test_web_page import (
    MISSING,
    Browser,
    BrowserTestCase,
    boardState,
    clickDisplay,
    setName,
    waitFor,
    waitState,
    zoneCenters,
)

SENTENCE = r"^[A-Z].*[^.]\.$"
"""A capital first, one full stop last."""


class ProblemTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_problemsAsSentences(self) -> Any:
        """
        The server's ``problem`` messages and a game's abort read as
        sentences, with the seats' names for the game shown: a seat taken
        back from another tab is said to be played there now; a token refused when
        rejoining from the list, and a game to watch that is not live, are
        said above the list; a name refused by Protuissance 4 under its
        form.
        """

        def script(browser: Browser) -> Any:
            alice = browser.open(self.url)
            setName(alice, "alice")
            alice.click("form.engine[data-engine=connect4] button.create")
            waitState(alice, "your-turn")
            game = int(alice.get_attribute("#board", "data-game") or 0)

            # Another tab of the same browser takes the seat back with its token.
            other = browser.open(self.url)
            other.click(f"tr[data-game-id='{game}'] button.rejoin[data-player='1']")
            waitState(other, "your-turn", "waiting")
            waitState(alice, "elsewhere")
            self.assertEqual(alice.text_content("#status"), "You play this seat in another tab "
                             "or device now: the game goes on there.")

            # A token that opens nothing: the refusal is said above the list.
            alice.evaluate("game => localStorage.setItem(`gameproto.token.${game}.2`, 'x')", game)
            alice.click("#games-refresh")
            alice.click(f"tr[data-game-id='{game}'] button.rejoin[data-player='2']")
            alice.wait_for_selector("#lobby-problem:not(:empty)")
            self.assertTrue(alice.locator("#lobby-problem").is_visible())
            self.assertEqual(alice.text_content("#lobby-problem"),
                             f"The token is not that of player 2 of game {game}.")
            self.assertTrue(alice.locator("#game").is_hidden())

            # A game to watch that is not live (an old link).
            alice.evaluate("() => { location.hash = 'watch=999'; }")
            alice.wait_for_function("() => document.querySelector('#lobby-problem')"
                                    ".textContent.includes('999')")
            self.assertEqual(alice.text_content("#lobby-problem"), "No live game 999.")

            # A game to replay that is not there (an old link): said above the list too.
            alice.evaluate("() => { location.hash = 'replay=99999'; }")
            alice.wait_for_function("() => document.querySelector('#lobby-problem')"
                                    ".textContent.includes('99999')")
            self.assertTrue(alice.text_content("#lobby-problem").startswith(
                "Game 99999 cannot be replayed"))
            self.assertTrue(alice.locator("#lobby-problem").is_visible())

            # A name Protuissance 4 refuses: under the form.
            setName(alice, "a b")
            alice.click("form.engine[data-engine=connect4] button.queue")
            box = "form.engine[data-engine=connect4] .form-error"
            alice.wait_for_selector(f"{box}:not(:empty)")
            self.assertEqual(alice.text_content(box),
                             "A Connect Four name is 1 to 16 of A-Z a-z 0-9 _ -.")
            for text in alice.locator("#errors li").all_text_contents():
                self.assertRegex(text, SENTENCE)

        yield self.inBrowser(script)


class WhoWaitsTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_queuesAndOpenSeats(self) -> Any:
        """
        Beside each **Play against anyone**, who waits there now (from
        ``GET /api/matchmaking``, refreshed with the list): nobody, then a
        person queued from another tab, by name.  In the list, a game with
        open seats says how many players it waits for, one fewer once a
        person joins it.
        """

        def script(browser: Browser) -> Any:
            alice = browser.open(self.url)
            setName(alice, "alice")
            queue = "form.engine[data-engine=connect4] small.queue-waiting"
            alice.wait_for_selector(f"{queue}[data-waiting]")
            self.assertEqual(alice.text_content(queue),
                             "Nobody is waiting for a Protuissance 4 game.")
            self.assertEqual(
                alice.text_content("form.engine[data-engine=tarot] small.queue-waiting"),
                "Nobody is waiting for a MaîtreTarot game.")

            # A Tarot game created with two open seats: the list says so.
            made = self.api("/api/games", {"engine": "tarot", "bots": [2, 3]})
            row = f"tr[data-game-id='{made['id']}']"
            alice.wait_for_selector(f"{row} .waiting-text")
            self.assertEqual(alice.text_content(f"{row} .waiting-text"), " waiting for 2 players")
            self.assertEqual(alice.locator(f"{row} .seat.open").all_text_contents(),
                             ["P1 (open)", "P4 (open)"])

            bob = browser.open(self.url)
            setName(bob, "bob")
            bob.click("form.engine[data-engine=connect4] button.queue")
            waitState(bob, "queued")
            alice.wait_for_selector(f"{queue}[data-waiting='1']")
            self.assertEqual(alice.text_content(queue),
                             "1 waiting for a Protuissance 4 game: bob.")
            alice.locator("form.engine[data-engine=connect4]").screenshot(
                path=shot(self, "web-lobby-queue.png"))
            alice.locator("#games-section").screenshot(path=shot(self, "web-lobby-games.png"))
            bob.click("#leave")
            bob.wait_for_selector("#game", state="hidden")
            alice.wait_for_selector(f"{queue}[data-waiting='0']")

            alice.click(f"{row} button.join[data-player='1']")
            waitState(alice, "your-turn", "waiting")
            alice.wait_for_function(
                "row => document.querySelector(row + ' .waiting-text')?.textContent"
                " === ' waiting for 1 player'", arg=row)

        yield self.inBrowser(script)


def recordSent(page: Any) -> None:
    """From now on, keep the type of each message the page sends (``sentTypes``)."""
    page.evaluate("""() => {
        const ws = window.gameproto.state.ws;
        window.sentTypes = [];
        if (ws.recorded) return;
        const send = ws.send.bind(ws);
        ws.send = (data) => { window.sentTypes.push(JSON.parse(data).type); send(data); };
        ws.recorded = true;
    }""")


def sentTypes(page: Any) -> list[str]:
    return page.evaluate("() => window.sentTypes")


class DoubleClickTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_queueDoubleClicked(self) -> Any:
        """
        A double click on **Play against anyone** queues once, without an
        error: the button is off while the queue is asked for and waited
        in (another game's stays on), and on again once out of the queue.
        From a game watched, a double click leaves it once and queues once.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            setName(page, "alice")
            button = "form.engine[data-engine=connect4] button.queue"
            page.wait_for_selector(button)
            recordSent(page)
            page.dblclick(button)
            waitState(page, "queued")
            self.assertTrue(page.is_disabled(button))
            self.assertFalse(page.is_disabled("form.engine[data-engine=tarot] button.queue"))
            page.click(button, force=True)  # a click once queued: nothing either
            page.wait_for_timeout(500)  # (any answer to a second request would be here)
            self.assertEqual(sentTypes(page), ["queue"])
            self.assertEqual(boardState(page), "queued")
            self.assertEqual(page.locator("#errors li").all_text_contents(), [])
            self.assertEqual(page.text_content("form.engine[data-engine=connect4] .form-error"), "")

            page.click("#leave")
            page.wait_for_selector("#game", state="hidden")
            self.assertFalse(page.is_disabled(button))

            made = self.api("/api/games", {"engine": "tarot", "bots": [2, 3]})
            page.click(f"tr[data-game-id='{made['id']}'] button.watch")
            waitState(page, "watching")
            recordSent(page)
            page.dblclick(button)
            waitState(page, "queued")
            page.wait_for_timeout(500)
            self.assertEqual(sentTypes(page), ["leave", "queue"])
            self.assertEqual(page.locator("#errors li").all_text_contents(), [])

        yield self.inBrowser(script)


def queueConnect4(page: Any, name: str) -> None:
    """``name`` plays against anyone at Connect Four (the Protuissance 4 queue)."""
    setName(page, name)
    page.click("form.engine[data-engine=connect4] button.queue")


def leaveGame(page: Any) -> None:
    """Leave the game, saying yes to the page's question."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#leave")
    page.wait_for_selector("#game", state="hidden")


class PlayAgainTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_queueAgain(self) -> Any:
        """
        Two persons queued for Connect Four are matched; one leaves: the
        other's status says "bob left the game", and **Play again** queues
        it again (the lobby shows it waiting), until a new game is formed.
        """

        def script(browser: Browser) -> Any:
            alice = browser.open(self.url)
            queueConnect4(alice, "alice")
            waitState(alice, "queued")
            bob = browser.open(self.url)
            queueConnect4(bob, "bob")
            waitState(alice, "your-turn", "waiting")
            waitState(bob, "your-turn", "waiting")
            game = int(alice.get_attribute("#board", "data-game") or 0)
            self.assertTrue(alice.locator("#again").is_hidden())

            leaveGame(bob)
            waitState(alice, "gameover")
            self.assertRegex(alice.text_content("#status") or "",
                             r"^Game over: .+ — bob left the game\.$")
            self.assertTrue(alice.locator("#again").is_visible())
            alice.click("#again")
            waitState(alice, "queued")
            self.assertEqual(alice.text_content("#game-title"), "Play against anyone: connect4")
            queue = "form.engine[data-engine=connect4] small.queue-waiting"
            bob.wait_for_selector(f"{queue}[data-waiting='1']")
            self.assertEqual(bob.text_content(queue), "1 waiting for a Protuissance 4 game: alice.")

            bob.click("form.engine[data-engine=connect4] button.queue")
            alice.wait_for_function(
                "g => +document.querySelector('#board').dataset.game > g", arg=game)
            waitState(alice, "your-turn", "waiting")
            self.assertIn("you are P", alice.text_content("#game-title") or "")
            self.assertEqual(alice.locator("#errors li.error").count(), 0)

        yield self.inBrowser(script)


def seatNotes(page: Any) -> list[str]:
    return page.locator("#errors li.seat-change").all_text_contents()


class SeatChangeTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_botTakesTheSeat(self) -> Any:
        """
        A seat that changes hands is said in words, once, to the other
        player and to a spectator: "Bob joined the game.", then, once bob
        has left, "Bob left: a bot plays their seat now.", which stays over
        the turns that follow.
        """

        def script(browser: Browser) -> Any:
            alice = browser.open(self.url)
            setName(alice, "alice")
            form = "form.engine[data-engine=connect4]"
            alice.uncheck(f"{form} input.bot[value='2']")
            alice.click(f"{form} button.create")
            waitState(alice, "your-turn")
            game = int(alice.get_attribute("#board", "data-game") or 0)
            eve = browser.open(self.url + f"#watch={game}")
            waitState(eve, "watching", "waiting")
            bob = browser.open(self.url)
            setName(bob, "bob")
            bob.click(f"tr[data-game-id='{game}'] button.join[data-player='2']")
            waitState(bob, "waiting")

            def move(page: Any, column: int) -> None:
                waitState(page, "your-turn")
                before = int(page.get_attribute("#board", "data-version") or 0)
                clickDisplay(page, *zoneCenters(page)[column])
                page.wait_for_function(
                    "v => +document.querySelector('#board').dataset.version > v", arg=before)

            move(alice, 3)
            joined = ["Bob joined the game."]
            for page in (alice, eve):
                page.wait_for_function("() => document.querySelector('#errors li.seat-change')")
                self.assertEqual(seatNotes(page), joined)
            self.assertEqual(seatNotes(bob), [])  # (none of its own seat)
            move(bob, 3)
            waitState(alice, "your-turn")
            leaveGame(bob)

            left = ["Bob left: a bot plays their seat now.", "Bob joined the game."]
            for column in (0, 6, 1):  # the bot's moves: the note stays, once
                move(alice, column)
                alice.wait_for_function("n => document.querySelectorAll("
                                        "'#errors li.seat-change').length === n", arg=2)
                self.assertEqual(seatNotes(alice), left)
            waitState(alice, "your-turn", "gameover")
            eve.wait_for_function("n => document.querySelectorAll("
                                  "'#errors li.seat-change').length === n", arg=2)
            self.assertEqual(seatNotes(eve), left)
            self.assertIn("bob (bot)", alice.text_content("#scores") or "")
            self.assertEqual(alice.locator("#errors li.error").count(), 0)

        yield self.inBrowser(script)


class RanOutOfTimeTests(BrowserTestCase):

    @defer.inlineCallbacks
    def setUp(self) -> Any:  # type: ignore[override]  # trial waits for a Deferred setUp
        if MISSING is not None:
            self.fail(MISSING)
        # Protuissance 4's clock, short: 4 s a move.
        self.server = Server(self, [], "--connect4-timeout", "4",
                             "--connect4-first-move-bonus", "0")
        yield self.server.start()
        self.addCleanup(self.server.stop)
        self.url = self.server.url

    @defer.inlineCallbacks
    def test_errorsClearedAndTimeRunsOut(self) -> Any:
        """
        In a Protuissance 4 game between two persons, the one to play makes
        two errors (a click off the columns refused by the page, a move
        refused by the server) and lets the clock run out: both pages say
        who ran out of time, and the errors are gone.
        """

        def script(browser: Browser) -> Any:
            alice = browser.open(self.url)
            queueConnect4(alice, "alice")
            waitState(alice, "queued")
            bob = browser.open(self.url)
            queueConnect4(bob, "bob")
            waitFor(lambda: "your-turn" in (boardState(alice), boardState(bob)))
            mover, other = (alice, bob) if boardState(alice) == "your-turn" else (bob, alice)
            name = "alice" if mover is alice else "bob"
            clickDisplay(mover, 10, 255)  # under the board: no column
            mover.wait_for_selector("#errors li.error[data-source=page][data-subtype=OUT_OF_ZONE]")
            mover.evaluate("""() => window.gameproto.state.ws.send(JSON.stringify(
                {type: 'action', action: {type: 'CLICK', x: 10, y: 255, button: 'LEFT'}}))""")
            mover.wait_for_selector("#errors li.error[data-source=server]")
            self.assertEqual(mover.locator("#errors li.error").count(), 2)
            for page in (mover, other):
                waitState(page, "gameover")
                self.assertRegex(page.text_content("#status") or "",
                                 rf"^Game over: .+ — {name} ran out of time\.$")
            self.assertEqual(mover.locator("#errors li.error").count(), 0)
            self.assertEqual(mover.locator("#scores .clock:visible").count(), 0)

        yield self.inBrowser(script)
