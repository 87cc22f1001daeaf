"""
The page's lobby and the ends of games, as a person meets them (Debian's
Chromium under Playwright, the service on 127.0.0.1; see
L{gameproto.test.test_web_page}): the server's refusals and a game's abort
said in sentences where the person looks.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer

from gameproto.test.test_web_page import Browser, BrowserTestCase, setName, waitState

SENTENCE = r"^[A-Z].*[^.]\.$"
"""A capital first, one full stop last."""


class ProblemTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_problemsAsSentences(self) -> Any:
        """
        The server's ``problem`` messages and a game's abort read as
        sentences, with the seats' names for the game shown: a seat taken
        back from another tab aborts the game here; a token refused when
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
            waitState(alice, "aborted")
            self.assertEqual(alice.text_content("#status"),
                             "Game aborted: alice's seat was taken back with its token.")

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

            bob = browser.open(self.url)
            setName(bob, "bob")
            bob.click("form.engine[data-engine=connect4] button.queue")
            waitState(bob, "queued")
            alice.wait_for_selector(f"{queue}[data-waiting='1']")
            self.assertEqual(alice.text_content(queue),
                             "1 waiting for a Protuissance 4 game: bob.")
            bob.click("#leave")
            bob.wait_for_selector("#game", state="hidden")
            alice.wait_for_selector(f"{queue}[data-waiting='0']")

            # A Tarot game created with two open seats: the list says so.
            made = self.api("/api/games", {"engine": "tarot", "bots": [2, 3]})
            row = f"tr[data-game-id='{made['id']}']"
            alice.wait_for_selector(f"{row} .waiting-text")
            self.assertEqual(alice.text_content(f"{row} .waiting-text"), " waiting for 2 players")
            self.assertEqual(alice.locator(f"{row} .seat.open").all_text_contents(),
                             ["P1 (open)", "P4 (open)"])
            alice.click(f"{row} button.join[data-player='1']")
            waitState(alice, "your-turn", "waiting")
            alice.wait_for_function(
                "row => document.querySelector(row + ' .waiting-text')?.textContent"
                " === ' waiting for 1 player'", arg=row)

        yield self.inBrowser(script)
