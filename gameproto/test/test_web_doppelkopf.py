"""
Doppelkopf in the page (Debian's Chromium under Playwright, the service on
127.0.0.1; see L{gameproto.test.test_web_page}): a person plays a whole
party of one round against three bots, choosing a reservation with a button
and clicking legal cards, and sees whose turn it is, the trick and who won
it, and at the end the score sheet; on a 390 px wide phone the cards are
large enough to tap.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from twisted.internet import defer

from gameproto.engine.contract import JSON
from gameproto.games import doppelkopf
from gameproto.test.test_web_page import (
    Browser,
    BrowserTestCase,
    clickDisplay,
    setName,
    version,
    waitState,
)
from gameproto.test.test_web_play import shot, waitNewVersion

SEED = 11
"""The party seed of every game these tests create."""

FORM = "form.engine[data-engine=doppelkopf]"


def buttons(page: Any) -> list[dict[str, Any]]:
    """The buttons the display draws: their move (``data-action``), label and centre."""
    return page.evaluate("""() => [...document.querySelectorAll('#board svg rect.button')]
        .map(r => ({action: JSON.parse(r.dataset.action),
                    label: r.nextElementSibling ? r.nextElementSibling.textContent : '',
                    x: +r.getAttribute('x') + +r.getAttribute('width') / 2,
                    y: +r.getAttribute('y') + +r.getAttribute('height') / 2}))""")


def cardZones(page: Any) -> list[tuple[float, float]]:
    """The centres of the outlined zones in the hand: the cards that may be played."""
    return [tuple(z) for z in page.evaluate("""y0 =>
        [...document.querySelectorAll('#board svg rect.zone')]
          .filter(r => +r.getAttribute('y') >= y0)
          .map(r => [+r.getAttribute('x') + +r.getAttribute('width') / 2,
                     +r.getAttribute('y') + +r.getAttribute('height') / 2])""",
                                                  doppelkopf.HAND_Y)]


def boardText(page: Any) -> str:
    return page.text_content("#board svg") or ""


def createParty(page: Any) -> None:
    """A party of one round with bots in seats 2 to 4, the person in seat 1."""
    setName(page, "alice")
    page.fill(f"{FORM} input[data-param=rounds]", "1")
    page.click(f"{FORM} button.create")


class DoppelkopfPageTests(BrowserTestCase):

    timeout = 400

    @defer.inlineCallbacks
    def setUp(self) -> Any:  # type: ignore[override]  # trial waits for a Deferred setUp
        original = doppelkopf.DOPPELKOPF.start

        def start(params: Mapping[str, JSON], initvalues: Mapping[str, JSON] | None = None,
                  rng: Any = None) -> Any:
            return original(params, initvalues or {"seed": SEED}, rng)

        self.patch(doppelkopf.DOPPELKOPF, "start", start)
        yield super().setUp()

    @defer.inlineCallbacks
    def test_wholeParty(self) -> Any:
        """
        The person reserves with a button ("normal" when offered), answers a
        poverty or shifts one with the suggested cards, plays a lit card at
        every turn, until the party is over: the page then shows the score
        sheet and the final scores.  On the way: whose turn, the trick with
        who won it, readable card labels.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            createParty(page)
            reserved = played = 0
            captions: set[str] = set()
            shotTaken = False
            reservationShot = False
            while waitState(page, "your-turn", "gameover", "aborted") == "your-turn":
                status = page.text_content("#status") or ""
                before = version(page)
                offered = buttons(page)
                reservations = [b for b in offered if "reservation" in b["action"]]
                if reservations:
                    self.assertIn("click your reservation", status)
                    self.assertFalse(page.locator("#text-form").is_hidden())
                    self.assertTrue(reservations[0]["label"].startswith("\u2605"))
                    if not reservationShot:
                        page.evaluate("() => document.querySelector('#game').scrollIntoView()")
                        page.locator("#game").screenshot(
                            path=shot(self, "web-doppelkopf-reservation.png"))
                        reservationShot = True
                    normal = [b for b in reservations
                              if b["action"] == {"reservation": "normal"}]
                    choice = (normal or reservations)[0]
                    clickDisplay(page, choice["x"], choice["y"])
                    reserved += 1
                elif page.locator("#pick").is_visible():
                    # A poverty to shift or to give back: the suggested cards.
                    (suggested,) = offered
                    clickDisplay(page, suggested["x"], suggested["y"])
                elif any("poverty accepted" in b["action"] for b in offered):
                    refuse = [b for b in offered if b["action"] == {"poverty accepted": False}]
                    clickDisplay(page, refuse[0]["x"], refuse[0]["y"])
                else:
                    self.assertIn("click a lit card to play it", status)
                    self.assertIn("you \u25b8", boardText(page))
                    zones = cardZones(page)
                    self.assertTrue(zones, "the page outlines the legal cards")
                    if played == 0:
                        size = page.evaluate("""() => Math.min(...[...document.querySelectorAll(
                            '#board svg text.card-label')].map(t => t.getBoundingClientRect().height))""")
                        self.assertGreaterEqual(size, 16)
                    onTable = page.evaluate("""y0 => [...document.querySelectorAll(
                        '#board svg rect.card')].filter(r => +r.getAttribute('y') < y0).length""",
                                            doppelkopf.HAND_Y)
                    if not shotTaken and played >= 2 and onTable >= 2:
                        page.evaluate("() => document.querySelector('#game').scrollIntoView()")
                        page.locator("#game").screenshot(path=shot(self, "web-doppelkopf-trick.png"))
                        shotTaken = True
                    clickDisplay(page, *zones[-1])
                    played += 1
                waitNewVersion(page, before)
                caption = page.locator("#board svg text.trick-caption")
                if caption.count():
                    captions.add(caption.text_content() or "")
                self.assertLess(played, 200)
            self.assertEqual(waitState(page, "gameover"), "gameover",
                             page.text_content("#status"))
            page.wait_for_selector("#scores[data-final=true]")
            self.assertGreaterEqual(reserved, 4)
            self.assertGreaterEqual(played, 4 * 12)
            self.assertTrue(any("won the trick" in c for c in captions), captions)
            self.assertEqual(page.locator("#board svg g.score-sheet").count(), 1)
            sheet = page.text_content("#board svg g.score-sheet") or ""
            self.assertIn("Total", sheet)
            self.assertIn("Party over", boardText(page))
            self.assertRegex(page.text_content("#status") or "", r"^Game over: ")
            self.assertEqual(page.locator("#errors li.error").count(), 0,
                             page.locator("#errors li").all_text_contents())
            page.evaluate("() => document.querySelector('#game').scrollIntoView()")
            page.locator("#game").screenshot(path=shot(self, "web-doppelkopf-over.png"))
            game = int(page.get_attribute("#board", "data-game") or 0)
            return game, played

        game, played = yield self.inBrowser(script)
        record = self.server.service.hub.store.get(game)
        assert record is not None
        self.assertEqual(record.seats[0], "alice")
        self.assertIsNotNone(record.scores)

    @defer.inlineCallbacks
    def test_phone(self) -> Any:
        """On a 390 px wide phone: the board fits, the cards are at least 44 px each way."""

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            page.set_viewport_size({"width": 390, "height": 844})
            createParty(page)
            waitState(page, "your-turn")
            box = page.locator("#board svg").bounding_box()
            self.assertLessEqual(box["x"] + box["width"], 390)
            self.assertLessEqual(page.evaluate("() => document.documentElement.scrollWidth"), 390)
            # Reserve (the first button: the suggestion), then wait for a card to play.
            first = buttons(page)[0]
            before = version(page)
            clickDisplay(page, first["x"], first["y"])
            waitNewVersion(page, before)
            while waitState(page, "your-turn") and not cardZones(page):
                # a poverty to answer or shift: the first button
                offered = buttons(page)
                before = version(page)
                clickDisplay(page, offered[0]["x"], offered[0]["y"])
                waitNewVersion(page, before)
            cards = page.evaluate("""y0 => [...document.querySelectorAll('#board svg rect.card')]
                .filter(r => +r.getAttribute('y') >= y0)
                .map(r => { const b = r.getBoundingClientRect(); return [b.width, b.height]; })""",
                                  doppelkopf.HAND_Y)
            self.assertGreaterEqual(len(cards), 10)
            for width, height in cards:
                self.assertGreaterEqual(width, 44)
                self.assertGreaterEqual(height, 44)
            labels = page.evaluate("""() => [...document.querySelectorAll(
                '#board svg text.card-label')].map(t => t.getBoundingClientRect().height)""")
            self.assertGreaterEqual(min(labels), 12)
            page.screenshot(path=shot(self, "web-doppelkopf-phone.png"))
            zones = cardZones(page)
            before = version(page)
            clickDisplay(page, *zones[0])
            waitNewVersion(page, before)
            self.assertEqual(page.locator("#errors li.error").count(), 0)
            return json.dumps(cards)

        yield self.inBrowser(script)
