"""
The web page keeps its seats' tokens and takes its seat back by itself,
after a reload and after a dropped WebSocket (Debian's Chromium under
Playwright, the service listening on 127.0.0.1; see L{test_web_page}).
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer

from gameproto.test.test_web_page import (
    Browser,
    BrowserTestCase,
    clickDisplay,
    colouredCircles,
    setName,
    version,
    waitState,
    zoneCenters,
)


class RejoinTests(BrowserTestCase):
    """A person reloads the page, or loses the connection, mid-game: back in the same seat."""

    @defer.inlineCallbacks
    def test_reloadAndDrop(self) -> Any:
        def move(page: Any, other: Any) -> None:
            before = version(other)
            clickDisplay(page, *zoneCenters(page)[3])
            other.wait_for_function(
                "v => +document.querySelector('#board').dataset.version > v", arg=before)

        def script(browser: Browser) -> Any:
            dora = browser.open(self.url)
            setName(dora, "dora")
            # Both seats to persons: uncheck the bot of the second seat.
            form = "form.engine[data-engine=connect4]"
            for box in dora.locator(f"{form} input.bot").all():
                if box.is_checked():
                    box.uncheck()
            dora.click(f"{form} button.create")
            waitState(dora, "your-turn")
            game = int(dora.get_attribute("#board", "data-game") or 0)
            stored = dora.evaluate("""game => ({
                token: localStorage.getItem(`gameproto.token.${game}.1`),
                seat: JSON.parse(sessionStorage.getItem('gameproto.seat')),
            })""", game)
            self.assertGreaterEqual(len(stored["token"] or ""), 22)
            self.assertEqual(stored["seat"], {"game": game, "player": 1, "name": "dora"})

            bob = browser.open(self.url)
            setName(bob, "bob")
            bob.click(f"tr[data-game-id='{game}'] button.join[data-player='2']")
            waitState(bob, "waiting")
            move(dora, bob)
            waitState(bob, "your-turn")

            # A reload: the page takes its seat back by itself.
            dora.reload(wait_until="domcontentloaded")
            dora.wait_for_function(
                "game => +document.querySelector('#board').dataset.game === game"
                " && document.querySelector('#status').dataset.state === 'waiting'", arg=game)
            self.assertIn("you are P1", dora.text_content("#game-title") or "")
            dora.wait_for_selector("#board svg")
            self.assertEqual(colouredCircles(dora), 1)
            move(bob, dora)
            waitState(dora, "your-turn")
            self.assertEqual(colouredCircles(dora), 2)
            self.assertEqual(self.api(f"/api/games/{game}")["seats"], ["dora", "bob"])

            move(dora, bob)
            waitState(bob, "your-turn")

            # A dropped WebSocket (on bob's turn: a bot would play dora's):
            # taken back once connected again.
            dora.evaluate("() => window.gameproto.state.ws.close()")
            dora.wait_for_selector("#connection[data-state=closed]")
            dora.wait_for_selector("#connection[data-state=open]")
            dora.wait_for_function(
                "() => window.gameproto.state.mode === 'seated'"
                " && document.querySelector('#status').dataset.state === 'waiting'")
            self.assertEqual(int(dora.get_attribute("#board", "data-game") or 0), game)
            self.assertEqual(colouredCircles(dora), 3)
            move(bob, dora)
            waitState(dora, "your-turn")
            self.assertEqual(colouredCircles(dora), 4)
            self.assertEqual(self.api(f"/api/games/{game}")["seats"], ["dora", "bob"])

            # Another tab of the same browser does not take the seat.
            other = browser.open(self.url)
            other.wait_for_selector(f"tr[data-game-id='{game}']")
            self.assertEqual(other.evaluate("() => window.gameproto.state.mode"), "lobby")
            self.assertEqual(self.api(f"/api/games/{game}")["seats"], ["dora", "bob"])

        yield self.inBrowser(script)
