"""
Doppelkopf in the page (Debian's Chromium under Playwright, the service on
127.0.0.1; see L{gameproto.test.test_web_page}): a person plays a whole
party of one round against three bots, choosing a reservation with a button
and clicking legal cards, and sees whose turn it is, the trick and who won
it, and at the end the score sheet; on a 390 px wide phone the cards are
large enough to tap.  A person queued for a FreeDoko table plays a whole
party there beside a FreeDoko child (this library's, and the real FreeDoko
program), told in words that the child can know every hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, cast

from twisted.internet import defer, reactor, task
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from gameproto.engine.contract import JSON
from gameproto.freedoko import wire
from gameproto.games import doppelkopf
from gameproto.test.service_helpers import Server
from gameproto.test.test_doppelkopf_layers import ROUND_RULES, Child
from gameproto.test.test_web_page import (
    MISSING,
    Browser,
    BrowserTestCase,
    clickDisplay,
    openOnPhone,
    setName,
    version,
    waitState,
)
from gameproto.test.test_web_play import shot, waitNewVersion

_reactor: Any = reactor

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
                # One read of the drawing as it is now: the next version may
                # already have replaced it (a count then a read would race).
                captions.update(page.evaluate("""() => [...document.querySelectorAll(
                    '#board svg text.trick-caption')].map(t => t.textContent || '')"""))
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
            page = openOnPhone(browser, self.url)
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


def clickThrough(page: Any) -> int:
    """
    Play the seat to the party's end by clicks: ``normal`` (else the first
    button) for a reservation, the suggested cards of a poverty, no to a
    poverty offered, the last lit card of the hand; the cards played.
    """
    played = 0
    while waitState(page, "your-turn", "gameover", "aborted") == "your-turn":
        before = version(page)
        offered = buttons(page)
        reservations = [b for b in offered if "reservation" in b["action"]]
        refusals = [b for b in offered if b["action"] == {"poverty accepted": False}]
        if reservations:
            normal = [b for b in reservations if b["action"] == {"reservation": "normal"}]
            choice = (normal or reservations)[0]
            clickDisplay(page, choice["x"], choice["y"])
        elif page.locator("#pick").is_visible():
            (suggested,) = offered
            clickDisplay(page, suggested["x"], suggested["y"])
        elif refusals:
            clickDisplay(page, refusals[0]["x"], refusals[0]["y"])
        else:
            zones = cardZones(page)
            assert zones, "the page outlines the legal cards"
            clickDisplay(page, *zones[-1])
            played += 1
        waitNewVersion(page, before)
        assert played < 200
    return played


class FreeDokoTableTests(BrowserTestCase):
    """
    The page queued at the ``doppelkopf`` matchmaker ("FreeDoko") sits at a
    FreeDoko table beside a FreeDoko child that connects to the FreeDoko
    port, with two server bots, and plays the party to its end.
    """

    timeout = 400

    @defer.inlineCallbacks
    def setUp(self) -> Any:  # type: ignore[override]  # trial waits for a Deferred setUp
        if MISSING is not None:
            self.fail(MISSING)
        original = doppelkopf.DOPPELKOPF.start

        def start(params: Mapping[str, JSON], initvalues: Mapping[str, JSON] | None = None,
                  rng: Any = None) -> Any:
            return original(params, initvalues or {"seed": SEED}, rng)

        self.patch(doppelkopf.DOPPELKOPF, "start", start)
        rules = Path(self.mktemp())
        rules.write_text(ROUND_RULES, encoding="utf-8")
        self.server = Server(self, [], "--freedoko-rules", str(rules),
                             "--freedoko-bots-after", "3", "--freedoko-timeout", "60",
                             ports=("web", "freedoko"))
        yield self.server.start()
        self.addCleanup(self.server.stop)
        self.url = self.server.url

    def playBeside(self, connect: Any) -> Any:
        """
        In the page: queue as alice at the FreeDoko matchmaker, have
        ``connect`` (in the reactor) bring a child to the FreeDoko port,
        and play the party to its end.  The game, the cards played, the
        words shown with the first decision, and the status at the end.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            setName(page, "alice")
            form = "form.engine[data-engine=doppelkopf]"
            page.wait_for_selector(f"{form} button.queue")
            page.click(f"{form} button.queue")
            waitState(page, "queued")
            self.fromThread(connect)
            self.assertEqual(waitState(page, "your-turn", "gameover", "aborted"), "your-turn")
            told = page.text_content("#last-move") or ""
            game = int(page.get_attribute("#board", "data-game") or 0)
            played = clickThrough(page)
            self.assertEqual(waitState(page, "gameover"), "gameover",
                             page.text_content("#status"))
            page.wait_for_selector("#scores[data-final=true]")
            self.assertIn("Total", page.text_content("#board svg g.score-sheet") or "")
            self.assertEqual(page.locator("#errors li.error").count(), 0,
                             page.locator("#errors li").all_text_contents())
            return game, played, told, page.text_content("#status") or ""

        return self.inBrowser(script)

    def checkRecord(self, game: int, played: int, child: str) -> None:
        """The finished record: alice and the child seated, scores, as many cards as played."""
        record = self.server.service.hub.store.get(game)
        assert record is not None
        self.assertEqual(record.engine, "doppelkopf")
        self.assertEqual(record.seats[:2], ["alice", child])
        self.assertIsNone(record.error)
        self.assertIsNotNone(record.scores)
        cards = [a for a in record.actions if a.seat == 0 and isinstance(a.action, dict)
                 and "card" in a.action]
        self.assertEqual(len(cards), played)
        self.assertGreaterEqual(played, 4 * 12, "a card in each trick of four games or more")
        self.assertEqual(played % 12, 0)

    @defer.inlineCallbacks
    def test_besideLibraryChild(self) -> Any:
        """
        Beside this library's FreeDoko child (its bot playing): the page is
        told the child can know every hand, plays to the end; the child
        follows the whole party without a difference from its rules engine.
        """
        children: list[Child] = []

        def connect() -> Any:
            child = Child("Anna")
            children.append(child)
            endpoint = TCP4ClientEndpoint(_reactor, "127.0.0.1", self.server.ports["freedoko"])
            return connectProtocol(endpoint, child)

        game, played, told, status = yield self.playBeside(connect)
        self.assertIn("Anna plays here with FreeDoko, which is sent the party's seed: "
                      "every hand follows from it, yours too", told)
        self.assertRegex(status, r"^Game over: ")
        (child,) = children
        yield child.done.addTimeout(30, _reactor)
        self.assertTrue(child.finished)
        self.assertEqual((child.mismatches, child.problem), ([], None))
        self.assertEqual(child.seat, 1)
        self.checkRecord(game, played, "Anna")

    @defer.inlineCallbacks
    def test_besideRealChild(self) -> Any:
        """
        Beside the real FreeDoko program as a child (its AI playing): the
        page plays to the end, and the real child agrees with the server
        on every trick.
        """
        from gameproto.test.freedoko_real import findBinary, spawnFreeDoko
        from gameproto.test.test_freedoko_interop import RecordingProtocol

        findBinary()
        factory = self.server.service.getServiceNamed("freedoko").factory
        factory.protocol = RecordingProtocol
        factory.connections = []
        factory.journal = []
        reals: list[Any] = []

        def connect() -> None:
            real = spawnFreeDoko(_reactor, "child", self.server.ports["freedoko"], name="Anna",
                                 lifetime=380)
            self.addCleanup(real.stop)
            reals.append(real)

        game, played, told, status = yield self.playBeside(connect)
        self.assertIn("Anna plays here with FreeDoko", told)
        yield task.deferLater(_reactor, 0.5, lambda: None)
        self.checkRecord(game, played, "Anna")
        (connection,) = cast(list[RecordingProtocol], factory.connections)
        ours = connection.parentSent(wire.TrickFull)
        self.assertEqual(len(ours), played, "a trick for each card of alice's")
        self.assertEqual(connection.childSent(wire.TrickFull), ours,
                         "the real child's tricks are not the server's: "
                         + reals[0].process.describe())
        self.assertEqual(len(connection.parentSent(wire.PartyFinish)), 1)
