"""
The page plays like a game site (Debian's Chromium under Playwright, the
service on 127.0.0.1; see L{gameproto.test.test_web_page}): whose turn in
words with a countdown, Connect Four's colours, last move and winning four,
Tarot's readable cards and click-to-pick discard, errors in words that clear
once an action is accepted, replays in words that follow the address, and a
phone's view.
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from twisted.internet import defer
from twisted.trial.unittest import TestCase

from gameproto.engine.contract import JSON, Zone
from gameproto.games import tarot
from gameproto.test.test_web_page import (
    Browser,
    BrowserTestCase,
    boardState,
    clickDisplay,
    colouredCircles,
    openOnPhone,
    scoresShown,
    setName,
    version,
    waitState,
    zoneCenters,
)

TAROT_SEED = 0
"""With the first dealer P4, P1 (the page) bids first; after its garde the bots pass."""


def waitNewVersion(page: Any, before: int) -> None:
    page.wait_for_function(
        "v => +document.querySelector('#board').dataset.version > v"
        " || !['your-turn', 'sent'].includes(document.querySelector('#status').dataset.state)",
        arg=before)


def playConnect4(page: Any, column: int = 3) -> int:
    """Click columns (the middle one while it is open) until the game is over; the moves made."""
    moves = 0
    while waitState(page, "your-turn", "gameover", "aborted") == "your-turn":
        zones = zoneCenters(page)
        before = version(page)
        clickDisplay(page, *zones[min(column, len(zones) - 1)])
        waitNewVersion(page, before)
        moves += 1
        assert moves < 40
    return moves


def shot(test: TestCase, name: str) -> str:
    """
    Where a screenshot goes: ``GAMEPROTO_SCREENSHOTS`` (to refresh the
    docs' images: ``GAMEPROTO_SCREENSHOTS=docs/images``), else the test's
    own temporary directory.
    """
    folder = os.environ.get("GAMEPROTO_SCREENSHOTS") or test.mktemp()
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)


def gameShot(test: TestCase, page: Any, name: str) -> None:
    """The game's view (``#game``, as docs/web.md shows a view on a laptop) in ``name``."""
    page.evaluate("() => document.querySelector('#game').scrollIntoView()")
    page.locator("#game").screenshot(path=shot(test, name))


def centre(zone: Mapping[str, float]) -> tuple[float, float]:
    return zone["x"] + zone["width"] / 2, zone["y"] + zone["height"] / 2


def sizesOnScreen(page: Any, selector: str, top: float = 0) -> list[tuple[float, float]]:
    """
    The width and height in CSS pixels of each element ``selector`` finds
    in the board at ``top`` (display units) or below.
    """
    return [tuple(size) for size in page.evaluate("""([selector, top]) =>
        [...document.querySelectorAll('#board svg ' + selector)]
          .filter(r => +r.getAttribute('y') >= top)
          .map(r => { const box = r.getBoundingClientRect(); return [box.width, box.height]; })""",
                                                  [selector, top])]


class Connect4Tests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_turnClockColourAndHighlights(self) -> Any:
        """
        Against the engine's bot: the status says "Your turn — … left: click
        a column", the score chips have the seats' colours and a countdown,
        each move is ringed as the last one, and the end names why: the
        winning four ringed, or the full board.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            setName(page, "alice")
            page.click("form.engine[data-engine=connect4] button.create")
            waitState(page, "your-turn")
            status = page.text_content("#status") or ""
            self.assertRegex(status, r"^Your turn — (\d+ min )?\d+ s left: click a column\.$")
            # The countdown moves.
            page.wait_for_function(
                "s => document.querySelector('#status').textContent !== s", arg=status)
            clock = page.locator("#scores li[data-player='1'] .clock")
            self.assertTrue(clock.is_visible())
            self.assertIn("left", clock.text_content() or "")
            self.assertIn("turn", page.get_attribute("#scores li[data-player='1']", "class") or "")
            colours = [page.get_attribute(f"#scores li[data-player='{n}']", "data-colour")
                       for n in (1, 2)]
            self.assertEqual(colours, ["#d62828", "#f6c90e"])
            self.assertEqual(page.locator("#scores .swatch").count(), 2)
            self.assertEqual(page.get_attribute("#game-title .swatch", "title"),
                             "your colour: red")
            # The columns are numbered from 1 under the board.
            numbers = page.locator("#board svg text.column-number").all_text_contents()
            self.assertEqual(numbers, [str(n) for n in range(1, 8)])
            clickDisplay(page, 10, 255)  # under the board: no column
            page.wait_for_selector("#errors li.error[data-subtype=OUT_OF_ZONE]")
            gameShot(self, page, "web-connect4-refused-after.png")
            before = version(page)
            clickDisplay(page, *zoneCenters(page)[3])
            waitNewVersion(page, before)
            waitState(page, "your-turn", "gameover")
            self.assertEqual(page.locator("#board svg circle.last-move").count(), 1)
            self.assertRegex(page.text_content("#last-move") or "", r"^Bot2 played column \d\.$")
            gameShot(self, page, "web-connect4-playing-after.png")
            playConnect4(page)
            self.assertEqual(boardState(page), "gameover")
            status = page.text_content("#status") or ""
            wins = page.locator("#board svg circle.win").count()
            if "four in a row" in status:
                self.assertEqual(wins, 4)
            else:
                self.assertIn("the board is full", status)
                self.assertEqual(wins, 0)
            self.assertEqual(page.locator("#scores .clock:visible").count(), 0)
            gameShot(self, page, "web-connect4-over-after.png")
            # Play again: a new game of the same kind.
            game = int(page.get_attribute("#board", "data-game") or 0)
            page.click("#again")
            page.wait_for_function(
                "g => +document.querySelector('#board').dataset.game !== g", arg=game)
            waitState(page, "your-turn")

        yield self.inBrowser(script)

    @defer.inlineCallbacks
    def test_replayInWords(self) -> Any:
        """
        A replay says what each turn did in words and names, its address is
        followed when it changes, and it has a link to each turn.
        """

        def script(browser: Browser) -> Any:
            made = self.api("/api/games", {"engine": "connect4", "bots": [1, 2]})
            self.waitFinished(made["id"])
            game = made["id"]
            page = browser.open(self.url + f"#replay={game}&turn=1")
            page.wait_for_selector("#board[data-turn='1'] svg")
            self.assertRegex(page.text_content("#replay-action") or "",
                             r"^Bot1 played column [1-7]\.$")
            self.assertTrue(page.get_attribute("#replay-link", "href").endswith(
                f"#replay={game}&turn=1"))
            for button in ("first", "prev", "next", "last"):
                self.assertEqual(page.locator(f"#replay-{button} svg").count(), 1)
            # The address changes (a link, the history): the replay follows.
            page.evaluate(f"() => {{ location.hash = 'replay={game}&turn=2'; }}")
            page.wait_for_selector("#board[data-turn='2']")
            self.assertRegex(page.text_content("#replay-action") or "",
                             r"^Bot2 played column [1-7]\.$")
            gameShot(self, page, "web-replay-after.png")
            page.click("#replay-last")
            page.wait_for_function(
                "() => document.querySelector('#replay-action').textContent.startsWith('Game over')")
            self.assertIn("#replay=", page.get_attribute("#replay-link", "href") or "")

        yield self.inBrowser(script)


class TarotTestCase(BrowserTestCase):
    """Tarot games dealt from L{TAROT_SEED}, and what their table holds."""

    @defer.inlineCallbacks
    def setUp(self) -> Any:  # type: ignore[override]  # trial waits for a Deferred setUp
        original = tarot.TAROT.start

        def start(params: Mapping[str, JSON], initvalues: Mapping[str, JSON] | None = None,
                  rng: Any = None) -> Any:
            return original(params, initvalues or {"seed": TAROT_SEED}, rng)

        self.patch(tarot.TAROT, "start", start)
        yield super().setUp()

    def table(self) -> Any:
        hub = self.server.service.hub
        (table,) = [t for t, _ in hub.tables.values() if t.factory.name == "tarot"]
        return table

    def tarotHand(self) -> list[int]:
        return sorted(self.table().engine.hands[0])

    def tarotDiscard(self) -> list[int]:
        return list(self.table().engine.discard or ())


def createTarot(page: Any) -> None:
    """A Tarot game against three bots, the page in seat 1, P4 dealing: P1 bids first."""
    setName(page, "alice")
    form = "form.engine[data-engine=tarot]"
    page.fill(f"{form} input[data-param=dealer]", "3")
    page.click(f"{form} button.create")
    waitState(page, "your-turn")


def clickZone(page: Any, zone: Zone) -> None:
    """Click the middle of one of the engine's zones."""
    clickDisplay(page, zone.x + zone.width / 2, zone.y + zone.height / 2)


GARDE = tarot._buttonZones(tarot.GARDE_CONTRE + 1)[tarot.GARDE]


class TarotTests(TarotTestCase):

    @defer.inlineCallbacks
    def test_clickDiscard(self) -> Any:
        """
        The taker discards by clicking six cards (one unpicked on the way),
        then Confirm; an illegal discard is refused with the rule in words,
        and that error clears once an action is accepted.  The cards' labels
        are at least 16 px high on a laptop.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            createTarot(page)
            self.assertIn("click your bid", page.text_content("#status") or "")
            size = page.evaluate("""() => {
                const svg = document.querySelector('#board svg');
                const label = [...svg.querySelectorAll('text')].find(
                    t => t.getAttribute('font-size') === '24');
                return label.getBoundingClientRect().height;
            }""")
            self.assertGreaterEqual(size, 16)
            gameShot(self, page, "web-tarot-bidding-after.png")
            clickZone(page, GARDE)
            page.wait_for_selector("#pick:not([hidden])")
            self.assertTrue(page.locator("#text-form").is_hidden())
            self.assertEqual(page.get_attribute("#pick-send", "disabled"), "")
            # A discard with a king, sent as a TEXT by another client would:
            # the rules' words come back.
            hand = self.fromThread(self.tarotHand)
            king = [c for c in hand if tarot.isKing(c)][0]
            others = [c for c in hand if c < tarot.PETIT and not tarot.isKing(c)][:5]
            page.evaluate("""text => window.gameproto.state.ws.send(JSON.stringify(
                {type: 'action', action: {type: 'TEXT', text}}))""",
                " ".join(str(c) for c in [king] + others))
            page.wait_for_selector("#errors li.error[data-source=server]")
            error = page.text_content("#errors li.error[data-source=server]") or ""
            self.assertIn("Kings and oudlers", error)
            self.assertNotRegex(error, r"[{}\[\]]|\^|\\d")
            gameShot(self, page, "web-tarot-error-after.png")
            picks = page.evaluate("""() => [...document.querySelectorAll('#board rect.pick')]
                .map(r => ({x: +r.getAttribute('x'), y: +r.getAttribute('y'),
                            width: +r.getAttribute('width'), height: +r.getAttribute('height'),
                            value: r.dataset.value}))""")
            self.assertGreaterEqual(len(picks), 6)
            for zone in picks[:7]:
                clickDisplay(page, *centre(zone))
            # The seventh is refused: six at most.
            page.wait_for_selector("#errors li.error[data-subtype=PICK_FULL]")
            self.assertEqual(page.locator("#board rect.pick.picked").count(), 6)
            clickDisplay(page, *centre(picks[0]))      # unpick one
            self.assertEqual(page.locator("#board rect.pick.picked").count(), 5)
            self.assertIsNotNone(page.get_attribute("#pick-send", "disabled"))
            clickDisplay(page, *centre(picks[6]))      # and pick another
            self.assertIn("Picked 6 of 6", page.text_content("#pick-text") or "")
            gameShot(self, page, "web-tarot-discard-after.png")
            page.click("#pick-send")
            page.wait_for_selector("#pick", state="hidden")
            waitState(page, "your-turn", "waiting")
            self.assertEqual(page.locator("#errors li.error").count(), 0)
            discard = self.fromThread(self.tarotDiscard)
            self.assertEqual(sorted(discard), sorted(int(z["value"]) for z in picks[1:7]))
            self.assertIn("Discard", page.text_content("#board svg") or "")
            # A trick: four cards, then who won it.
            while "Last trick" not in (page.text_content("#board svg") or ""):
                waitState(page, "your-turn")
                before = version(page)
                clickDisplay(page, *zoneCenters(page)[0])
                waitNewVersion(page, before)
            text = page.text_content("#board svg") or ""
            self.assertRegex(text, r"Last trick: (you|P[234]) won it")
            gameShot(self, page, "web-tarot-trick-after.png")

        yield self.inBrowser(script)


    @defer.inlineCallbacks
    def test_wholeDeal(self) -> Any:
        """
        A whole deal: the garde bid, six cards picked and confirmed, a lit
        card clicked at each turn up to the last trick; then the score
        explained (the contract's result, the points against the threshold,
        the value) over the score sheet, and "stop" ends the game.  Its
        replay then says each turn in words and names.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            createTarot(page)
            clickZone(page, GARDE)
            page.wait_for_selector("#pick:not([hidden])")
            for index in range(6):
                clickDisplay(page, *centre(pickZones(page)[index]))
            page.click("#pick-send")
            page.wait_for_selector("#pick", state="hidden")
            played = 0
            while True:
                waitState(page, "your-turn")
                status = page.text_content("#status") or ""
                if "play another deal, or stop" in status:
                    break
                self.assertIn("click a lit card to play it", status)
                before = version(page)
                clickDisplay(page, *zoneCenters(page)[0])
                waitNewVersion(page, before)
                played += 1
                self.assertLessEqual(played, 18)
            self.assertEqual(played, 18)
            text = page.text_content("#board svg") or ""
            self.assertRegex(text, r"(You|P[234]) (made|lost) the garde")
            self.assertRegex(text, r"Points: [\d.]+ with \d oudlers?, needed \d\d: "
                                   r"(made|short) by \d+")
            self.assertRegex(text, r"Value: \(25 \+ \d+\) × 2 = \d+")
            self.assertIn("This deal: you ", text)
            game = self.fromThread(lambda: self.table().engine)
            sheet = page.locator("#board svg g.score-sheet text").all_text_contents()
            (deal,) = game.history
            totals = [str(t) for t in game.totals]
            self.assertEqual(sheet, ["Deal", "you", "P2", "P3", "P4",
                                     "1", *[f"{p:+d}" if p else "0" for p in deal["scores"]],
                                     "Total", *totals])
            self.assertEqual([score for _, score in scoresShown(page)], totals)
            self.assertEqual(page.locator("#errors li.error").count(), 0)
            gameShot(self, page, "web-tarot-deal-end-after.png")
            playAgain, stop = tarot._buttonZones(2)
            self.assertEqual(len(zoneCenters(page)), 2)
            clickZone(page, stop)
            waitState(page, "gameover")
            self.assertEqual(page.text_content("#status"),
                             f"Game over: {expectedResult(game.totals)} — alice stopped after deal 1.")
            gameId = int(page.get_attribute("#board", "data-game") or 0)
            # Its replay, in words.
            page.click("#replay-this")
            page.wait_for_selector("#board[data-turn='0'] svg")
            labels = {}
            for turn in (1, 2, 5, 6, 9):
                page.evaluate(f"() => {{ location.hash = 'replay={gameId}&turn={turn}'; }}")
                page.wait_for_selector(f"#board[data-turn='{turn}']")
                labels[turn] = page.text_content("#replay-action") or ""
            self.assertEqual(labels[1], "Alice bids garde.")
            self.assertEqual(labels[2], "Bot2 passes.")
            self.assertEqual(labels[5], "Alice discarded six cards.")
            self.assertRegex(labels[6], r"^Alice played (\d+|J|Kn|Q|K)[♣♠♥♦]\.$")
            self.assertRegex(labels[9], r"^Bot4 played \S+; (alice|bot[234]) won the trick\.$")
            page.click("#replay-last")
            page.wait_for_function("() => document.querySelector('#replay-action')"
                                   ".textContent.startsWith('Game over')")
            self.assertIn("alice stopped after deal 1", page.text_content("#replay-action") or "")
            gameShot(self, page, "web-tarot-replay.png")

        yield self.inBrowser(script)


    @defer.inlineCallbacks
    def test_spectatorFollows(self) -> Any:
        """
        A spectator (opened from a ``#watch=`` address) follows a Tarot
        table: whose turn in names, the bids, the chien but never a hand or
        the discard, each trick and who won it; its clicks play nothing.
        """

        def script(browser: Browser) -> Any:
            player = browser.open(self.url)
            createTarot(player)
            game = int(player.get_attribute("#board", "data-game") or 0)
            watcher = browser.open(self.url + f"#watch={game}")
            waitState(watcher, "watching")
            watcher.wait_for_selector("#board svg")
            self.assertIn("watching", watcher.text_content("#game-title") or "")
            watcher.wait_for_function(
                "() => /^Alice to play/.test(document.querySelector('#status').textContent)")
            self.assertRegex(watcher.text_content("#status") or "",
                             r"^Alice to play — (\d+ min )?\d+ s left\.$")
            self.assertIn("you are a spectator", watcher.text_content("#board svg") or "")
            self.assertEqual(sizesOnScreen(watcher, "rect.card", tarot.HAND_Y), [])
            self.assertEqual(watcher.locator("#board svg rect.zone").count(), 0)

            clickZone(player, GARDE)
            watcher.wait_for_function("() => document.querySelector('#board svg')"
                                      ".textContent.includes('Bids: P1 garde · P2 pass')")
            player.wait_for_selector("#pick:not([hidden])")
            before = version(player)
            clickDisplay(player, *zoneCenters(player)[0])  # the proposed discard
            waitNewVersion(player, before)
            waitState(player, "your-turn")
            self.assertIn("Discard", player.text_content("#board svg") or "")
            board = watcher.text_content("#board svg") or ""
            self.assertIn("Chien", board)
            self.assertNotIn("Discard", board)
            self.assertIn("P1 ▸", board)
            while "Last trick" not in (player.text_content("#board svg") or ""):
                waitState(player, "your-turn")
                before = version(player)
                clickDisplay(player, *zoneCenters(player)[0])
                waitNewVersion(player, before)
            watcher.wait_for_function("() => document.querySelector('#board svg')"
                                      ".textContent.includes('Last trick')")
            self.assertRegex(watcher.text_content("#board svg") or "",
                             r"Last trick: P[1-4] won it")
            # The last step in words: the trick's last card and its winner, or the next
            # trick's first cards when a bot won it.
            self.assertRegex(watcher.text_content("#last-move") or "",
                             r"^Bot[234] played \S+(; (alice|bot[234]) won the trick)?\.$")
            self.assertEqual([name for name, _ in scoresShown(watcher)],
                             ["P1 alice", "P2 bot2", "P3 bot3", "P4 bot4"])
            self.assertEqual(sizesOnScreen(watcher, "rect.card", tarot.HAND_Y), [])
            gameShot(self, watcher, "web-tarot-spectator.png")
            clickDisplay(watcher, 300, 700)
            watcher.wait_for_selector("#errors li.note")
            self.assertIn("spectators do not play", watcher.text_content("#errors li.note") or "")
            self.assertEqual(watcher.locator("#errors li.error").count(), 0)

        yield self.inBrowser(script)


def pickZones(page: Any) -> list[dict[str, float]]:
    """The zones outlined to pick from (the discard's cards), in display units."""
    return page.evaluate("""() => [...document.querySelectorAll('#board rect.pick')]
        .map(r => ({x: +r.getAttribute('x'), y: +r.getAttribute('y'),
                    width: +r.getAttribute('width'), height: +r.getAttribute('height')}))""")


def expectedResult(totals: list[int]) -> str:
    """What the status says of the final totals, for the page in seat 1 named alice."""
    best = max(totals)
    winners = [n for n, total in enumerate(totals, 1) if total == best]
    if len(winners) == len(totals):
        return "a draw"
    if len(winners) == 1:
        return "you win" if winners == [1] else f"P{winners[0]} bot{winners[0]} wins"
    names = ["P1 alice" if n == 1 else f"P{n} bot{n}" for n in winners]
    return f"{', '.join(names)} win"


class PhoneTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_newGameScrollsIntoView(self) -> Any:
        """
        On a 390 px wide phone, a game created from the bottom of the lobby
        scrolls into view; the board fits the width; the buttons are at
        least 44 px high.
        """

        def script(browser: Browser) -> Any:
            page = openOnPhone(browser, self.url, "alice")
            button = page.locator("form.engine[data-engine=tarot] button.create")
            button.scroll_into_view_if_needed()
            self.assertGreater(page.evaluate("() => window.scrollY"), 200)
            button.click()
            waitState(page, "your-turn")
            page.wait_for_selector("#board svg")
            top = page.evaluate("() => document.querySelector('#game').getBoundingClientRect().top")
            self.assertLessEqual(abs(top), 60)
            box = page.locator("#board svg").bounding_box()
            self.assertLessEqual(box["x"] + box["width"], 390)
            self.assertGreater(box["width"], 330)
            self.assertLessEqual(page.evaluate("() => document.documentElement.scrollWidth"), 390)
            for selector in ("#leave", "#zoom-in", "#zoom-out", "#zoom-fit"):
                self.assertGreaterEqual(page.locator(selector).bounding_box()["height"], 44,
                                        selector)
            page.screenshot(path=shot(self, "web-phone-tarot-after.png"))

        yield self.inBrowser(script)


    @defer.inlineCallbacks
    def test_connect4Moves(self) -> Any:
        """
        On a 390 px wide phone, Connect Four's columns are at least 44 px
        wide and tall, and a few moves are made by tapping them.
        """

        def script(browser: Browser) -> Any:
            page = openOnPhone(browser, self.url, "alice")
            page.click("form.engine[data-engine=connect4] button.create")
            waitState(page, "your-turn")
            page.wait_for_selector("#board svg")
            self.assertLessEqual(page.evaluate("() => document.documentElement.scrollWidth"), 390)
            columns = sizesOnScreen(page, "rect.zone")
            self.assertEqual(len(columns), 7)
            for width, height in columns:
                self.assertGreaterEqual(min(width, height), 44, (width, height))
            for column in (3, 2, 4):
                waitState(page, "your-turn")
                before = version(page)
                clickDisplay(page, *zoneCenters(page)[column])
                # two displays: the move, then the bot's answer
                page.wait_for_function(
                    "n => +document.querySelector('#board').dataset.version >= n", arg=before + 2)
            waitState(page, "your-turn")
            self.assertRegex(page.text_content("#last-move") or "", r"^Bot2 played column \d\.$")
            self.assertEqual(colouredCircles(page), 6)
            self.assertEqual(page.locator("#errors li.error").count(), 0)
            page.screenshot(path=shot(self, "web-phone-connect4.png"))

        yield self.inBrowser(script)


    @defer.inlineCallbacks
    def test_nothingSideways(self) -> Any:
        """
        From 360 to 414 px wide, nothing scrolls sideways, neither the page
        nor the list of games (one block a game there, its buttons in view),
        and the buttons, the fields and the tick boxes' labels are at least
        44 px each way: in the lobby, and beside a replay's controls.
        """

        def script(browser: Browser) -> Any:
            # A game with open seats (Join, Watch), and a finished one (Replay).
            self.api("/api/games", {"engine": "tarot", "bots": [2, 3]})
            finished = self.waitFinished(
                self.api("/api/games", {"engine": "connect4", "bots": [1, 2]})["id"])["id"]
            page = browser.open(self.url)
            page.wait_for_selector("#games button.join")
            page.wait_for_selector(f"tr[data-game-id='{finished}'] button.replay")

            def check(what: str) -> None:
                for width in (360, 390, 414):
                    page.set_viewport_size({"width": width, "height": 844})
                    self.assertEqual(sticking(page), [], (what, width))
                    self.assertEqual(smallTargets(page), [], (what, width))

            check("lobby")
            page.click(f"tr[data-game-id='{finished}'] button.replay")
            page.wait_for_selector("#board[data-turn='0'] svg")
            check("replay")

        yield self.inBrowser(script)


def sticking(page: Any) -> list[str]:
    """What sticks out sideways: the page wider than the screen, a box that scrolls sideways."""
    return page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const found = [];
        if (document.documentElement.scrollWidth > width) found.push('the page');
        for (const e of document.querySelectorAll('body *')) {
            if (e.closest('svg') || !e.getClientRects().length) continue;
            const box = e.getBoundingClientRect();
            if (box.right > width + 0.5 || e.scrollWidth > e.clientWidth + 1 &&
                ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)) {
                found.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
            }
        }
        return found;
    }""")


def smallTargets(page: Any) -> list[str]:
    """The buttons, fields and tick boxes' labels shown under 44 px wide or high."""
    return page.evaluate("""() =>
        [...document.querySelectorAll(
            'button, select, a[href], input:not([type=checkbox]), .seats label')]
          .filter(e => e.getClientRects().length)
          .map(e => [e, e.getBoundingClientRect()])
          .filter(([e, box]) => box.width < 44 || box.height < 44)
          .map(([e, box]) => `${e.tagName.toLowerCase()}#${e.id} ${e.textContent.trim()}`
                             + ` ${Math.round(box.width)}x${Math.round(box.height)}`)""")


class TarotPhoneTests(TarotTestCase):

    @defer.inlineCallbacks
    def test_tapTargets(self) -> Any:
        """
        On a 390 px wide phone, Tarot's tap targets are at least 44 px each
        way: the bid buttons, the cards of the hand, the cards to pick for
        the discard and the proposal's button, the cards to play; a few
        cards are played by tapping them.
        """

        def script(browser: Browser) -> Any:
            page = openOnPhone(browser, self.url)
            createTarot(page)
            self.assertLessEqual(page.evaluate("() => document.documentElement.scrollWidth"), 390)

            def atLeast44(selector: str, count: int, top: float = 0) -> None:
                sizes = sizesOnScreen(page, selector, top)
                self.assertGreaterEqual(len(sizes), count, selector)
                for width, height in sizes:
                    self.assertGreaterEqual(min(width, height), 44, (selector, width, height))

            atLeast44("rect.button", 5)
            atLeast44("rect.zone", 5)  # the bids allowed
            atLeast44("rect.card", 18, tarot.HAND_Y)
            clickZone(page, GARDE)
            page.wait_for_selector("#pick:not([hidden])")
            atLeast44("rect.pick", 6)
            atLeast44("rect.zone", 1)  # the proposal
            atLeast44("rect.card", 24, tarot.HAND_Y)
            page.screenshot(path=shot(self, "web-phone-tarot-discard.png"))
            before = version(page)
            clickDisplay(page, *zoneCenters(page)[0])  # the proposed discard
            waitNewVersion(page, before)
            for _ in range(3):
                waitState(page, "your-turn")
                atLeast44("rect.zone", 1)
                before = version(page)
                clickDisplay(page, *zoneCenters(page)[0])
                waitNewVersion(page, before)
            waitState(page, "your-turn", "waiting")
            self.assertEqual(len(self.fromThread(self.tarotHand)), 15)
            self.assertEqual(page.locator("#errors li.error").count(), 0)

        yield self.inBrowser(script)

