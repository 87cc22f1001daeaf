"""
The web page, for real: the service of ``twistd gameproto`` listens on
127.0.0.1 in the test process, and Debian's Chromium, driven by Playwright,
plays, watches and replays games in the page.

The reactor runs the server; the browser is driven from a thread with
Playwright's sync API (``deferToThread``), and what the thread needs of the
reactor goes through ``blockingCallFromThread``.  Every wait has a timeout,
and the browser is closed whatever happens.

The browser tests need Debian's ``chromium`` package (``/usr/bin/chromium``,
or ``GAMEPROTO_CHROMIUM``) and the ``playwright`` Python package (its own
browsers are never downloaded).  Without them they are skipped, unless
``GAMEPROTO_REQUIRE_BROWSER=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import random
import re
import tempfile
import textwrap
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any, Callable, cast

import treq
from twisted.internet import defer, reactor
from twisted.internet.interfaces import IReactorFromThreads
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.threads import blockingCallFromThread, deferToThread
from twisted.python.failure import Failure
from twisted.trial.unittest import SkipTest, TestCase
from twisted.web.client import HTTPConnectionPool

from gameproto.carcassonne.protocol import CarcassonneClientProtocol
from gameproto.connect4.protocol import Connect4ClientProtocol
from gameproto.games.carcassonne import TILE_WORDS
from gameproto.games.connect4 import Board, choose_column
from gameproto.web import api
from gameproto.web.site import STATIC

from gameproto.test import sourceTree
from gameproto.test.service_helpers import Server

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None  # type: ignore[assignment]  # an optional dependency

CHROMIUM = os.environ.get("GAMEPROTO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
LAUNCH_MS = 30_000
"""Time for Chromium to start."""
WAIT_MS = 15_000
"""Time for anything to show in the page."""
REACTOR_CALL_SECONDS = 20.0
"""Time for what the browser thread asks of the reactor."""


def _browserMissing() -> str | None:
    if sync_playwright is None:
        return ("the web page tests need the Python package 'playwright' "
                "(pip install playwright; never 'playwright install': they use Debian's chromium)")
    if not os.access(CHROMIUM, os.X_OK):
        return (f"the web page tests need Chromium at {CHROMIUM}: apt-get install chromium "
                "(or set GAMEPROTO_CHROMIUM)")
    return None


MISSING = _browserMissing()
REQUIRED = os.environ.get("GAMEPROTO_REQUIRE_BROWSER", "") not in ("", "0")

ROOT = sourceTree()
TICTACTOE = ROOT / "examples" / "engines" / "tictactoe" if ROOT is not None else None


# -- a probe engine: asks for every kind of action, shows what it received ------

PROBE = textwrap.dedent(r'''
    import json, sys

    STEPS = [
        {"type": "CLICK", "player": 1, "zones": [{"x": 0, "y": 0, "width": 100, "height": 100}],
         "buttons": ["RIGHT"], "confirm": True},
        {"type": "CLICK", "player": 1, "buttons": ["MIDDLE"]},
        {"type": "CLICK", "player": 1, "buttons": ["LEFT", "DOUBLE"]},
        {"type": "TEXT", "player": 1, "regex": "^[a-z]+ [0-9]$", "max_length": 8},
        {"type": "KEY", "player": 1, "keys": "Qz", "confirm": False},
    ]

    def answer(step, received):
        over = step >= len(STEPS)
        content = [
            {"tag": "defs", "content": [{"tag": "linearGradient", "id": "grad", "content": [
                {"tag": "stop", "offset": "0", "stop-color": "#ff0000"},
                {"tag": "stop", "offset": "1", "stop-color": "#0000ff"}]}]},
            {"tag": "rect", "x": 0, "y": 0, "width": 200, "height": 150, "fill": "#eeeeee"},
            {"tag": "rect", "id": "zone", "x": 0, "y": 0, "width": 100, "height": 100,
             "fill": "url(#grad)"},
            {"tag": "g", "class": "nested", "content": [
                {"tag": "circle", "cx": 150, "cy": 50, "r": 20, "fill": "#00aa00"}]},
            {"tag": "script", "content": "window.hacked = 1"},
            {"tag": "rect", "x": 0, "y": 0, "width": 1, "height": 1, "onload": "window.hacked = 2"},
            {"tag": "image", "href": "javascript:window.hacked = 3", "x": 0, "y": 0,
             "width": 1, "height": 1},
            {"tag": "foreignObject", "content": [{"tag": "iframe", "src": "about:blank"}]},
            {"tag": "text", "id": "status", "x": 5, "y": 120, "content": "step %d" % step},
            {"tag": "text", "id": "last", "x": 5, "y": 140, "content": json.dumps(received)},
        ]
        return {
            "displays": [{"player": 1, "width": 200, "height": 150, "content": content}],
            "requested_actions": [] if over else [STEPS[step]],
            "game_state": {"scores": [step], "gameover": over},
        }

    step = 0
    for line in sys.stdin:
        message = json.loads(line)
        if "init" in message:
            reply = answer(0, None)
            reply["initvalues"] = {}
        else:
            step += 1
            reply = answer(step, message)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
''')

PROBE_MANIFEST = {
    "name": "probe",
    "command": ["python3", "probe.py"],
    "parameters": {"players": {"type": "int", "range": [1, 1], "default": 1,
                               "description": "one player"}},
}


def writeProbe(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "probe.py").write_text(PROBE, encoding="utf-8")
    (directory / "manifest.json").write_text(json.dumps(PROBE_MANIFEST), encoding="utf-8")
    return directory


class TCPBot(Connect4ClientProtocol):
    """A Protuissance 4 player over TCP: one game with the library's bot, then it leaves."""

    def __init__(self, nick: str) -> None:
        super().__init__(nick)
        self.done: defer.Deferred[None] = defer.Deferred()
        self.winner: int | None = None
        self.ended = False

    def chooseMove(self, board: Board) -> int:
        return choose_column(board, 2)

    def playAgain(self) -> bool:
        return False

    def gameEnded(self, winner: int | None) -> None:
        self.ended = True
        self.winner = winner

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        if not self.done.called:
            self.done.callback(None)


def fetchJSON(url: str, body: Any = None) -> Any:
    """A blocking HTTP request from the browser thread (the reactor serves it)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{url}: {e.code} {e.read()[:200]!r}") from None


def waitFor(check: Callable[[], Any], seconds: float = 20.0, every: float = 0.1) -> Any:
    """Poll ``check`` (in the browser thread) until it is true."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {check}")
        time.sleep(every)


# -- the browser ---------------------------------------------------------------


class Browser:
    """Chromium under Playwright's sync API, in the thread that launched it."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.errors: list[str] = []

    def open(self, url: str) -> Any:
        page = self.context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.goto(url, wait_until="domcontentloaded")
        page.wait_for_selector("#connection[data-state=open]")
        page.wait_for_selector("form.engine")
        return page


def runBrowser(script: Callable[[Browser], Any]) -> Any:
    """Launch Chromium with a fresh profile, run ``script``, always close it."""
    assert sync_playwright is not None
    with tempfile.TemporaryDirectory(prefix="gameproto-chromium-") as profile:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
                timeout=LAUNCH_MS, viewport={"width": 1280, "height": 900},
            )
            try:
                context.set_default_timeout(WAIT_MS)
                browser = Browser(context)
                try:
                    result = script(browser)
                except Exception as e:
                    raise AssertionError(f"{e}\n{describePages(context)}") from e
                if browser.errors:
                    raise AssertionError(f"errors in the page: {browser.errors}")
                return result
            finally:
                context.close()


def describePages(context: Any) -> str:
    """What each page shows, to explain a failure."""
    lines = []
    for n, page in enumerate(context.pages):
        try:
            shown = page.evaluate("""() => ({
                status: document.querySelector('#status')?.dataset.state + ': ' +
                        document.querySelector('#status')?.textContent,
                title: document.querySelector('#game-title')?.textContent,
                messages: [...document.querySelectorAll('#errors li')].map(li => li.textContent),
                version: document.querySelector('#board')?.dataset.version,
                requested: JSON.stringify(window.gameproto?.state.requested),
            })""")
        except Exception as e:
            shown = f"(cannot be read: {e})"
        lines.append(f"page {n} {page.url}: {shown}")
    return "\n".join(lines)


# Page helpers (browser thread) ------------------------------------------------------

def setName(page: Any, name: str) -> None:
    page.fill("#name", name)
    page.dispatch_event("#name", "change")


def openOnPhone(browser: Browser, url: str, name: str | None = None) -> Any:
    """The page 390 × 844 px wide and high (a phone held upright), the player named ``name``."""
    page = browser.open(url)
    page.set_viewport_size({"width": 390, "height": 844})
    if name is not None:
        setName(page, name)
    return page


def boardState(page: Any) -> str:
    return page.get_attribute("#status", "data-state") or ""


def waitState(page: Any, *states: str) -> str:
    page.wait_for_function(
        "states => states.includes(document.querySelector('#status').dataset.state)",
        arg=list(states))
    return boardState(page)


def version(page: Any) -> int:
    return int(page.get_attribute("#board", "data-version") or 0)


def clickDisplay(page: Any, x: float, y: float, **options: Any) -> None:
    """Click the board at (x, y) in display units, as a person's mouse does."""
    box = page.evaluate("""([x, y]) => {
        const svg = document.querySelector('#board svg');
        svg.scrollIntoView({block: 'nearest'});
        const ctm = svg.getScreenCTM();
        const p = new DOMPoint(x, y).matrixTransform(ctm);
        return [p.x, p.y];
    }""", [x, y])
    page.mouse.click(box[0], box[1], **options)


def zoneCenters(page: Any) -> list[tuple[float, float]]:
    """The centres of the zones the page outlines, in display units."""
    return [tuple(z) for z in page.evaluate("""() =>
        [...document.querySelectorAll('#board svg rect.zone')].map(r => [
            +r.getAttribute('x') + +r.getAttribute('width') / 2,
            +r.getAttribute('y') + +r.getAttribute('height') / 2])""")]


def colouredCircles(page: Any) -> int:
    return page.evaluate("""() => [...document.querySelectorAll('#board svg circle')]
        .filter(c => !['#ffffff', 'none'].includes(c.getAttribute('fill'))).length""")


def colouredInDisplay(display: dict[str, Any]) -> int:
    return sum(1 for tag in display["content"]
               if tag["tag"] == "circle" and tag["fill"] not in ("#ffffff", "none"))


def scoresShown(page: Any) -> list[tuple[str, str]]:
    return [tuple(item) for item in page.evaluate("""() =>
        [...document.querySelectorAll('#scores li')].map(li =>
            [li.querySelector('.player').textContent, li.querySelector('.score').textContent])""")]


# -- the tests --------------------------------------------------------------------------


class PageServingTests(TestCase):
    """The page's files and the sprites endpoint, over HTTP (no browser needed)."""

    timeout = 30

    @defer.inlineCallbacks
    def setUp(self) -> Any:  # type: ignore[override]  # trial waits for a Deferred setUp
        engines = [f"probe={writeProbe(Path(self.mktemp()))}"]
        if TICTACTOE is not None:
            engines.append(f"tictactoe={TICTACTOE}")
        self.server = Server(self, engines)
        yield self.server.start()
        self.pool = HTTPConnectionPool(reactor, persistent=False)
        self.addCleanup(self.server.stop)

    def get(self, path: str) -> defer.Deferred[Any]:
        return treq.get(self.server.url + path.lstrip("/"), pool=self.pool)

    @defer.inlineCallbacks
    def test_page(self) -> Any:
        """``/`` is the page, its files under /static/; no directory listing."""
        response = yield self.get("/")
        body = yield response.text()
        self.assertEqual(response.code, 200)
        self.assertIn("text/html", response.headers.getRawHeaders("content-type")[0])
        self.assertIn('src="/static/app.js"', body)
        self.assertIn("script-src 'self'",
                      response.headers.getRawHeaders("content-security-policy")[0])
        for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
            response = yield self.get(f"/static/{name}")
            content = yield response.content()
            self.assertEqual(response.code, 200, name)
            self.assertIn(kind, response.headers.getRawHeaders("content-type")[0])
            self.assertEqual(content, (STATIC / name).read_bytes())
        for path in ("/static/", "/static/nothing.js", "/static/..%2Fsite.py", "/nothing"):
            response = yield self.get(path)
            yield response.content()
            self.assertEqual(response.code, 404, path)

    @defer.inlineCallbacks
    def test_enginesSayWhetherTheyHaveABot(self) -> Any:
        response = yield self.get("/api/engines")
        engines = {e["name"]: e for e in (yield response.json())["engines"]}
        self.assertTrue(engines["connect4"]["bot"])
        self.assertTrue(engines["tarot"]["bot"])
        self.assertFalse(engines["probe"]["bot"])

    @defer.inlineCallbacks
    def test_sprites(self) -> Any:
        """One file out of an external engine's sprites zip; nothing else."""
        if TICTACTOE is None:
            raise SkipTest("needs the examples/ of a source tree")
        response = yield self.get("/api/engines/tictactoe/sprites/x.svg")
        content = yield response.content()
        self.assertEqual(response.code, 200)
        self.assertEqual(response.headers.getRawHeaders("content-type"), ["image/svg+xml"])
        self.assertIn("sandbox", response.headers.getRawHeaders("content-security-policy")[0])
        with zipfile.ZipFile(TICTACTOE / "sprites.zip") as archive:
            self.assertEqual(content, archive.read("x.svg"))
        for path in ("tictactoe/sprites/nothing.svg", "tictactoe/sprites/",
                     "tictactoe/sprites/..%2Fmanifest.json", "tictactoe/sprites/../manifest.json",
                     "tictactoe/sprites/%2E%2E/manifest.json", "tictactoe/sprites/x.svg%00",
                     "connect4/sprites/x.svg", "probe/sprites/x.svg", "nothing/sprites/x.svg"):
            response = yield self.get(f"/api/engines/{path}")
            yield response.content()
            self.assertEqual(response.code, 404, path)

    @defer.inlineCallbacks
    def test_spriteSizeCap(self) -> Any:
        if TICTACTOE is None:
            raise SkipTest("needs the examples/ of a source tree")
        self.patch(api, "MAX_SPRITE", 10)
        response = yield self.get("/api/engines/tictactoe/sprites/x.svg")
        yield response.content()
        self.assertEqual(response.code, 413)


class BrowserTestCase(TestCase):
    """A server, and a way to run a script in Chromium while the reactor serves it."""

    timeout = 150
    skip = None if REQUIRED else MISSING
    engines: list[str] = []

    @defer.inlineCallbacks
    def setUp(self) -> Any:  # type: ignore[override]  # trial waits for a Deferred setUp
        if MISSING is not None:
            self.fail(MISSING)  # GAMEPROTO_REQUIRE_BROWSER: missing is a failure
        self.server = Server(self, self.engines)
        yield self.server.start()
        self.addCleanup(self.server.stop)
        self.url = self.server.url

    def inBrowser(self, script: Callable[[Browser], Any]) -> defer.Deferred[Any]:
        return deferToThread(runBrowser, script)

    def fromThread(self, f: Callable[..., Any], *args: Any) -> Any:
        """Run ``f`` in the reactor, from the browser thread, and wait (bounded) for it."""
        def call() -> defer.Deferred[Any]:
            d = defer.maybeDeferred(f, *args)
            return d.addTimeout(REACTOR_CALL_SECONDS, reactor)
        return blockingCallFromThread(cast(IReactorFromThreads, reactor), call)

    def api(self, path: str, body: Any = None) -> Any:
        return fetchJSON(self.url + path.lstrip("/"), body)

    def waitFinished(self, game: int) -> dict[str, Any]:
        return waitFor(lambda: (lambda g: g if g["status"] != "live" else None)(
            self.api(f"/api/games/{game}")))


class Connect4AgainstTCPTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_personAgainstTCPBot(self) -> Any:
        """
        A person queues in the page ("play against anyone"), a Protuissance 4
        client over TCP queues too, and the person clicks columns until the
        game ends: the page shows the game over and the final scores, and the
        server's record has both names.
        """
        bots: list[TCPBot] = []

        @defer.inlineCallbacks
        def startBot() -> Any:
            bot = TCPBot("tcpbot")
            bots.append(bot)
            endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["connect4"])
            yield connectProtocol(endpoint, bot)

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            setName(page, "alice")
            # The queues are the server's matchmakers (GET /api/matchmaking).
            page.wait_for_selector("form.engine[data-engine=connect4] button.queue")
            queues = {form.get_attribute("data-engine"): form.locator("button.queue").count()
                      for form in page.locator("form.engine").all()}
            self.assertEqual({engine for engine, n in queues.items() if n},
                             {"connect4", "tarot", "carcassonne", "doppelkopf"})
            self.assertIn("Protuissance 4", page.get_attribute(
                "form.engine[data-engine=connect4] button.queue", "title") or "")
            page.click("form.engine[data-engine=connect4] button.queue")
            waitState(page, "queued")
            self.assertIn("Protuissance 4", page.text_content("#status") or "")
            self.fromThread(startBot)
            page.wait_for_selector("#board svg")
            game = int(page.get_attribute("#board", "data-game"))
            moves = 0
            while waitState(page, "your-turn", "gameover", "aborted") == "your-turn":
                if moves == 0:
                    # The Protuissance 4 clock counts down for all to see.
                    self.assertRegex(page.text_content("#status") or "",
                                     r"^Your turn — \d+ s left: click a column\.$")
                zones = zoneCenters(page)
                self.assertTrue(zones, "the page outlines the playable columns")
                before = version(page)
                clickDisplay(page, *zones[len(zones) // 2])
                page.wait_for_function(
                    "v => +document.querySelector('#board').dataset.version > v"
                    " || document.querySelector('#status').dataset.state !== 'your-turn'",
                    arg=before)
                moves += 1
                self.assertLess(moves, 30)
            self.assertEqual(boardState(page), "gameover", page.text_content("#status"))
            page.wait_for_selector("#scores[data-final=true]")
            shown = scoresShown(page)
            errors = page.locator("#errors li.error").all_text_contents()
            return game, moves, shown, page.text_content("#status"), errors

        game, moves, shown, status, errors = yield self.inBrowser(script)
        (bot,) = bots
        yield bot.done.addTimeout(10, reactor)
        record = yield deferToThread(self.api, f"/api/games/{game}/record")
        self.assertEqual(record["status"], "finished")
        self.assertEqual(sorted(record["seats"]), ["alice", "tcpbot"])
        self.assertEqual(errors, [])
        self.assertGreater(moves, 0)
        self.assertTrue(bot.ended)
        expected = [(f"P{n + 1} {name}", str(score))
                    for n, (name, score) in enumerate(zip(record["seats"], record["scores"]))]
        self.assertEqual(shown, expected)
        self.assertIn("Game over", status)
        winner = None if record["scores"][0] == record["scores"][1] else (
            "alice" if record["scores"][record["seats"].index("alice")] else "tcpbot")
        self.assertIn({None: "a draw", "alice": "you win", "tcpbot": "tcpbot wins"}[winner], status)


class ReplayTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_stepThroughAReplay(self) -> Any:
        """
        A game of two bots, opened in the page's replay view and stepped
        through: the board shows exactly the API's replay at each turn.
        """

        def script(browser: Browser) -> Any:
            # The bots' games vary: one can be won in seven moves, and the
            # steps below need more.  Play until one is longer (bounded).
            for attempt in range(10):
                made = self.api("/api/games", {"engine": "connect4", "bots": [1, 2]})
                game = self.waitFinished(made["id"])
                turns = game["turns"]
                if turns > 7:
                    break
            self.assertGreater(turns, 7)
            page = browser.open(self.url)
            page.click(f"tr[data-game-id='{made['id']}'] button.replay")
            page.wait_for_selector("#board[data-turn='0'] svg")
            self.assertEqual(page.text_content("#replay-turns"), str(turns))

            def expect(turn: int, player: int | None = None) -> None:
                page.wait_for_selector(f"#board[data-turn='{turn}'] svg")
                query = f"turn={turn}" + (f"&player={player}" if player else "")
                answer = self.api(f"/api/games/{made['id']}/replay?{query}")
                display = answer["displays"][0]
                self.assertEqual(colouredCircles(page), turn)
                self.assertEqual(colouredCircles(page), colouredInDisplay(display))
                self.assertEqual(page.input_value("#replay-turn"), str(turn))
                drawn = page.evaluate("() => document.querySelector('#board svg').children.length")
                self.assertEqual(drawn, len(display["content"]))
                texts = page.locator("#board svg text").all_text_contents()
                self.assertEqual(texts, [t["content"] for t in display["content"]
                                         if t["tag"] == "text"])
                self.assertEqual([s for _, s in scoresShown(page)],
                                 [str(s) for s in answer["game_state"]["scores"]])

            expect(0)
            self.assertTrue(page.is_disabled("#replay-prev"))
            page.click("#replay-next")
            expect(1)
            page.click("#replay-next")
            expect(2)
            page.click("#replay-prev")
            expect(1)
            page.fill("#replay-turn", "7")
            page.press("#replay-turn", "Enter")
            expect(7)
            page.click("#replay-last")
            expect(turns)
            self.assertTrue(page.is_disabled("#replay-next"))
            self.assertIn("game over", page.text_content("#status"))
            before = version(page)
            page.select_option("#replay-player", "1")
            page.wait_for_function(
                "v => +document.querySelector('#board').dataset.version > v", arg=before)
            expect(turns, 1)
            page.click("#replay-first")
            expect(0, 1)
            self.assertIn(f"replay={made['id']}", page.url)

        yield self.inBrowser(script)


    @defer.inlineCallbacks
    def test_backAndForward(self) -> Any:
        """
        A replay has one entry in the browser's history, its address the
        turn shown: after stepping, Back leaves the replay for the lobby and
        Forward comes back to the turn last shown; a replay opened over
        another is left for that one's turn; one opened from its address
        (a link) is left for the lobby too.
        """

        def script(browser: Browser) -> Any:
            made = [self.api("/api/games", {"engine": "connect4", "bots": [1, 2]})
                    for _ in range(2)]
            first, second = (self.waitFinished(game["id"])["id"] for game in made)
            page = browser.open(self.url)

            def shown(game: int, turn: int) -> None:
                page.wait_for_selector(f"#board[data-game='{game}'][data-turn='{turn}'] svg")
                page.wait_for_function("h => location.hash === h",
                                       arg=f"#replay={game}&turn={turn}")
                self.assertTrue(page.locator("#replay-controls").is_visible())

            def inLobby() -> None:
                page.wait_for_selector("#game", state="hidden")
                self.assertEqual(page.evaluate("() => location.href"), self.url)

            page.click(f"tr[data-game-id='{first}'] button.replay")
            shown(first, 0)
            page.click("#replay-next")
            shown(first, 1)
            page.click("#replay-next")
            shown(first, 2)
            page.go_back()
            inLobby()
            page.go_forward()
            shown(first, 2)

            page.click(f"tr[data-game-id='{second}'] button.replay")
            shown(second, 0)
            page.click("#replay-next")
            shown(second, 1)
            page.go_back()
            shown(first, 2)
            page.go_back()
            inLobby()

            page.evaluate(f"() => {{ location.hash = 'replay={second}&turn=3'; }}")
            shown(second, 3)
            page.click("#replay-prev")
            shown(second, 2)
            page.go_back()
            inLobby()

        yield self.inBrowser(script)


class SpectatorTests(BrowserTestCase):

    @defer.inlineCallbacks
    def test_watchAndRefuseOutOfZone(self) -> Any:
        """
        A person plays the engine's bot in one page, a spectator watches in
        another; a click outside the zones is refused in the page, with why.
        """

        def script(browser: Browser) -> Any:
            player = browser.open(self.url)
            setName(player, "carol")
            player.click("form.engine[data-engine=connect4] button.create")
            waitState(player, "your-turn")
            game = int(player.get_attribute("#board", "data-game"))

            watcher = browser.open(self.url)
            watcher.click(f"tr[data-game-id='{game}'] button.watch")
            waitState(watcher, "watching")
            watcher.wait_for_selector("#board svg")
            self.assertEqual(colouredCircles(watcher), 0)
            self.assertIn("watching", watcher.text_content("#game-title"))

            # Under the board (the status line) is outside every zone.
            clickDisplay(player, 10, 255)
            player.wait_for_selector("#errors li.error[data-subtype=OUT_OF_ZONE]")
            self.assertEqual("That is not one of the places you can click: click a column.",
                             player.text_content("#errors li.error"))
            self.assertEqual(boardState(player), "your-turn")
            self.assertEqual(colouredCircles(player), 0)

            clickDisplay(player, *zoneCenters(player)[3])
            watcher.wait_for_function("""() => [...document.querySelectorAll('#board svg circle')]
                .filter(c => !['#ffffff', 'none'].includes(c.getAttribute('fill'))).length === 2""")
            # The accepted move clears the refusal (once the player's page has its instructions).
            waitState(player, "your-turn")
            player.wait_for_function("() => !document.querySelector('#errors li.error')")
            self.assertEqual(player.locator("#errors li.error").count(), 0)
            self.assertEqual(colouredCircles(player), 2)

            # A spectator's click plays nothing.
            clickDisplay(watcher, *zoneCenters(player)[3])
            watcher.wait_for_selector("#errors li.note")
            self.assertIn("watching", watcher.text_content("#errors li.note"))

            # The player leaves: the bot takes the seat and finishes; the spectator sees the end.
            player.once("dialog", lambda dialog: dialog.accept())
            player.click("#leave")
            player.wait_for_selector("#game", state="hidden")
            waitState(watcher, "gameover")
            watcher.wait_for_selector("#scores[data-final=true]")
            self.assertEqual(watcher.locator("#errors li.note").count(), 0)  # stale: gone
            self.assertIn("carol (bot)", watcher.text_content("#scores"))  # told by the server
            return game

        game = yield self.inBrowser(script)
        record = yield deferToThread(self.waitFinished, game)
        self.assertEqual(record["status"], "finished")


    @defer.inlineCallbacks
    def test_tapNearAZone(self) -> Any:
        """
        On a phone, a finger's tap just outside a zone (within 22 px) plays
        in it; a mouse click there, or a tap farther away, is refused.
        """

        def script(browser: Browser) -> Any:
            page = openOnPhone(browser, self.url, "dora")
            page.click("form.engine[data-engine=connect4] button.create")
            waitState(page, "your-turn")
            # 10 and 40 screen pixels under column 4's zone (the board's bottom).
            near, far = (page.evaluate("""below => {
                const svg = document.querySelector('#board svg');
                svg.scrollIntoView({block: 'nearest'});
                const zone = svg.querySelectorAll('rect.zone')[3].getBoundingClientRect();
                return [zone.left + zone.width / 2, zone.bottom + below];
            }""", below) for below in (10, 40))
            tap = """([x, y, kind]) => document.elementFromPoint(x, y).dispatchEvent(
                new PointerEvent('click', {pointerType: kind, clientX: x, clientY: y,
                                           button: 0, detail: 1, bubbles: true}))"""
            for point, kind in ((near, "mouse"), (far, "touch")):
                page.evaluate("() => document.querySelector('#errors').replaceChildren()")
                page.evaluate(tap, [*point, kind])
                page.wait_for_selector("#errors li.error[data-subtype=OUT_OF_ZONE]")
                self.assertEqual(boardState(page), "your-turn")
                self.assertEqual(colouredCircles(page), 0)
            column = zoneCenters(page)[3][0]
            before = version(page)
            page.evaluate(tap, [*near, "touch"])
            page.wait_for_function(
                "v => +document.querySelector('#board').dataset.version > v", arg=before)
            waitState(page, "your-turn")
            self.assertEqual(colouredCircles(page), 2)  # ours, and the bot's answer
            stones = page.evaluate("""() => [...document.querySelectorAll('#board svg circle')]
                .filter(c => !['#ffffff', 'none'].includes(c.getAttribute('fill')))
                .map(c => +c.getAttribute('cx'))""")
            self.assertIn(column, stones)  # a stone in column 4
            self.assertEqual(page.locator("#errors li.error").count(), 0)

        yield self.inBrowser(script)


class ExternalEngineTests(BrowserTestCase):

    @property
    def engines(self) -> list[str]:  # type: ignore[override]
        engines = [f"probe={writeProbe(Path(self.mktemp()))}"]
        if TICTACTOE is not None:
            engines.append(f"tictactoe={TICTACTOE}")
        return engines

    @defer.inlineCallbacks
    def test_tictactoeBetweenTwoPages(self) -> Any:
        """
        An external engine with sprites: one page creates a game, another
        joins the open seat from the list; keys and clicks play it out.
        """
        if TICTACTOE is None:
            raise SkipTest("needs the examples/ of a source tree")

        def script(browser: Browser) -> Any:
            first = browser.open(self.url)
            setName(first, "xavier")
            first.fill("form.engine[data-engine=tictactoe] input[data-param=first]", "1")
            first.click("form.engine[data-engine=tictactoe] button.create")
            waitState(first, "your-turn")
            game = int(first.get_attribute("#board", "data-game"))

            second = browser.open(self.url)
            setName(second, "olga")
            second.click(f"tr[data-game-id='{game}'] button.join[data-player='2']")
            waitState(second, "waiting")

            def move(page: Any, other: Any, act: Callable[[], None]) -> None:
                before = version(other)
                act()
                other.wait_for_function(
                    "v => +document.querySelector('#board').dataset.version > v", arg=before)

            move(first, second, lambda: first.keyboard.press("5"))
            images = first.evaluate("""() => [...document.querySelectorAll('#board svg image')]
                .map(i => i.getAttribute('href'))""")
            self.assertEqual(images, ["/api/engines/tictactoe/sprites/x.svg"])
            loaded = first.evaluate("""async (href) => {
                const r = await fetch(href); return [r.status, r.headers.get('content-type')]; }""",
                images[0])
            self.assertEqual(loaded, [200, "image/svg+xml"])
            # The engine's own "status" text keeps out of the page's #status.
            self.assertEqual(first.evaluate("() => document.querySelectorAll('#status').length"), 1)
            self.assertEqual(first.text_content("#board svg #gp-status"), "their move")

            waitState(second, "your-turn")
            self.assertEqual(len(zoneCenters(second)), 8)
            move(second, first, lambda: clickDisplay(second, 50, 50))         # cell 1
            waitState(first, "your-turn")
            first.keyboard.press("1")                                         # taken: refused here
            first.wait_for_selector("#errors li.error[data-subtype=KEY_NOT_ALLOWED]")
            move(first, second, lambda: first.click("#keys button.key[data-key='3']"))
            waitState(second, "your-turn")
            move(second, first, lambda: second.keyboard.press("9"))
            waitState(first, "your-turn")
            first.keyboard.press("7")
            waitState(first, "gameover")
            waitState(second, "gameover")
            self.assertIn("you win", first.text_content("#status"))
            self.assertIn("xavier wins", second.text_content("#status"))
            second.wait_for_selector("#scores[data-final=true]")
            # The first page learns the name of who took the open seat.
            first.wait_for_function("""() => document.querySelector(
                "#scores li[data-player='2'] .player")?.textContent === 'P2 olga'""")
            return game, scoresShown(first), scoresShown(second)

        game, shownFirst, shownSecond = yield self.inBrowser(script)
        expected = [("P1 xavier", "1"), ("P2 olga", "0")]
        self.assertEqual(shownFirst, expected)
        self.assertEqual(shownSecond, expected)
        record = yield deferToThread(self.waitFinished, game)
        self.assertEqual((record["status"], record["scores"]), ("finished", [1, 0]))

    @defer.inlineCallbacks
    def test_everyKindOfAction(self) -> Any:
        """
        Buttons (right with confirmation, middle, double), text with its
        regex and length, keys: refused in the page when not allowed, sent
        when allowed; and a display cannot run code or take the page's ids.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            page.click("form.engine[data-engine=probe] button.create")
            waitState(page, "your-turn")

            def last() -> Any:
                return json.loads(page.text_content("#board svg #gp-last"))

            def step(number: int) -> None:
                page.wait_for_function(
                    "n => document.querySelector('#board svg #gp-status')?.textContent === 'step ' + n",
                    arg=number)
                waitState(page, "your-turn", "gameover")

            # The display is drawn, but nothing in it runs or leaves the board.
            self.assertIsNone(page.evaluate("() => window.hacked ?? null"))
            self.assertEqual(page.locator("#board script, #board foreignObject, #board iframe").count(), 0)
            self.assertEqual(page.locator("#board [onload]").count(), 0)
            self.assertEqual(page.get_attribute("#board svg #gp-zone", "fill"), "url(#gp-grad)")
            self.assertEqual(page.locator("#board svg g.nested circle").count(), 1)
            self.assertEqual(page.locator("#status").count(), 1)

            # 1. RIGHT only, inside the zone, with confirmation.
            clickDisplay(page, 50, 50)
            page.wait_for_selector("#errors li.error[data-subtype=WRONG_BUTTON]")
            clickDisplay(page, 150, 50, button="right")
            page.wait_for_selector("#errors li.error[data-subtype=OUT_OF_ZONE]")
            clickDisplay(page, 50, 50, button="right")
            page.wait_for_selector("#confirm:not([hidden])")
            page.click("#confirm-no")
            page.wait_for_selector("#confirm", state="hidden")
            self.assertEqual(boardState(page), "your-turn")
            clickDisplay(page, 60, 40, button="right")
            page.click("#confirm-yes")
            step(1)
            received = last()
            self.assertEqual((received["type"], received["button"], received["player"]),
                             ("CLICK", "RIGHT", 1))
            self.assertLessEqual(abs(received["x"] - 60), 1)
            self.assertLessEqual(abs(received["y"] - 40), 1)

            # 2. MIDDLE only, anywhere.
            clickDisplay(page, 150, 120, button="middle")
            step(2)
            self.assertEqual(last()["button"], "MIDDLE")

            # 3. LEFT or DOUBLE: a double click is one DOUBLE, not two LEFTs.
            box = page.evaluate("""() => { const r = document.querySelector('#board svg')
                .getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }""")
            page.mouse.dblclick(*box)
            step(3)
            self.assertEqual(last()["button"], "DOUBLE")

            # 4. TEXT: checked against max_length and the regex first.
            page.wait_for_selector("#text-form:not([hidden])")
            self.assertEqual(page.get_attribute("#text-input", "maxlength"), "8")
            page.fill("#text-input", "abc")
            page.click("#text-send")
            page.wait_for_selector("#errors li.error[data-subtype=UNMATCHED_REGEX]")
            # The field keeps to max_length; a longer text set by a script is refused too.
            page.fill("#text-input", "abcdefg 1")
            self.assertEqual(page.input_value("#text-input"), "abcdefg ")
            page.eval_on_selector("#text-input", "input => { input.value = 'abcdefg 1'; }")
            page.click("#text-send")
            page.wait_for_selector("#errors li.error[data-subtype=TEXT_TOO_LONG]")
            page.fill("#text-input", "")
            page.click("#text-send")
            page.wait_for_selector("#errors li.error[data-subtype=TEXT_EMPTY]")
            page.fill("#text-input", "abc 1")
            page.press("#text-input", "Enter")
            step(4)
            self.assertEqual(last(), {"type": "TEXT", "text": "abc 1", "player": 1})

            # 5. KEY among "Qz", any case.
            page.locator("#board").focus()
            page.keyboard.press("a")
            page.wait_for_selector("#errors li.error[data-subtype=KEY_NOT_ALLOWED]")
            page.keyboard.press("q")
            step(5)
            self.assertEqual(last(), {"type": "KEY", "key": "q", "player": 1})
            waitState(page, "gameover")
            self.assertEqual([s for _, s in scoresShown(page)], ["5"])
            self.assertIsNone(page.evaluate("() => window.hacked ?? null"))
            return page.locator("#errors li.error[data-source=server]").count()

        serverErrors = yield self.inBrowser(script)
        self.assertEqual(serverErrors, 0, "every refusal was the page's own")


# -- Carcassonne in the page -------------------------------------------------------------


class CarcassonneTCPClient(CarcassonneClientProtocol):
    """A client of the Carcassonne protocol playing with the library's bot."""

    def __init__(self) -> None:
        super().__init__(2, random.Random(7))
        self.done: defer.Deferred[None] = defer.Deferred()

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        if not self.done.called:
            self.done.callback(None)


def requested(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.gameproto.state.requested")


def carcassonnePhase(page: Any) -> str:
    """``place`` (rotate, a lit place), ``follower`` (a zone, no follower, back), or ``wait``."""
    if boardState(page) != "your-turn":
        return "wait"
    keys = "".join(r.get("keys", "") for r in requested(page) if r["type"] == "KEY")
    return "place" if "r" in keys else "follower" if "n" in keys else "wait"


def clickZones(page: Any) -> list[dict[str, float]]:
    return [zone for r in requested(page) if r["type"] == "CLICK" for zone in r["zones"]]


def squareZones(page: Any) -> list[dict[str, float]]:
    """The lit places (placing), or the follower zones on the big tile (follower)."""
    return [z for z in clickZones(page) if z["width"] == z["height"]]


def centre(zone: dict[str, float]) -> tuple[float, float]:
    return zone["x"] + zone["width"] / 2, zone["y"] + zone["height"] / 2


def onScreen(page: Any, x: float, y: float) -> bool:
    """Whether the display point (x, y) is in the part of the board the view shows."""
    return bool(page.evaluate("""([x, y]) => {
        const svg = document.querySelector('#board svg');
        const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
        const box = svg.getBoundingClientRect();
        return p.x > box.left + 2 && p.x < box.right - 2 && p.y > box.top + 2 && p.y < box.bottom - 2;
    }""", [x, y]))


def screenPoint(page: Any, x: float, y: float) -> tuple[float, float]:
    point = page.evaluate("""([x, y]) => {
        const p = new DOMPoint(x, y).matrixTransform(
            document.querySelector('#board svg').getScreenCTM());
        return [p.x, p.y];
    }""", [x, y])
    return point[0], point[1]


def waitPhase(page: Any, *phases: str) -> str:
    return waitFor(lambda: (lambda p: p if p in phases else None)(carcassonnePhase(page)))


def playCarcassonneTurn(page: Any, turn: int) -> None:
    """
    One whole turn by clicking: rotate (a key button), a lit place, then a
    follower zone (even turns, when one is lit) or "no follower".
    """
    for _ in range(4):  # till the tile fits somewhere
        before = version(page)
        page.click("#keys button.key[data-key=R]")
        page.wait_for_function("v => +document.querySelector('#board').dataset.version > v",
                               arg=before)
        waitPhase(page, "place")
        if squareZones(page):
            break
    place = squareZones(page)[0]
    clickDisplay(page, *centre(place))
    waitPhase(page, "follower")
    spots = squareZones(page)
    if turn % 2 == 0 and spots:
        clickDisplay(page, *centre(spots[0]))
    else:
        [none] = [z for z in clickZones(page) if z["width"] == 110]  # "no follower"
        clickDisplay(page, *centre(none))
    waitPhase(page, "wait", "place")


class CarcassonneTests(BrowserTestCase):
    """Carcassonne in the page: bots, a TCP client of the Carcassonne protocol, a phone."""

    @defer.inlineCallbacks
    def setUp(self) -> Any:  # type: ignore[override]  # trial waits for a Deferred setUp
        if MISSING is not None:
            self.fail(MISSING)
        self.server = Server(self, [], "--carcassonne-bots-after", "600",
                             ports=("web", "carcassonne"))
        yield self.server.start()
        self.addCleanup(self.server.stop)
        self.url = self.server.url

    def moves(self, game: int) -> int:
        """The tiles played in ``game``: 71 less the tiles left its replay's display shows."""
        shown = self.api(f"/api/games/{game}/replay")
        [left] = [int(match.group(1)) for tag in shown["displays"][0]["content"]
                  if tag["tag"] == "text"
                  for match in [re.search(r"(\d+) tiles left", str(tag.get("content")))]
                  if match]
        return 71 - left

    @defer.inlineCallbacks
    def test_againstBots(self) -> Any:
        """
        A person plays Carcassonne against the engine's bot by clicking: the
        rotate key button, a lit place, a follower zone or "no follower";
        the turns are accepted, also after zooming (wheel, + button) and
        panning (a drag that sends no click), the clicks mapped back
        through the view.  The turn, the bot's moves and a refused click
        are told in the rules' words.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            setName(page, "alice")
            page.click("form.engine[data-engine=carcassonne] button.create")
            waitPhase(page, "place")
            game = int(page.get_attribute("#board", "data-game"))
            self.assertIn("followers", page.text_content("#board svg") or "")
            self.assertIn("tiles left", page.text_content("#board svg") or "")
            self.assertRegex(page.text_content("#status") or "",
                             r"^Your turn( — [^:]+)?: click (a place outlined in green for the "
                             r"tile|an arrow to turn the tile, which fits nowhere as it is), "
                             r"or press R or L\b[^:]*\.$")
            playCarcassonneTurn(page, 0)
            waitPhase(page, "place")
            self.assertGreaterEqual(self.moves(game), 2)  # ours and the bot's
            self.assertRegex(page.text_content("#last-move") or "", r"^Bot2 placed a tile[^.]*\.$")

            # Zoom in with the wheel over a lit place: it stays under the pointer.
            self.assertTrue(page.is_disabled("#zoom-out"))
            while not squareZones(page):  # till the tile fits somewhere (it depends on the seed)
                before = version(page)
                page.click("#keys button.key[data-key=R]")
                page.wait_for_function(
                    "v => +document.querySelector('#board').dataset.version > v", arg=before)
            place = squareZones(page)[0]
            x, y = screenPoint(page, *centre(place))
            page.mouse.move(x, y)
            page.mouse.wheel(0, 200)  # zooming out of the fitted board scrolls the page
            page.wait_for_timeout(500)  # the page's scroll ends
            self.assertEqual(page.get_attribute("#board", "data-zoom"), "1.00")
            x, y = screenPoint(page, *centre(place))
            page.evaluate("y => window.scrollBy({top: y - window.innerHeight / 2, behavior: 'instant'})", y)
            x, y = screenPoint(page, *centre(place))
            page.mouse.move(x, y)
            page.mouse.wheel(0, -200)
            page.wait_for_function("() => +document.querySelector('#board').dataset.zoom > 1.2")
            page.mouse.wheel(0, -200)
            page.wait_for_function("() => +document.querySelector('#board').dataset.zoom > 2")
            after = screenPoint(page, *centre(place))
            self.assertLess(abs(after[0] - x) + abs(after[1] - y), 3)
            # A drag pans the board and sends nothing.
            viewBox = page.get_attribute("#board svg", "viewBox")
            x, y = screenPoint(page, *centre(place))
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(x - 25, y - 15, steps=5)
            page.mouse.up()
            self.assertNotEqual(page.get_attribute("#board svg", "viewBox"), viewBox)
            self.assertEqual(page.evaluate("() => window.gameproto.state.awaiting"), False)
            self.assertEqual(page.locator("#errors li").count(), 0)
            self.assertEqual(carcassonnePhase(page), "place")
            self.assertTrue(onScreen(page, *centre(place)))
            # The lit place, clicked where the zoomed and panned view shows it.
            clickDisplay(page, *centre(place))
            waitPhase(page, "follower")
            zoom = float(page.get_attribute("#board", "data-zoom") or 0)
            self.assertGreater(zoom, 2)  # the view stays as it was
            page.click("#zoom-in")
            page.wait_for_selector(f"#board[data-zoom='{zoom * 1.5:.2f}']")
            page.click("#zoom-out")
            page.wait_for_selector(f"#board[data-zoom='{zoom:.2f}']")
            page.click("#zoom-fit")
            page.wait_for_selector("#board[data-zoom='1.00']")
            [none] = [z for z in clickZones(page) if z["width"] == 110]
            clickDisplay(page, *centre(none))
            for turn in range(1, 4):
                if waitPhase(page, "place") != "place":
                    break
                playCarcassonneTurn(page, turn)
            waitPhase(page, "place")
            self.assertGreaterEqual(self.moves(game), 10)
            self.assertEqual(page.locator("#errors li.error").count(), 0)
            from gameproto.test.test_web_play import shot
            page.locator("#game").screenshot(path=shot(self, "web-carcassonne-playing.png"))
            # A click where the tile cannot go is refused with what is asked.
            zones = clickZones(page)
            spot = next((x, y) for x in range(2, 400, 7) for y in range(2, 300, 7)
                        if not any(z["x"] <= x < z["x"] + z["width"]
                                   and z["y"] <= y < z["y"] + z["height"] for z in zones))
            clickDisplay(page, *spot)
            page.wait_for_selector("#errors li.error[data-subtype=OUT_OF_ZONE]")
            self.assertIn(page.text_content("#errors li.error"), (
                "That is not one of the places you can click: "
                "click a place outlined in green for the tile.",
                "That is not one of the places you can click: "
                "click an arrow to turn the tile, which fits nowhere as it is."))

        yield self.inBrowser(script)

    @defer.inlineCallbacks
    def test_wholeGameAgainstBots(self) -> Any:
        """
        A whole game by clicks against the engine's bot (no delay): every
        turn of the person played on the page, to the game over, the final
        scores and no tile left, as the record has them.
        """

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            setName(page, "alice")
            page.click("form.engine[data-engine=carcassonne] button.create")
            waitPhase(page, "place")
            game = int(page.get_attribute("#board", "data-game"))
            turns = 0
            while waitState(page, "your-turn", "gameover", "aborted") == "your-turn":
                waitPhase(page, "place")
                playCarcassonneTurn(page, turns)
                turns += 1
                self.assertLessEqual(turns, 36)  # 71 tiles, the bot placing every other one
            self.assertEqual(boardState(page), "gameover", page.text_content("#status"))
            page.wait_for_selector("#scores[data-final=true]")
            from gameproto.test.test_web_play import shot
            page.locator("#game").screenshot(path=shot(self, "web-carcassonne-over.png"))
            return (game, turns, scoresShown(page), page.text_content("#board svg") or "",
                    page.text_content("#status") or "",
                    page.locator("#errors li.error").all_text_contents(), self.moves(game))

        game, turns, shown, board, status, errors, moves = yield self.inBrowser(script)
        self.assertEqual(errors, [])
        record = yield deferToThread(self.api, f"/api/games/{game}/record")
        self.assertEqual((record["status"], record["seats"][0]), ("finished", "alice"))
        placed = [a for a in record["actions"] if a["seat"] == 0 and "follower" in a["action"]]
        self.assertEqual(len(placed), turns)  # each turn ended by a click on the page
        self.assertGreaterEqual(turns, 30)  # a few tiles may fit nowhere and be put aside
        self.assertEqual(shown, [(f"P{n + 1} {name}", str(score)) for n, (name, score)
                                 in enumerate(zip(record["seats"], record["scores"]))])
        self.assertIn("game over; 0 tiles left", board)
        for n, score in enumerate(record["scores"]):
            self.assertRegex(board, rf"P{n + 1}: {score} points")
        self.assertIn("Game over", status)
        self.assertEqual(moves, 71)  # the replay's display: no tile left

    @defer.inlineCallbacks
    def test_besideATCPClient(self) -> Any:
        """
        The page queues for Carcassonne ("Play against anyone"); a client of
        the Carcassonne protocol over TCP joins its room, and both play.
        """
        clients: list[CarcassonneTCPClient] = []

        def connect() -> Any:
            client = CarcassonneTCPClient()
            clients.append(client)
            endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["carcassonne"])
            return connectProtocol(endpoint, client)

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            setName(page, "alice")
            page.click("form.engine[data-engine=carcassonne] button.queue")
            waitState(page, "queued")
            self.fromThread(connect)
            page.wait_for_selector("#board svg")
            game = int(page.get_attribute("#board", "data-game"))
            played = 0
            while played < 3:
                waitPhase(page, "place")
                playCarcassonneTurn(page, played)
                played += 1
            waitPhase(page, "place")
            self.assertGreaterEqual(self.moves(game), 6)
            self.assertEqual(page.locator("#errors li.error").count(), 0)
            return game, self.api(f"/api/games/{game}")

        game, shown = yield self.inBrowser(script)
        [client] = clients
        self.assertTrue(client.started)
        self.assertGreaterEqual(client.movesPlayed, 3)
        self.assertGreaterEqual(len(client.board), 7)  # the start tile and 6 moves
        self.assertIn("alice", json.dumps(shown))
        # The game is stopped: FINISH 0, and the client hangs up.
        hub = self.server.service.hub
        for table, _ in list(hub.tables.values()):
            table.abort("the test is over")
        yield client.done.addTimeout(10, reactor)
        self.assertEqual(client.finishedBy, 0)

    @defer.inlineCallbacks
    def test_phone(self) -> Any:
        """
        On a 390 px wide phone the board fits the width, the zoom and key
        buttons are at least 44 px, a tap on R rotates, and a pinch zooms.
        """

        def script(browser: Browser) -> Any:
            page = openOnPhone(browser, self.url, "alice")
            page.click("form.engine[data-engine=carcassonne] button.create")
            waitPhase(page, "place")
            box = page.locator("#board svg").bounding_box()
            self.assertLessEqual(box["x"] + box["width"], 390)
            self.assertGreater(box["width"], 300)
            self.assertLessEqual(page.evaluate("() => document.documentElement.scrollWidth"), 390)
            buttons = page.locator("#view-tools button, #keys button.key").all()
            self.assertEqual(len(buttons), 5)  # -, +, Fit, R, L
            for button in buttons:
                size = button.bounding_box()
                self.assertGreaterEqual(min(size["width"], size["height"]), 44)
            self.assertIn("P1 places a", page.text_content("#board svg") or "")
            self.assertNotIn("tile-", page.text_content("#board svg") or "")
            from gameproto.test.test_web_play import shot
            page.screenshot(path=shot(self, "web-phone-carcassonne.png"))
            before = version(page)
            page.click("#keys button.key[data-key=R]")
            page.wait_for_function(
                "v => +document.querySelector('#board').dataset.version > v", arg=before)
            while not squareZones(page):  # till the tile fits somewhere
                before = version(page)
                page.click("#keys button.key[data-key=R]")
                page.wait_for_function(
                    "v => +document.querySelector('#board').dataset.version > v", arg=before)
            # Two fingers move apart over the board: it zooms.
            page.evaluate("""() => {
                const svg = document.querySelector('#board svg');
                const box = svg.getBoundingClientRect();
                const cx = box.left + box.width / 2, cy = box.top + box.height / 2;
                const fire = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {
                    pointerId: id, pointerType: 'touch', isPrimary: id === 1, bubbles: true,
                    clientX: x, clientY: cy}));
                fire('pointerdown', 1, cx - 20);
                fire('pointerdown', 2, cx + 20);
                for (let step = 1; step <= 4; step++) fire('pointermove', 2, cx + 20 + 10 * step);
                fire('pointerup', 1, cx - 20);
                fire('pointerup', 2, cx + 60);
            }""")
            self.assertGreater(float(page.get_attribute("#board", "data-zoom") or 0), 1.5)
            # A lit place, tapped through the zoomed view.
            place = [z for z in squareZones(page) if onScreen(page, *centre(z))]
            if not place:
                page.click("#zoom-fit")
                place = squareZones(page)
            clickDisplay(page, *centre(place[0]))
            waitPhase(page, "follower")

        yield self.inBrowser(script)


class CheatingTCPClient(CarcassonneTCPClient):
    """On its second turn, a tile where it does not fit; honest otherwise."""

    cheated: Any = None

    def chooseMove(self) -> Any:
        if self.cheated is None and self.movesPlayed == 1:
            tile = min(t for t, n in self.pile.items() if n > 0)
            x, y = min(square for square in self.rules.frontier
                       if not self.rules.fits(tile, *square, "N"))
            self.cheated = (tile, x, y, "N", None)
            return self.cheated
        return super().chooseMove()


class CarcassonneRefereelessTests(BrowserTestCase):
    """The page at a Carcassonne table whose referee is off."""

    @defer.inlineCallbacks
    def setUp(self) -> Any:  # type: ignore[override]  # trial waits for a Deferred setUp
        if MISSING is not None:
            self.fail(MISSING)
        self.server = Server(self, [], "--carcassonne-referee", "off",
                             "--carcassonne-bots-after", "600", ports=("web", "carcassonne"))
        yield self.server.start()
        self.addCleanup(self.server.stop)
        self.url = self.server.url

    @defer.inlineCallbacks
    def test_boardThenTheBreak(self) -> Any:
        """
        The page plays on the rules' board, by clicks, beside a TCP client;
        when that client's move breaks the rules, the page is told why and
        its seat leaves the game, which ends with the client alone.
        """
        clients: list[CheatingTCPClient] = []

        def connect() -> Any:
            client = CheatingTCPClient()
            clients.append(client)
            endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["carcassonne"])
            return connectProtocol(endpoint, client)

        def script(browser: Browser) -> Any:
            page = browser.open(self.url)
            setName(page, "alice")
            page.click("form.engine[data-engine=carcassonne] button.queue")
            waitState(page, "queued")
            self.fromThread(connect)
            page.wait_for_selector("#board svg")
            game = int(page.get_attribute("#board", "data-game"))
            self.assertIn("tiles left", page.text_content("#board svg") or "")  # not the text UI
            for turn in range(2):
                waitPhase(page, "place")
                playCarcassonneTurn(page, turn)
            waitState(page, "aborted")
            return game, page.text_content("#status") or ""

        game, status = yield self.inBrowser(script)
        [client] = clients
        yield client.done.addTimeout(10, reactor)
        assert client.cheated is not None
        tile, x, y, orientation, _ = client.cheated
        why = f"{TILE_WORDS[tile]} does not fit at ({x}, {y}) in orientation {orientation}"
        # The page names the seats: "player 2" is the TCP client, named player2.
        self.assertRegex(status, rf"^Game aborted: move 4 \(player ?2\) breaks the rules: "
                                 rf"{re.escape(why)}; .* this seat leaves the game\.$")
        self.assertEqual((client.finishedBy, client.opponents), (0, set()))
        record = yield deferToThread(self.api, f"/api/games/{game}/record")
        self.assertEqual((record["engine"], record["params"]["referee"], record["status"]),
                         ("carcassonne", "off", "finished"))
        self.assertEqual(record["actions"][-2]["action"]["refused"], why)
        self.assertEqual((record["actions"][-1]["seat"], record["actions"][-1]["kind"]),
                         (0, "resign"))
