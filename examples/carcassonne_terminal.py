"""
Play Carcassonne from a terminal on a gameproto Carcassonne 1.71 server,
against whoever else is in the room: other people, ``examples/carcassonne_bot.py``,
or the server's bot (it joins a lone ready player after
``--carcassonne-bots-after`` seconds, 30 by default).

    PYTHONPATH=. python examples/carcassonne_terminal.py --host 127.0.0.1 --port 4002

The keyboard is read with Twisted's StandardIO, never a blocking input(): the
game logic is L{TerminalClient}, which prints through a callable and takes
each typed line through L{TerminalClient.feed}, so it runs without a
terminal too.

At each turn the client draws a tile from what is left (the protocol lets
each mover name its tile), draws the board around the tiles placed, and
asks for a placement: ``x y orientation [zone]`` (``73 72 W`` or
``73 72 W SR``), ``hint`` for the rules engine's bot's suggestion, ``zones`` for where a
follower's zones are, ``help`` for the commands, ``q`` to leave.

The board is drawn as wide as the terminal (``--width``, else the
terminal's width, else 80 characters: nine columns of tiles).  A wider
board shows the columns around the last tile placed, numbered on top, and
a line saying which columns these are of all and whether the tile also
fits outside them; ``view X`` shows the columns around column X (``view``
alone: around the last move again), ``board`` the whole board in strips as
wide as the terminal, one under the other, as the end of the game does.
Each tile is three lines of seven characters::

    +--C--+     its north, east, south and west edges: C city, R road, F field
    R k*N C     its letter (k for tile-k), and a follower: * yours, 1-5 another
    +--F--+     player's (the number the server gives it), and its zone

A placement that breaks the rules is explained and asked again, never sent
(one the server refuses all the same is said so, with the reason, and asked again);
scores are the rules engine's, on this client's board.  The server gives
60 seconds per move by default (``--carcassonne-timeout``).

Exit status: 0 at the end of the game (or after ``q``); 1, with a message on stderr, if
the connection fails or is closed before the game ends.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from collections import Counter
from typing import Callable, Iterable, Mapping, Sequence

from twisted.internet import task
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.interfaces import IHalfCloseableProtocol, IReactorTCP
from twisted.internet.stdio import StandardIO
from twisted.logger import FilteringLogObserver, LogLevel, LogLevelFilterPredicate
from twisted.logger import globalLogBeginner, textFileLogObserver
from twisted.protocols.basic import LineReceiver
from twisted.python.failure import Failure
from zope.interface import implementer

from gameproto.carcassonne import wire
from gameproto.carcassonne.protocol import CarcassonneClientProtocol, Placement
from gameproto.games.carcassonne import (
    BOARD_SIZE,
    TILE_WORDS,
    TILES,
    Board,
    CarcassonneView,
    carcassonneBot,
)
from gameproto.terminal import leaveAtShutdown, number, wrap

SIDES = "NESW"
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The neighbour across each side N, E, S, W (y grows downward)."""

WIDTH = 7
"""Characters of a tile's block."""

MIN_WIDTH = 20
"""The narrowest line the client draws and writes to (a tile's block and its row number fit)."""

ZONES = (
    "Zones, where a follower stands (board directions, the tile turned):",
    "        NL  N  NR",
    "     WR +-------+ EL",
    "     W  |   C   | E",
    "     WL +-------+ ER",
    "        SR  S  SL",
    "N, E, S, W: a side's middle (a road there is the road); L and R: its left and right "
    "halves seen from the centre; C: the cloister, or the city or road across the centre.",
)
"""The follower zones (docs/games/carcassonne.md), shown at the start and on ``zones``."""

HELP = (
    "x y orientation [zone]: place your tile (73 72 N; 73 72 W SR: a follower on SR)",
    "hint: the rules engine's bot's placement    zones: where a follower's zones are",
    "view X: the board's columns around column X (view alone: around the last move)",
    "board: the whole board, in strips as wide as the terminal    q: leave the game",
)
"""The commands, shown on ``help``."""

LEGEND = ("Edges: C city, R road, F field; the tile's letter, then a follower "
          "(* yours, 1-5 a player's) and its zone; ? where your tile fits.")


def seatMark(seat: int) -> str:
    """``*`` for this client's followers (seat 0), the player's number for the others'."""
    return "*" if seat == 0 else str(seat)


def named(tile: str) -> str:
    """A tile type in words, with the letter the board shows: ``a road curve (v)``."""
    return f"{TILE_WORDS[tile]} ({tile[-1]})"


def tileBlock(tile: str, orientation: str, follower: tuple[int, str] | None = None) -> list[str]:
    """The three lines of one tile: its edges, its letter and its follower."""
    edges = TILES[tile].oriented(orientation).edges
    n, e, s, w = edges[0], edges[1], edges[2], edges[3]
    mark = "" if follower is None else seatMark(follower[0]) + follower[1]
    return [f"+--{n}--+", f"{w} {tile[-1]}{mark:<3}{e}", f"+--{s}--+"]


def extent(board: Board) -> tuple[range, range]:
    """The columns and the rows of the board's tiles, with one free square of margin."""
    xs = [x for x, _ in board.tiles]
    ys = [y for _, y in board.tiles]
    left, right = max(min(xs) - 1, 0), min(max(xs) + 1, BOARD_SIZE - 1)
    top, bottom = max(min(ys) - 1, 0), min(max(ys) + 1, BOARD_SIZE - 1)
    return range(left, right + 1), range(top, bottom + 1)


def fitting(width: int) -> int:
    """How many columns of tiles a line of ``width`` characters holds (one at least)."""
    return max(1, (width - 3) // (WIDTH + 1))


def window(board: Board, width: int, focus: int) -> range:
    """
    The board's columns that fit in ``width`` characters: all of them, or
    as many as fit, centred on column ``focus`` as far as the board allows.
    """
    columns, _ = extent(board)
    shown = fitting(width)
    if len(columns) <= shown:
        return columns
    first = min(max(focus - shown // 2, columns.start), columns.stop - shown)
    return range(first, first + shown)


def strips(board: Board, width: int) -> list[range]:
    """The board's columns cut into strips of ``width`` characters, left to right."""
    columns, _ = extent(board)
    shown = fitting(width)
    return [columns[i:i + shown] for i in range(0, len(columns), shown)]


def render(board: Board, fits: Iterable[tuple[int, int]] = (),
           columns: range | None = None) -> list[str]:
    """
    The board around its tiles (one free square of margin) as text lines:
    the x coordinates on top, each row's y on the left, ``?`` on ``fits``;
    only ``columns`` when given.
    """
    free = set(fits)
    everything, ys = extent(board)
    columns = everything if columns is None else columns
    top, bottom = ys.start, ys.stop - 1
    lines = [("    " + " ".join(str(x).center(WIDTH) for x in columns)).rstrip()]
    for y in range(top, bottom + 1):
        rows = ["    ", f"{y:>3} ", "    "]
        for x in columns:
            placed = board.tiles.get((x, y))
            if placed is not None:
                block = tileBlock(placed.tile, placed.orientation, board.followers.get((x, y)))
            elif (x, y) in free:
                block = [" " * WIDTH, "?".center(WIDTH), " " * WIDTH]
            else:
                block = [" " * WIDTH] * 3
            rows = [row + cell + " " for row, cell in zip(rows, block)]
        lines.extend(row.rstrip() for row in rows)
    return lines


def orientations(tile: str) -> list[str]:
    """The tile in its four orientations, side by side, each named."""
    blocks = [tileBlock(tile, o) for o in wire.ORIENTATIONS]
    lines = ["  ".join(o.center(WIDTH) for o in wire.ORIENTATIONS)]
    lines += ["  ".join(block[i] for block in blocks) for i in range(3)]
    return lines


def misfit(board: Board, tile: str, x: int, y: int, orientation: str) -> str:
    """Why ``tile`` does not fit at (x, y) turned ``orientation`` (the board says it does not)."""
    if (x, y) in board.tiles:
        return f"({x}, {y}) already holds a tile"
    edges = TILES[tile].oriented(orientation).edges
    clashes = []
    touching = False
    for side, (dx, dy) in enumerate(STEPS):
        near = board.tiles.get((x + dx, y + dy))
        if near is None:
            continue
        touching = True
        theirs = TILES[near.tile].oriented(near.orientation).edges[(side + 2) % 4]
        if theirs != edges[side]:
            clashes.append(f"its {SIDES[side]} edge ({edges[side]}) meets {theirs}")
    if not touching:
        return f"({x}, {y}) touches no tile"
    return ", ".join(clashes) or "it does not fit there"


def winners(points: Mapping[int, int], seats: Iterable[int]) -> list[int]:
    """The seats with the most points."""
    seats = list(seats)
    best = max(points.get(s, 0) for s in seats)
    return [s for s in seats if points.get(s, 0) == best]


class TerminalClient(CarcassonneClientProtocol):
    """
    A person's side of a Carcassonne game: shows everything through ``out``
    (one line per call) and asks for each placement, whose answer comes
    through L{feed}; a placement is checked with the rules engine before it
    is sent, and asked again if it breaks the rules.  L{done} fires when the
    connection is closed: None once the game is over (or the person left),
    else a sentence saying what went wrong.
    """

    def __init__(self, name: str, out: Callable[[str], None], players: int = 2,
                 rng: random.Random | None = None, width: int = 80) -> None:
        super().__init__(players, rng)
        self.name = name
        self.out = out
        self.width = width
        self.focus: int | None = None
        self.done: Deferred[str | None] = Deferred()
        self.drawn: str | None = None
        self.final: Counter[int] | None = None
        self._drawnFor: int | None = None
        self._answer: Deferred[Placement | None] | None = None
        self._leaving = False
        self._problem: str | None = None

    # -- what the player sees ----------------------------------------------------

    def say(self, text: str) -> None:
        """Words, wrapped at the terminal's width (a drawing goes to ``out`` as it is)."""
        for line in wrap(text, self.width):
            self.out(line)

    def seatName(self, seat: int) -> str:
        return f"you ({self.name})" if seat == 0 else f"player {seat}"

    def seats(self) -> list[int]:
        return [0, *sorted(self.opponents | {s for s in self.scores if s})]

    def scoreLine(self, points: Mapping[int, int]) -> str:
        return ", ".join(f"{self.seatName(s)} {points.get(s, 0)}" for s in self.seats())

    def describe(self, tile: str, x: int, y: int, orientation: str, pawn: str | None) -> str:
        follower = "no follower" if pawn is None else f"a follower on {pawn}"
        return f"{named(tile)} at ({x}, {y}) {orientation}, {follower}"

    def fits(self) -> set[tuple[int, int]]:
        """The squares where the drawn tile fits (none without a drawn tile)."""
        if self.drawn is None:
            return set()
        return {(x, y) for x, y, _ in self.rules.placements(self.drawn)}

    def showBoard(self) -> None:
        """
        The board as wide as the terminal: all of it if it fits, else the
        columns around the last tile placed (or the column ``view`` chose),
        and a line saying which columns these are.
        """
        fits = self.fits()
        everything, _ = extent(self.rules)
        focus = self.focus
        if focus is None:
            focus = next(reversed(self.rules.tiles))[0]
        columns = window(self.rules, self.width, focus)
        for line in render(self.rules, fits, columns):
            self.out(line)
        if columns == everything:
            return
        elsewhere = [side for side, hidden in (
            ("left", any(x < columns.start for x, _ in fits)),
            ("right", any(x >= columns.stop for x, _ in fits))) if hidden]
        more = f" (? also {' and '.join(elsewhere)})" if elsewhere else ""
        self.say(f"Columns {columns.start}-{columns[-1]} of {everything.start}-{everything[-1]}"
                 f"{more}; view X or board shows the rest.")

    def showWhole(self, fits: Iterable[tuple[int, int]] = ()) -> None:
        """The whole board, in strips of columns as wide as the terminal."""
        for columns in strips(self.rules, self.width):
            for line in render(self.rules, fits, columns):
                self.out(line)

    def showTurn(self) -> None:
        """The board with the squares where the drawn tile fits, the tile, the scores."""
        assert self.drawn is not None
        self.say("")
        self.showBoard()
        self.say(LEGEND)
        self.say(f"Scores: {self.scoreLine(self.scores)}. "
                 f"Tiles left: {sum(self.pile.values())}. Followers left: {self.followersLeft()}.")
        self.say(f"Your tile: {named(self.drawn)}, edges N E S W as drawn: "
                 f"{' '.join(TILES[self.drawn].oriented('N').edges)}")
        for line in orientations(self.drawn):
            self.out(line)

    def prompt(self) -> None:
        tile = "your tile" if self.drawn is None else named(self.drawn)
        self.say(f"Your move ({tile}): x y orientation [zone], hint, help, or q:")

    def suggestion(self) -> Placement | None:
        """The rules engine's bot's placement of the drawn tile."""
        if self.drawn is None:
            return None
        view = CarcassonneView(0, 0, self.rules, self.drawn, dict(self.pile),
                               (self.followersLeft(),), (0,), len(self.board) - 1)
        move = carcassonneBot(view, 0)
        if not isinstance(move, dict):
            return None
        zone = move["zone"]
        return (self.drawn, int(move["x"]), int(move["y"]),  # type: ignore[call-overload]
                str(move["orientation"]), None if zone is None else str(zone))

    def problemWith(self, placement: Placement) -> str | None:
        """Why ``placement`` breaks the rules on this client's board, or None."""
        tile, x, y, orientation, pawn = placement
        if self.pile[tile] <= 0:
            return f"no copy of {named(tile)} is left"
        if not (0 <= x < BOARD_SIZE and 0 <= y < BOARD_SIZE):
            return f"coordinates are 0 to {BOARD_SIZE - 1}"
        if not self.rules.fits(tile, x, y, orientation):
            return f"{named(tile)} does not fit at ({x}, {y}) {orientation}: " + misfit(
                self.rules, tile, x, y, orientation)
        if pawn is None:
            return None
        if self.followersLeft() <= 0:
            return "you have no follower left"
        allowed = self.rules.followerZones(tile, x, y, orientation)
        if pawn not in allowed:
            return (f"no follower may stand on {pawn} there; "
                    f"free zones: {' '.join(allowed) or 'none'}")
        return None

    # -- hooks of CarcassonneClientProtocol -----------------------------------------

    def connectionMade(self) -> None:
        super().connectionMade()
        self.say(f"Connected as {self.name}. Waiting for "
                 f"{self.players - 1} opponent{'s' if self.players > 2 else ''}...")
        if self._leaving:
            self.leave()

    def alone(self) -> None:
        self.say("Alone in the room: waiting for an opponent (the server's bot comes "
                 "after a while when it has one).")

    def playerJoined(self, number: int) -> None:
        self.say(f"Player {number} is here.")

    def playerLeft(self, number: int) -> None:
        self.say(f"Player {number} left (a bot may take the seat).")

    def gameStarted(self) -> None:
        self.say(f"The game starts: {', '.join(self.seatName(s) for s in self.seats())}. "
                 f"The start tile, {named('tile-d')}, is at (72, 72).")
        self.showZones()

    def showZones(self) -> None:
        *drawing, key = ZONES
        for line in drawing:
            self.out(line)
        self.say(key)

    def chooseMove(self) -> Deferred[Placement | None] | None:
        if self._drawnFor != self.token:
            self._drawnFor = self.token
            self.drawn = self.draw()
            if self.drawn is None:
                self.say("No tile left fits anywhere.")
                return None
            self.showTurn()
        self._answer = Deferred()
        self.prompt()
        return self._answer

    def draw(self) -> str | None:
        """A tile from what is left, by the counts, among those that fit somewhere."""
        names = [t for t in sorted(self.pile) if self.pile[t] > 0 and self.rules.placeable(t)]
        if not names:
            return None
        return self.rng.choices(names, [self.pile[t] for t in names])[0]

    def moveAccepted(self, board: dict[tuple[int, int], tuple[str, str]]) -> None:
        self.drawn = None
        self.say("Everybody accepted your move.")
        self.say(f"Scores: {self.scoreLine(self.scores)}")

    def moveRefused(self, move: wire.Move) -> None:
        problem = self.problemWith((move.tile, move.x, move.y, move.orientation, move.pawn))
        self.say(f"The server refused your move, "
                 f"{self.describe(move.tile, move.x, move.y, move.orientation, move.pawn)}: "
                 f"{problem or 'this board allows it, the server sees another board'}. "
                 "Choose again.")

    def moveReceived(self, move: wire.Move, accepted: bool) -> None:
        what = self.describe(move.tile, move.x, move.y, move.orientation, move.pawn)
        if accepted:
            self.say(f"Player {move.n} placed {what}. Scores: {self.scoreLine(self.scores)}")
        else:
            self.say(f"Player {move.n} played {what}, which breaks the rules: "
                     "this client refused it.")

    def gameStopped(self) -> None:
        self.say("A player refused the last move as breaking the rules; the game stops.")

    def gameFinished(self, number: int) -> None:
        self._forget()
        final = Counter(self.scores)
        for score in self.rules.finalScores():
            for seat in score.seats:
                final[seat] += score.points
        self.final = final
        by = "" if number == 0 else f" (player {number} ended it)"
        self.say("")
        self.showWhole()
        tiles = len(self.board)
        self.say(f"The game is over{by}: {tiles} tile{'' if tiles == 1 else 's'} on the board.")
        self.say(f"Final scores (with the incomplete features and the farms): "
                 f"{self.scoreLine(final)}")
        best = winners(final, self.seats())
        if best == [0]:
            self.say("Result: you won!")
        elif 0 in best:
            self.say("Result: a draw.")
        else:
            self.say(f"Result: {' and '.join(self.seatName(s) for s in best)} won.")

    def noopReceived(self) -> None:
        self.say("The server did not understand or did not allow the last line this "
                 "client sent.")

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        self._forget()
        if self._problem is None and not self.finished and not self._leaving:
            self._problem = ("the server closed the connection before the end of the game "
                             f"({reason.getErrorMessage()})")
        self.say("Disconnected.")
        if not self.done.called:
            self.done.callback(self._problem)

    # -- what the player types ------------------------------------------------------

    def _forget(self) -> None:
        self._answer = None

    def feed(self, line: str) -> None:
        """One line typed by the player."""
        words = line.split()
        text = " ".join(words).lower()
        if text in ("q", "quit"):
            self.leave()
        elif text in ("zones", "zone", "z"):
            self.showZones()
            self._promptAgain()
        elif text in ("help", "?"):
            for command in HELP:
                self.say(command)
            self._promptAgain()
        elif text in ("board", "b"):
            self.showWhole(self.fits())
            self._promptAgain()
        elif words and words[0].lower() in ("view", "v"):
            column = number(words[1]) if len(words) == 2 else None
            if len(words) > 2 or (len(words) == 2 and column is None):
                self.say("Type view X (a column number), or view alone to follow the play.")
            else:
                self.focus = column
                self.showBoard()
            self._promptAgain()
        elif self._answer is None or self.drawn is None:
            self.say("Nothing to answer now: wait (or q to quit).")
        elif text in ("hint", "h"):
            hint = self.suggestion()
            if hint is None:
                self.say("The bot has no suggestion.")
            else:
                _, x, y, orientation, pawn = hint
                self.say(f"Hint: {x} {y} {orientation}{'' if pawn is None else ' ' + pawn}")
            self.prompt()
        else:
            self._feedMove(words)

    def _feedMove(self, words: list[str]) -> None:
        assert self.drawn is not None
        x, y = (number(words[0]), number(words[1])) if len(words) in (3, 4) else (None, None)
        if x is None or y is None:
            self._retry("Type x y orientation [zone] (e.g. 73 72 N, or 73 72 W SR), "
                        "hint, zones, or q.")
            return
        orientation = words[2].upper()
        if orientation not in wire.ORIENTATIONS:
            self._retry(f"{words[2]!r} is not an orientation: N, E, S or W.")
            return
        pawn = words[3].upper() if len(words) == 4 else None
        if pawn in ("-", "NONE"):
            pawn = None
        if pawn is not None and pawn not in wire.ZONES:
            self._retry(f"{words[3]!r} is not a zone: {' '.join(wire.ZONES)} (or none; "
                        "zones shows where they are).")
            return
        placement: Placement = (self.drawn, x, y, orientation, pawn)
        problem = self.problemWith(placement)
        if problem is not None:
            self._retry(f"Not sent: {problem}.")
            return
        answered = self._answer
        self._forget()
        assert answered is not None
        self.say(f"You place {self.describe(*placement)}.")
        answered.callback(placement)

    def _promptAgain(self) -> None:
        """The question again, if one is waiting for its answer."""
        if self._answer is not None and self.drawn is not None:
            self.prompt()

    def _retry(self, problem: str) -> None:
        self.say(problem)
        self.prompt()

    def leave(self) -> None:
        """Say CLOSE and hang up (a bot may take the seat)."""
        self._leaving = True
        self._forget()
        if self.transport is not None and not self.done.called and not self._closing:
            self.sendMessage(wire.Close(0))
            self.transport.loseConnection()


@implementer(IHalfCloseableProtocol)
class Keyboard(LineReceiver):
    """
    Standard input and output for a L{TerminalClient}.  The end of input
    (Ctrl-D) leaves the game; the output stays open for what follows.
    """

    delimiter = b"\n"

    def __init__(self) -> None:
        self.client: TerminalClient | None = None
        self.closed: Deferred[None] = Deferred()

    def show(self, text: str) -> None:
        self.transport.write(text.encode("utf-8") + b"\n")  # type: ignore[union-attr]

    def lineReceived(self, line: bytes) -> None:
        if self.client is not None:
            self.client.feed(line.decode("utf-8", "replace"))

    def readConnectionLost(self) -> None:
        if self.client is not None:
            self.client.leave()

    def writeConnectionLost(self) -> None:
        pass

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        if self.client is not None:
            self.client.leave()
        self.closed.callback(None)


def parseArguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play Carcassonne from a terminal.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Commands at the prompt (help shows them too):\n  " + "\n  ".join(HELP)
        + "\nThe board is drawn as wide as the terminal (--width): when it is wider, "
        "its columns\naround the last move, with their numbers on top; view X and board "
        "show the rest.")
    parser.add_argument("--host", default="127.0.0.1", help="server host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=4002, help="server TCP port (4002)")
    parser.add_argument("--name", default="you",
                        help="your name on this screen (the protocol carries none)")
    parser.add_argument("--players", type=int, default=2,
                        help="say READY once the room has this many players, 2 to 5 (2)")
    parser.add_argument("--width", type=int, default=None,
                        help="characters a line may take, 20 at least: the board is drawn "
                        "that wide and sentences wrapped at it (the terminal's width, 80 if "
                        "it has none)")
    args = parser.parse_args(argv)
    if args.width is None:
        args.width = max(MIN_WIDTH, shutil.get_terminal_size((80, 24)).columns)
    elif args.width < MIN_WIDTH:
        parser.error(f"--width must be at least {MIN_WIDTH}")
    if not 2 <= args.players <= 5:
        parser.error("--players must be 2 to 5")
    return args


async def main(reactor: IReactorTCP, *argv: str) -> None:
    args = parseArguments(argv)
    globalLogBeginner.beginLoggingTo(
        [FilteringLogObserver(textFileLogObserver(sys.stderr),
                              [LogLevelFilterPredicate(LogLevel.warn)])],
        redirectStandardIO=False)
    keyboard = Keyboard()
    StandardIO(keyboard, reactor=reactor)
    client = TerminalClient(args.name, keyboard.show, args.players, width=args.width)
    keyboard.client = client
    leaveAtShutdown(reactor, client.leave, keyboard.closed)
    try:
        await connectProtocol(TCP4ClientEndpoint(reactor, args.host, args.port, 10), client)
    except Exception as e:
        raise SystemExit(f"carcassonne_terminal: cannot connect to {args.host}:{args.port}: {e}")
    problem = await client.done
    keyboard.transport.loseConnection()  # type: ignore[union-attr]
    await keyboard.closed  # everything printed has been written
    if problem is not None:
        raise SystemExit(f"carcassonne_terminal: {problem}")


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
