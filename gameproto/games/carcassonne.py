"""Carcassonne, the base game: tiles, placement, followers, scoring, a bot and the engine.

Pure and deterministic: no I/O, no clock, no global random state.

The edition is the current one (the third): a completed city scores 2 per
tile and 2 per shield whatever its size (no 2-tile exception), and each
field scores 3 per adjacent completed city to the majority of its farmers
(the ``farms`` parameter: ``"3rd"``; ``"2nd"`` and ``"1st"``, the earlier
editions' farm rules; ``"none"`` to play without farmers).  Whatever the
farm rule, cities score after the current edition.
Ties score in full.  Each player has 7 followers.

Geometry, after the protocol document (``carcassonne-1.71``): the board has
(0, 0) at the top left, x to the right and y downward; the start tile
``tile-d`` lies at (72, 72) in orientation ``N``.  An orientation names the
tile's own side that points north: ``N`` as drawn, ``W`` a quarter turn
clockwise, ``S`` a half turn, ``E`` a quarter turn anticlockwise.  A
follower stands in one of 13 zones, named in board directions after
rotation: clockwise from the north-west corner ``NL N NR EL E ER SL S SR
WL W WR`` (an edge's ``L``/``R`` halves as seen from the tile's centre
looking out through it), and ``C``, the cloister, or the city or road
through the centre where that is unambiguous.  A road edge is road in its
middle zone and field in its halves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    Bot,
    Display,
    checkSeeded,
    Errors,
    Event,
    GameState,
    IncorrectValue,
    Instructions,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    WrongAction,
    WrongActionSubtype,
    Zone,
    checkAction,
)

__all__ = [
    "BOARD_SIZE",
    "CARCASSONNE",
    "ENGINE",
    "FOLLOWERS",
    "ORIENTATIONS",
    "START",
    "START_TILE",
    "TILES",
    "TILE_WORDS",
    "ZONES",
    "Board",
    "CarcassonneEngine",
    "CarcassonneGame",
    "CarcassonneView",
    "Feature",
    "Oriented",
    "TileType",
    "carcassonneBot",
]

EDGE_ZONES = ("NL", "N", "NR", "EL", "E", "ER", "SL", "S", "SR", "WL", "W", "WR")
"""The 12 edge zones, clockwise from the north-west corner: side ``s`` holds ``3s..3s+2``."""
ZONES = EDGE_ZONES + ("C",)
SIDES = "NESW"
ORIENTATIONS = {"N": 0, "W": 1, "S": 2, "E": 3}
"""Each orientation as clockwise quarter turns."""
_ORIENTATION_NAMES = ("N", "W", "S", "E")
_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The neighbour across each side N, E, S, W."""

FOLLOWERS = 7
BOARD_SIZE = 145
"""Coordinates run over 0..144: 72 tiles from (72, 72) never leave it."""
START = (72, 72)
START_TILE = "tile-d"
CITY, ROAD, FIELD, CLOISTER = "city", "road", "field", "cloister"
_EDGE_KIND = {CITY: "C", ROAD: "R", FIELD: "F"}


def _rotateZone(zone: str, turns: int) -> str:
    """``zone`` after ``turns`` clockwise quarter turns."""
    if zone == "C":
        return zone
    return EDGE_ZONES[(EDGE_ZONES.index(zone) + 3 * turns) % 12]


def _facing(index: int) -> int:
    """The edge zone of the neighbour that touches edge zone ``index``."""
    side, half = divmod(index, 3)
    return 3 * ((side + 2) % 4) + (2 - half)


@attrs.frozen
class Feature:
    """One city, road, field or cloister of a tile: its kind, zones, and shield."""

    kind: str
    zones: frozenset[str]
    shield: bool = False

    def rotated(self, turns: int) -> Feature:
        return Feature(self.kind, frozenset(_rotateZone(z, turns) for z in self.zones),
                       self.shield)

    @property
    def sides(self) -> tuple[int, ...]:
        """The sides (0..3 for N, E, S, W) whose middle zone is this feature."""
        return tuple(s for s in range(4) if EDGE_ZONES[3 * s + 1] in self.zones)


@attrs.frozen
class Oriented:
    """A tile type turned: its features, edges, and which feature holds each zone."""

    features: tuple[Feature, ...]
    edges: str
    zoneFeature: Mapping[str, int]
    cityNeighbours: tuple[tuple[int, ...], ...]
    """For each feature, the city features of the same tile it touches (fields only)."""


@attrs.frozen
class TileType:
    """A tile type as drawn (orientation ``N``): its name, count, edges and features."""

    name: str
    count: int
    edges: str
    features: tuple[Feature, ...]

    def oriented(self, orientation: str) -> Oriented:
        """This tile turned to ``orientation`` (computed once, when the module loads)."""
        return _ORIENTED[self.name, orientation]


def _oriented(tile: TileType, turns: int) -> Oriented:
    features = tuple(f.rotated(turns) for f in tile.features)
    zoneFeature = {z: i for i, f in enumerate(features) for z in f.zones}
    edges = "".join(_EDGE_KIND[features[zoneFeature[EDGE_ZONES[3 * s + 1]]].kind]
                    for s in range(4))
    neighbours = []
    for f in features:
        touched: set[int] = set()
        if f.kind == FIELD:
            for zone in f.zones:
                index = EDGE_ZONES.index(zone)
                for near in (EDGE_ZONES[(index + 1) % 12], EDGE_ZONES[(index - 1) % 12]):
                    other = zoneFeature[near]
                    if features[other].kind == CITY:
                        touched.add(other)
        neighbours.append(tuple(sorted(touched)))
    return Oriented(features, edges, zoneFeature, tuple(neighbours))


def _tile(name: str, count: int, edges: str, *features: str) -> TileType:
    parsed = []
    for text in features:
        kind, *zones = text.split()
        shield = kind.endswith("*")
        parsed.append(Feature(kind.rstrip("*"), frozenset(zones), shield))
    return TileType(name, count, edges, tuple(parsed))


_ALL_EDGES = "NL N NR EL E ER SL S SR WL W WR"

TILES: Mapping[str, TileType] = {t.name: t for t in (
    _tile("tile-a", 2, "FFRF", "cloister C", "road S", "field NL N NR EL E ER SL SR WL W WR"),
    _tile("tile-b", 4, "FFFF", "cloister C", "field " + _ALL_EDGES),
    _tile("tile-c", 1, "CCCC", "city* C " + _ALL_EDGES),
    _tile("tile-d", 4, "RCRF", "road N S C", "city EL E ER", "field NL WR W WL SR",
          "field NR SL"),
    _tile("tile-e", 5, "CFFF", "city NL N NR", "field EL E ER SL S SR WL W WR"),
    _tile("tile-f", 2, "FCFC", "city* EL E ER WL W WR C", "field NL N NR", "field SL S SR"),
    _tile("tile-g", 1, "CFCF", "city NL N NR SL S SR C", "field EL E ER", "field WL W WR"),
    _tile("tile-h", 3, "FCFC", "city EL E ER", "city WL W WR", "field NL N NR SL S SR"),
    _tile("tile-i", 2, "FCCF", "city EL E ER", "city SL S SR", "field NL N NR WL W WR"),
    _tile("tile-j", 3, "CRRF", "city NL N NR", "road E S", "field ER SL",
          "field EL SR WL W WR"),
    _tile("tile-k", 3, "RCFR", "city EL E ER", "road N W", "field NL WR",
          "field NR SL S SR WL"),
    _tile("tile-l", 3, "RCRR", "city EL E ER", "road N", "road S", "road W", "field NL WR",
          "field WL SR", "field NR SL"),
    _tile("tile-m", 2, "CFFC", "city* NL N NR WL W WR", "field EL E ER SL S SR"),
    _tile("tile-n", 3, "CFFC", "city NL N NR WL W WR", "field EL E ER SL S SR"),
    _tile("tile-o", 2, "CRRC", "city* NL N NR WL W WR", "road E S", "field ER SL",
          "field EL SR"),
    _tile("tile-p", 3, "CRRC", "city NL N NR WL W WR", "road E S", "field ER SL",
          "field EL SR"),
    _tile("tile-q", 1, "CCFC", "city* C NL N NR EL E ER WL W WR", "field SL S SR"),
    _tile("tile-r", 3, "CCFC", "city C NL N NR EL E ER WL W WR", "field SL S SR"),
    _tile("tile-s", 2, "CCRC", "city* C NL N NR EL E ER WL W WR", "road S", "field SL",
          "field SR"),
    _tile("tile-t", 1, "CCRC", "city C NL N NR EL E ER WL W WR", "road S", "field SL",
          "field SR"),
    _tile("tile-u", 8, "RFRF", "road N S C", "field NR EL E ER SL", "field SR WL W WR NL"),
    _tile("tile-v", 9, "FFRR", "road W S", "field WL SR", "field NL N NR EL E ER SL WR"),
    _tile("tile-w", 4, "FRRR", "road E", "road S", "road W", "field NL N NR EL WR",
          "field ER SL", "field SR WL"),
    _tile("tile-x", 1, "RRRR", "road N", "road E", "road S", "road W", "field NR EL",
          "field ER SL", "field SR WL", "field WR NL"),
)}
"""The base game's 24 tile types, 72 tiles, as the course's images draw them."""

TILE_WORDS: Mapping[str, str] = {
    "tile-a": "a cloister with a road",
    "tile-b": "a cloister",
    "tile-c": "a four-sided city with a shield",
    "tile-d": "a city edge with a straight road",
    "tile-e": "a city edge",
    "tile-f": "a city across the tile with a shield",
    "tile-g": "a city across the tile",
    "tile-h": "a tile with two opposite city edges",
    "tile-i": "a tile with two adjacent city edges",
    "tile-j": "a city edge with a road bending right",
    "tile-k": "a city edge with a road bending left",
    "tile-l": "a city edge with a road junction",
    "tile-m": "a city corner with a shield",
    "tile-n": "a city corner",
    "tile-o": "a city corner with a road and a shield",
    "tile-p": "a city corner with a road",
    "tile-q": "a three-sided city with a shield",
    "tile-r": "a three-sided city",
    "tile-s": "a three-sided city with a road and a shield",
    "tile-t": "a three-sided city with a road",
    "tile-u": "a straight road",
    "tile-v": "a road curve",
    "tile-w": "a road junction",
    "tile-x": "a crossroads",
}
"""
Each tile type in words, for people (the ids are the wire's): what it
shows in orientation ``N``, a road's bend seen with the city at the top.
"""

_ORIENTED: dict[tuple[str, str], Oriented] = {
    (name, orientation): _oriented(tile, turns)
    for name, tile in TILES.items() for orientation, turns in ORIENTATIONS.items()}
"""Each tile type in each orientation, keyed by names (whose hashes Python keeps)."""
_EDGES: dict[tuple[str, str], str] = {key: o.edges for key, o in _ORIENTED.items()}
"""The edges (N, E, S, W) of each tile type in each orientation."""
_SIDE_FEATURES: dict[tuple[str, str], tuple[tuple[int, int, int], ...]] = {
    key: tuple((o.zoneFeature[EDGE_ZONES[3 * side]], o.zoneFeature[EDGE_ZONES[3 * side + 1]],
                o.zoneFeature[EDGE_ZONES[3 * side + 2]]) for side in range(4))
    for key, o in _ORIENTED.items()}
"""For each turned tile and side N, E, S, W, the features of its three edge zones, in order."""
_CLOSES: dict[tuple[str, str], tuple[bool, ...]] = {
    key: tuple(o.features[o.zoneFeature[EDGE_ZONES[3 * side + 1]]].kind in (CITY, ROAD)
               for side in range(4))
    for key, o in _ORIENTED.items()}
"""For each turned tile and side, whether a city or road crosses it (joining one closes a side)."""
_OPEN_SIDES: dict[tuple[str, str], tuple[int, ...]] = {
    key: tuple(len(f.sides) for f in o.features) for key, o in _ORIENTED.items()}
"""For each turned tile, the sides each feature crosses."""
_TURNED: dict[str, tuple[str, ...]] = {
    name: tuple(dict.fromkeys(_EDGES[name, o] for o in ("N", "W", "S", "E"))) for name in TILES}
"""Each tile type's distinct turned edges (a symmetric tile has fewer than four)."""
_TILE_NAMES = tuple(sorted(TILES))
_NEW_REGIONS: dict[tuple[str, str], tuple[tuple[str, int, int], ...]] = {
    key: tuple((f.kind, int(f.shield), len(f.sides) if f.kind in (CITY, ROAD) else 0)
               for f in o.features)
    for key, o in _ORIENTED.items()}
"""For each turned tile, each feature's region when placed: kind, shields, open sides."""
_KINDS: dict[tuple[str, str], tuple[str, ...]] = {
    key: tuple(f.kind for f in o.features) for key, o in _ORIENTED.items()}
_SCORING: dict[tuple[str, str], tuple[int, ...]] = {
    key: tuple(i for i, f in enumerate(o.features) if f.kind in (CITY, ROAD))
    for key, o in _ORIENTED.items()}
"""
For each turned tile, its cities and roads: the features a placement may
complete (a feature joins only features of its kind).
"""
_CLOISTER_TILES = frozenset(name for name, tile in TILES.items()
                            if any(f.kind == CLOISTER for f in _ORIENTED[name, "N"].features))
"""The tile types with a cloister (only a monk on one of them scores as a cloister)."""


def fullPile() -> Counter[str]:
    """Every tile of the game but the start tile: 71."""
    pile = Counter({name: t.count for name, t in TILES.items()})
    pile[START_TILE] -= 1
    return pile


# -- the board -----------------------------------------------------------------


@attrs.define
class Region:
    """A connected feature (the root of its union-find set)."""

    kind: str
    tiles: set[tuple[int, int]]
    shields: int = 0
    open: int = 0
    """City and road sides still open to an empty cell."""
    followers: list[tuple[Seat, tuple[int, int]]] = attrs.Factory(list)
    cities: set[int] = attrs.Factory(set)
    """Fields: the city nodes they touch."""

    @property
    def complete(self) -> bool:
        return self.kind in (CITY, ROAD) and self.open == 0


@attrs.frozen
class Placed:
    """A tile on the board: its type, orientation and one node per feature."""

    tile: str
    orientation: str
    nodes: tuple[int, ...]


@attrs.frozen
class Merged:
    """What one feature of a tile would become if the tile were placed: a preview."""

    kind: str
    roots: frozenset[int]
    features: frozenset[int]
    tiles: int
    shields: int
    open: int
    followers: tuple[Seat, ...]

    @property
    def complete(self) -> bool:
        return self.kind in (CITY, ROAD) and self.open == 0


@attrs.frozen
class Score:
    """Points scored by a feature: who, how much, and what for."""

    kind: str
    points: int
    seats: tuple[Seat, ...]
    tiles: int
    final: bool = False

    def asJSON(self) -> dict[str, JSON]:
        return {"kind": self.kind, "points": self.points, "seats": list(self.seats),
                "tiles": self.tiles, "final": self.final}


def _winners(followers: Iterable[Seat]) -> tuple[Seat, ...]:
    """The seats with the most followers (ties all win)."""
    counts: dict[Seat, int] = {}  # a dict: a Counter asks an ABC of its argument
    for seat in followers:
        counts[seat] = counts.get(seat, 0) + 1
    if not counts:
        return ()
    most = max(counts.values())
    return tuple(sorted(s for s, n in counts.items() if n == most))


class Board:
    """
    The tiles placed so far and their features, joined by a union-find.

    Public information: every seat may see all of it.  The board does not
    judge turns or piles; it checks placements and followers, places, and
    scores.
    """

    def __init__(self, farms: str = "3rd") -> None:
        self.farms = farms
        self.tiles: dict[tuple[int, int], Placed] = {}
        self.parent: list[int] = []
        self.regions: dict[int, Region] = {}
        self.nodeKind: list[str] = []
        self.followers: dict[tuple[int, int], tuple[Seat, str]] = {}
        """The follower on each tile that has one: its seat and zone."""
        self._monks: set[tuple[int, int]] = set()
        """The cloister tiles among L{followers}' (where a cloister may score)."""
        self.frontier: set[tuple[int, int]] = set()
        self._fitted: dict[str, tuple[str, int, int]] = {}
        """For each tile type, where it last fitted (turned edges, x, y): asked first."""
        self.place(START_TILE, START[0], START[1], "N")

    # union-find

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def region(self, node: int) -> Region:
        return self.regions[self.find(node)]

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        big, small = self.regions[ra], self.regions[rb]
        if len(big.tiles) < len(small.tiles):
            ra, rb, big, small = rb, ra, small, big
        self.parent[rb] = ra
        big.tiles |= small.tiles
        big.shields += small.shields
        big.open += small.open
        big.followers.extend(small.followers)
        big.cities |= small.cities
        del self.regions[rb]
        return ra

    # placement

    def fits(self, tile: str, x: int, y: int, orientation: str) -> bool:
        """Whether ``tile`` may lie at (x, y) turned to ``orientation``."""
        if (x, y) not in self.frontier:
            return False
        return self._fits(_EDGES[tile, orientation], x, y)

    def _fits(self, edges: str, x: int, y: int) -> bool:
        """Whether ``edges`` match every neighbour of the frontier square (x, y)."""
        tiles = self.tiles
        for side, (dx, dy) in enumerate(_STEPS):
            other = tiles.get((x + dx, y + dy))
            if other is not None and _EDGES[other.tile, other.orientation][(side + 2) % 4] \
                    != edges[side]:
                return False
        return True

    def placements(self, tile: str) -> list[tuple[int, int, str]]:
        """Every legal (x, y, orientation) for ``tile``, in a fixed order."""
        return [(x, y, o) for (x, y) in sorted(self.frontier) for o in _ORIENTATION_NAMES
                if self.fits(tile, x, y, o)]

    def placeable(self, tile: str) -> bool:
        """Whether ``tile`` fits somewhere, in some orientation."""
        fits, frontier = self._fits, self.frontier
        fitted = self._fitted.get(tile)
        if fitted is not None and (fitted[1], fitted[2]) in frontier and fits(*fitted):
            return True  # usually: where it fitted last still takes it
        turned = _TURNED[tile]  # symmetric tiles: fewer than four
        for x, y in frontier:
            for edges in turned:
                if fits(edges, x, y):
                    self._fitted[tile] = (edges, x, y)
                    return True
        return False

    def _connections(self, tile: str, orientation: str, x: int,
                     y: int) -> list[tuple[int, int, bool]]:
        """
        (feature of the new tile, neighbour node, closes a side) for each
        touching zone pair, side by side (N, E, S, W), each pair once.
        """
        sides, closing = _SIDE_FEATURES[tile, orientation], _CLOSES[tile, orientation]
        found: list[tuple[int, int, bool]] = []
        tiles = self.tiles
        for side, (dx, dy) in enumerate(_STEPS):
            other = tiles.get((x + dx, y + dy))
            if other is None:
                continue
            # The neighbour's facing side, its zones in the opposite order.
            nodes = other.nodes
            theirs = _SIDE_FEATURES[other.tile, other.orientation][(side + 2) % 4]
            mine = sides[side]
            a, b, c = ((mine[0], nodes[theirs[2]]), (mine[1], nodes[theirs[1]]),
                       (mine[2], nodes[theirs[0]]))
            closes = closing[side]
            if a == b:
                if b == c:
                    found.append((a[0], a[1], closes))
                else:
                    found += ((a[0], a[1], closes), (c[0], c[1], False))
            elif a == c:
                found += ((a[0], a[1], False), (b[0], b[1], closes))
            elif b == c:
                found += ((a[0], a[1], False), (b[0], b[1], closes))
            else:
                found += ((a[0], a[1], False), (b[0], b[1], closes), (c[0], c[1], False))
        return found

    def preview(self, tile: str, x: int, y: int, orientation: str) -> list[Merged]:
        """For each feature of ``tile`` placed so, the region it would belong to."""
        oriented = _ORIENTED[tile, orientation]
        connections = self._connections(tile, orientation, x, y)
        labels: dict[Any, Any] = {}

        def find(label: Any) -> Any:
            while labels.setdefault(label, label) != label:
                label = labels[label]
            return label

        for mine, node, _ in connections:
            a, b = find(("f", mine)), find(("r", self.find(node)))
            if a != b:
                labels[a] = b
        groups: dict[Any, list[Any]] = {}
        for index in range(len(oriented.features)):
            groups.setdefault(find(("f", index)), []).append(("f", index))
        for _, node, _ in connections:
            root = self.find(node)
            group = groups.setdefault(find(("r", root)), [])
            if ("r", root) not in group:
                group.append(("r", root))
        closed: Counter[Any] = Counter()
        for mine, _, closes in connections:
            if closes:
                closed[find(("f", mine))] += 1
        merged: dict[Any, Merged] = {}
        for key, members in groups.items():
            features = frozenset(i for k, i in members if k == "f")
            if not features:
                continue
            roots = frozenset(r for k, r in members if k == "r")
            first = oriented.features[min(features)]
            tiles: set[tuple[int, int]] = {(x, y)}
            shields = sum(oriented.features[i].shield for i in features)
            opened = sum(_OPEN_SIDES[tile, orientation][i] for i in features)
            followers: list[Seat] = []
            for root in roots:
                region = self.regions[root]
                tiles |= region.tiles
                shields += region.shields
                opened += region.open
                followers.extend(s for s, _ in region.followers)
            merged[key] = Merged(first.kind, roots, features, len(tiles), shields,
                                 opened - 2 * closed[key], tuple(followers))
        return [merged[find(("f", i))] for i in range(len(oriented.features))]

    def followerZones(self, tile: str, x: int, y: int, orientation: str) -> list[str]:
        """The zones where a follower may stand on ``tile`` placed so (any seat with one left)."""
        oriented = _ORIENTED[tile, orientation]
        merged = self.preview(tile, x, y, orientation)
        return [z for z in ZONES if z in oriented.zoneFeature
                and not merged[oriented.zoneFeature[z]].followers
                and (self.farms != "none" or merged[oriented.zoneFeature[z]].kind != FIELD)]

    def mayStand(self, tile: str, x: int, y: int, orientation: str, zone: str) -> bool:
        """
        Whether a follower may stand in ``zone`` of ``tile`` placed so: ``zone
        in followerZones(tile, x, y, orientation)``, the one zone's region
        alone.  That region is the zone's feature, the regions it touches,
        the tile's other features touching those, and so on: free when none
        of its regions holds a follower.
        """
        oriented = _ORIENTED[tile, orientation]
        feature = oriented.zoneFeature.get(zone)
        if feature is None or (self.farms == "none"
                               and oriented.features[feature].kind == FIELD):
            return False
        find = self.find
        links = [(mine, find(node)) for mine, node, _ in self._connections(tile, orientation,
                                                                            x, y)]
        features, roots = {feature}, set()
        grown = True
        while grown:
            grown = False
            for mine, root in links:
                if (mine in features) != (root in roots):
                    features.add(mine)
                    roots.add(root)
                    grown = True
        regions = self.regions
        return not any(regions[root].followers for root in roots)

    def place(self, tile: str, x: int, y: int, orientation: str,
              follower: tuple[Seat, str] | None = None) -> list[Score]:
        """
        Put ``tile`` down (the caller has checked it fits and the follower
        may stand there), join its features, stand the follower, and score
        what it completes.  Returns the scores; returned followers leave
        L{followers}.
        """
        key = (tile, orientation)
        oriented = _ORIENTED[key]
        connections = self._connections(tile, orientation, x, y) if self.tiles else []
        first = len(self.parent)
        nodes = tuple(range(first, first + len(oriented.features)))
        self.parent.extend(nodes)
        self.nodeKind.extend(_KINDS[key])
        regions, where = self.regions, (x, y)
        for node, (kind, shields, sides) in zip(nodes, _NEW_REGIONS[key]):
            regions[node] = Region(kind, {where}, shields, sides)
        for node, cities in zip(nodes, oriented.cityNeighbours):
            if cities:  # else the region's own empty set
                self.regions[node].cities = {nodes[c] for c in cities}
        self.tiles[(x, y)] = Placed(tile, orientation, nodes)
        for mine, node, closes in connections:
            root = self._union(nodes[mine], node)
            if closes:
                self.regions[root].open -= 2
        self.frontier.discard((x, y))
        for dx, dy in _STEPS:
            near = (x + dx, y + dy)
            if near not in self.tiles and 0 <= near[0] < BOARD_SIZE and 0 <= near[1] < BOARD_SIZE:
                self.frontier.add(near)
        if follower is not None:
            seat, zone = follower
            self.followers[where] = (seat, zone)
            if tile in _CLOISTER_TILES:
                self._monks.add(where)
            self.region(nodes[oriented.zoneFeature[zone]]).followers.append((seat, (x, y)))
        scores = []
        find = self.find
        for root in sorted({find(nodes[i]) for i in _SCORING[key]}):
            region = self.regions[root]
            if region.complete and region.followers:
                scores.append(self._pay(region, 2 if region.kind == CITY else 1))
        if self._monks:
            # A cloister scores only with its monk there: those around, in
            # the order of their places.
            for near in sorted(m for m in self._monks
                               if -1 <= m[0] - x <= 1 and -1 <= m[1] - y <= 1):
                if near in self.followers:
                    scores.extend(self._cloister(near))
        return scores

    def _pay(self, region: Region, perTile: int) -> Score:
        """Score a completed city or road and send its followers home."""
        points = perTile * (len(region.tiles) + region.shields)
        score = Score(region.kind, points, _winners(s for s, _ in region.followers),
                      len(region.tiles))
        for _, where in region.followers:
            del self.followers[where]
            self._monks.discard(where)
        region.followers = []
        return score

    def surrounding(self, where: tuple[int, int]) -> int:
        """How many tiles lie in the 3x3 square around ``where``, itself included."""
        x, y = where
        return sum((x + dx, y + dy) in self.tiles for dx in (-1, 0, 1) for dy in (-1, 0, 1))

    def _cloister(self, where: tuple[int, int]) -> list[Score]:
        """Score the cloister at ``where`` if a monk stands there and all 8 tiles around lie."""
        placed = self.tiles.get(where)
        if placed is None or where not in self.followers:
            return []
        for node in placed.nodes:
            region = self.regions.get(node)
            if region is None or region.kind != CLOISTER or not region.followers:
                continue
            around = self.surrounding(where)
            if around < 9:
                return []
            seat = region.followers[0][0]
            del self.followers[where]
            self._monks.discard(where)
            region.followers = []
            return [Score(CLOISTER, around, (seat,), around)]
        return []

    def finalScores(self) -> list[Score]:
        """
        The end of the game: incomplete roads (1 a tile), cities (1 a tile
        and 1 a shield), cloisters (1 and 1 a neighbour) and fields (after
        L{farms}: see L{farmScores}).  Followers stay where they are.
        """
        scores = []
        for root in sorted(self.regions):
            region = self.regions[root]
            if not region.followers:
                continue
            seats = _winners(s for s, _ in region.followers)
            if region.kind == ROAD:
                scores.append(Score(ROAD, len(region.tiles), seats, len(region.tiles), True))
            elif region.kind == CITY:
                scores.append(Score(CITY, len(region.tiles) + region.shields, seats,
                                    len(region.tiles), True))
            elif region.kind == CLOISTER:
                around = self.surrounding(region.followers[0][1])
                scores.append(Score(CLOISTER, around, seats, around, True))
        return scores + self.farmScores()

    def farmScores(self) -> list[Score]:
        """
        What the fields score at the end, after the farm rule L{farms}:

        - ``3rd`` (current): each field, 3 per completed city it touches, to
          the majority of its farmers;
        - ``2nd``: the same, but a city pays each player once, however many
          fields it wins next to it;
        - ``1st``: each completed city, 4 to the majority of the farmers of
          all the fields touching it (each field's farmers counted once);
        - ``none``: nothing (no farmers stand anywhere).
        """
        fields = {root: r for root, r in sorted(self.regions.items())
                  if r.kind == FIELD and r.followers}
        touching = {root: sorted(self.completedCityRoots(root)) for root in fields}
        if self.farms == "3rd":
            return [Score(FIELD, 3 * len(touching[root]),
                          _winners(s for s, _ in r.followers), len(r.tiles), True)
                    for root, r in fields.items()]
        if self.farms == "2nd":
            paid: dict[Seat, set[int]] = {}
            for root, r in fields.items():
                for seat in _winners(s for s, _ in r.followers):
                    paid.setdefault(seat, set()).update(touching[root])
            return [Score(FIELD, 3 * len(cities), (seat,), len(cities), True)
                    for seat, cities in sorted(paid.items())]
        if self.farms == "1st":
            farmers: dict[int, list[Seat]] = {}
            for root, r in fields.items():
                for city in touching[root]:
                    farmers.setdefault(city, []).extend(s for s, _ in r.followers)
            return [Score(FIELD, 4, _winners(seats), len(self.regions[city].tiles), True)
                    for city, seats in sorted(farmers.items())]
        return []

    def completedCityRoots(self, node: int) -> set[int]:
        """The completed cities (their roots) the field of ``node`` touches."""
        region = self.region(node)
        return {r for r in {self.find(c) for c in region.cities} if self.regions[r].complete}

    def completedCities(self, node: int) -> int:
        """How many completed cities the field of ``node`` touches."""
        return len(self.completedCityRoots(node))

    def nodeAt(self, x: int, y: int, zone: str) -> int:
        """The node of the feature holding ``zone`` on the tile at (x, y)."""
        placed = self.tiles[(x, y)]
        return placed.nodes[TILES[placed.tile].oriented(placed.orientation).zoneFeature[zone]]


# -- the game --------------------------------------------------------------------

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("players", "int", "number of players", 2, 2, 5),
    Parameter("farms", "string",
              "farm scoring: 3rd = each field scores 3 per adjacent completed city "
              "(current edition); 2nd = the same, but a city pays each player once; "
              "1st = each completed city scores 4 to the majority of the farmers of "
              "all the fields touching it; none = no farmers", "3rd",
              format="3rd|2nd|1st|none"),
    Parameter("pile", "string",
              "seeded = the engine draws each tile from its seed; named = each mover "
              "names any tile with a copy left (the relay protocol)", "seeded",
              format="seeded|named"),
    Parameter("referee", "string",
              "on = a move that breaks the rules is refused; off = every move of the "
              "player to move is kept, as a relay without a referee keeps it, and the "
              "rules follow and score the board up to the first move they refuse "
              "(needs pile = named)", "on", format="on|off"),
)

_COLOURS = ("#d62828", "#1d4ed8", "#f6c90e", "#111111", "#16a34a")
_PLACE, _FOLLOWER, _OVER = "place", "follower", "over"
PANEL = 220
_PANEL_LINE = 32
"""The most characters a line of the panel holds."""
BIG = 150
"""Side of the tile drawn in the side panel, where followers are chosen."""

_ZONE_SPOTS = {
    "NL": (0.25, 0.09), "N": (0.5, 0.09), "NR": (0.75, 0.09),
    "EL": (0.91, 0.25), "E": (0.91, 0.5), "ER": (0.91, 0.75),
    "SL": (0.75, 0.91), "S": (0.5, 0.91), "SR": (0.25, 0.91),
    "WL": (0.09, 0.75), "W": (0.09, 0.5), "WR": (0.09, 0.25),
    "C": (0.5, 0.5),
}
"""Where each zone is drawn on a tile, as fractions of its side."""


@attrs.frozen
class CarcassonneView:
    """What a seat knows: the (public) board, the tile to place, what is left."""

    seat: Seat
    turn: Seat | None
    board: Board
    tile: str | None
    """The tile drawn for the mover (seeded pile); None: the mover names one."""
    remaining: Mapping[str, int]
    followers: tuple[int, ...]
    scores: tuple[int, ...]
    placed: int


class CarcassonneGame:
    """
    A game of Carcassonne under the engine contract.  A move is
    ``{"tile": "tile-x", "x": 5, "y": 12, "orientation": "W", "zone": "SR"}``
    (``zone`` None: no follower; ``tile`` may be left out with a seeded
    pile); the page plays it in steps (``rotate``, ``place``, ``follower``,
    ``back``, and ``cycle`` through the tile types with a named pile).
    """

    def __init__(self, params: Mapping[str, JSON], seed: int, pile: list[str] | None) -> None:
        self.params: Mapping[str, JSON] = dict(params)
        self.players = int(params["players"])
        self.named = params["pile"] == "named"
        self.board = Board(str(params["farms"]))
        self.remaining = fullPile()
        self.order: list[str] = []
        if not self.named:
            if pile is None:
                pile = sorted(self.remaining.elements())
                random.Random(seed).shuffle(pile)
            self.order = list(pile)
            self.initvalues: Mapping[str, JSON] = {"seed": seed, "pile": list(pile)}
        else:
            self.initvalues = {"seed": seed}
        self.next = 0
        self.discarded: list[str] = []
        self.scores = [0] * self.players
        self.left = [FOLLOWERS] * self.players
        self.resigned: set[Seat] = set()
        self.turn: Seat = 0
        self.phase = _PLACE
        self.tile: str | None = None
        self.orientation = "N"
        self.pending: tuple[int, int] | None = None
        self.finals: list[Score] = []
        self.said: str | None = None
        """The last step accepted, in words (the game state's text while the game goes on)."""
        self.ending: str | None = None
        """Why the game ended, in words (once it has)."""
        self.pageTargets = True
        """
        Whether the CLICK asked carries its zones (the page outlines them).
        A host whose seats all play whole moves turns it off, and no move
        pays for them; clicks are decoded the same either way.
        """
        self._unzoned: dict[tuple[Seat, str], tuple[RequestedAction, ...]] = {}
        """What L{_requested} asks without zones, by mover and step."""
        self._draw()

    # -- the pile

    def _draw(self) -> list[Event]:
        """Find the next tile to place, or end the game: a tile no one can place is discarded."""
        events: list[Event] = []
        if self.named:
            # The first tile left that fits somewhere (the page's tile to
            # place): usually the first one tried.
            remaining, placeable = self.remaining, self.board.placeable
            self.tile = next((t for t in _TILE_NAMES if remaining[t] > 0 and placeable(t)),
                             None)
            if self.tile is None:
                return self._finish()
            return events
        while self.next < len(self.order):
            tile = self.order[self.next]
            if self.board.placeable(tile):
                self.tile = tile
                events.append(Event("draw", tile, self.turn))
                return events
            # "If a tile has no legal placement, it is removed from the game
            # and another is drawn" (the rules' placing a tile).
            self.next += 1
            self.remaining[tile] -= 1
            self.discarded.append(tile)
            events.append(Event("discard", tile))
        return events + self._finish()

    def _finish(self) -> list[Event]:
        if self.ending is None:
            self.ending = ("the pile is empty" if not any(self.remaining.values())
                           else "no tile left fits on the board")
        self.phase = _OVER
        self.tile = None
        self.pending = None
        self.finals = self.board.finalScores()
        for score in self.finals:
            for seat in score.seats:
                self.scores[seat] += score.points
        return [Event("score", s.asJSON()) for s in self.finals] + [
            Event("end", list(self.scores))]

    @property
    def over(self) -> bool:
        return self.phase == _OVER

    # -- instructions

    def _state(self) -> GameState:
        return GameState(tuple(self.scores), self.over,
                         text=self.ending if self.over else self.said)

    def _requested(self) -> tuple[RequestedAction, ...]:
        if self.over:
            return ()
        if self.pageTargets:
            return self._asked(self._targets())
        # Without zones, what is asked depends on the mover and the step
        # alone: made once for each.
        key = (self.turn, self.phase)
        asked = self._unzoned.get(key)
        if asked is None:
            asked = self._unzoned[key] = self._asked(None)
        return asked

    def _asked(self, targets: list[tuple[Zone, dict[str, JSON]]] | None,
               ) -> tuple[RequestedAction, ...]:
        """The CLICK and the KEY asked of the mover: the zones of ``targets`` (None: none)."""
        zones = None if targets is None else tuple(zone for zone, _ in targets)
        if self.phase == _PLACE:
            keys = "rl" + ("t" if self.named else "")
            click, key = _PLACE_PROMPTS[self.named][
                targets is not None and not any("place" in move for _, move in targets)]
        else:
            keys = "nb"
            click, key = _FOLLOWER_PROMPTS[
                None if targets is None else self._noFollowerWhy(targets)]
        return (RequestedAction(self.turn, "CLICK", zones=zones, buttons=("LEFT",),
                                prompt=click),
                RequestedAction(self.turn, "KEY", keys=keys, prompt=key))

    def _noFollowerWhy(self, targets: list[tuple[Zone, dict[str, JSON]]]) -> str | None:
        """Why no follower may go on the tile put down ("none left"...), None when one may."""
        if self.left[self.turn] <= 0:
            return "none left"
        if not any(move.get("follower") for _, move in targets):
            return "no room"
        return None

    def _step(self, events: Sequence[Event]) -> Instructions:
        return Instructions(self._requested(), self._state(), tuple(events))

    def instructions(self) -> Instructions:
        return attrs.evolve(self._step(()), initvalues=dict(self.initvalues))

    # -- moves

    def _wrong(self, seat: Seat, action: JSON, text: str) -> Errors:
        """WRONG_ACTION for ``action``, with the rules' reason ``text``."""
        requested = self._requested()
        asked = requested[0].asJSON() if requested else None
        return Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, seat, action, asked,
                                   text=text),))

    def _notNow(self, seat: Seat, action: JSON) -> Errors:
        """UNEXPECTED_ACTION: not the turn of ``seat``, the game over, or another step asked."""
        if self.over:
            text = "The game is over."
        elif seat != self.turn:
            text = "It is not your turn."
        elif self.phase == _PLACE:
            text = ("Not now: place the tile first." if not isinstance(action, dict)
                    or "cycle" not in action or self.named
                    else "The tile is drawn from the pile: it cannot be exchanged.")
        else:
            text = "Not now: choose a follower for the tile, none, or take the tile back."
        return Errors((UnexpectedAction(seat, action, text=text),))

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if self.over or seat != self.turn:
            return self._notNow(seat, action)
        if not isinstance(action, dict):
            return Errors((BadFormat(),))
        if "orientation" in action or "x" in action:
            return self._move(seat, action)
        if "rotate" in action and self.phase == _PLACE:
            turn = action["rotate"]
            if not _isInt(turn) or turn not in (1, -1):
                return Errors((BadFormat(),))
            self.orientation = _ORIENTATION_NAMES[(ORIENTATIONS[self.orientation] + turn) % 4]
            self.said = f"player {seat + 1} turned the tile"
            return self._step(())
        if "cycle" in action and self.phase == _PLACE and self.named:
            names = [t for t in sorted(self.remaining) if self.remaining[t] > 0]
            self.tile = names[(names.index(str(self.tile)) + 1) % len(names)]
            self.said = f"player {seat + 1} took another tile"
            return self._step(())
        if "place" in action and self.phase == _PLACE:
            where = action["place"]
            if (not isinstance(where, list) or len(where) != 2
                    or not all(_isInt(v) for v in where)):
                return Errors((BadFormat(),))
            if self.tile is None or not self.board.fits(self.tile, where[0], where[1],
                                                        self.orientation):
                return self._wrong(seat, action, self._whyNotPlace(
                    str(self.tile), where[0], where[1], self.orientation))
            self.pending = (where[0], where[1])
            self.phase = _FOLLOWER
            self.said = f"player {seat + 1} put the tile down"
            return self._step(())
        if "back" in action and self.phase == _FOLLOWER:
            self.pending = None
            self.phase = _PLACE
            self.said = f"player {seat + 1} took the tile back"
            return self._step(())
        if "follower" in action and self.phase == _FOLLOWER and self.pending is not None:
            return self._move(seat, {"tile": self.tile, "x": self.pending[0],
                                     "y": self.pending[1], "orientation": self.orientation,
                                     "zone": action["follower"]})
        return self._notNow(seat, action)

    def _move(self, seat: Seat, action: dict[str, JSON]) -> Instructions | Errors:
        """A whole move: the tile, where, how turned, and the follower's zone."""
        tile, x, y = action.get("tile", self.tile), action.get("x"), action.get("y")
        orientation, zone = action.get("orientation"), action.get("zone")
        if (not isinstance(tile, str) or not _isInt(x) or not _isInt(y)
                or not isinstance(orientation, str) or orientation not in ORIENTATIONS
                or not (zone is None or (isinstance(zone, str) and zone in ZONES))):
            return Errors((BadFormat(),))
        assert isinstance(x, int) and isinstance(y, int) and isinstance(orientation, str)
        if tile not in TILES:
            return self._wrong(seat, action, f"There is no tile named {tile}.")
        if self.remaining[tile] <= 0:
            return self._wrong(seat, action, f"None is left of that tile ({TILE_WORDS[tile]}).")
        if not self.named and tile != self.tile:
            return self._wrong(seat, action,
                               f"The tile to place is {TILE_WORDS[str(self.tile)]}.")
        if not self.board.fits(tile, x, y, orientation):
            return self._wrong(seat, action, self._whyNotPlace(tile, x, y, orientation))
        if zone is not None:
            assert isinstance(zone, str)
            if self.left[seat] <= 0 or not self.board.mayStand(tile, x, y, orientation, zone):
                return self._wrong(seat, action,
                                   self._whyNotFollower(seat, tile, x, y, orientation, zone))
        words = [f"player {seat + 1} placed a tile"]
        if zone is not None:
            oriented = TILES[tile].oriented(orientation)
            words[0] += f" and a follower {_WHERE[oriented.features[oriented.zoneFeature[zone]].kind]}"
        scores = self.board.place(tile, x, y, orientation,
                                  None if zone is None else (seat, zone))
        if zone is not None:
            self.left[seat] -= 1
        self.remaining[tile] -= 1
        if not self.named:
            self.next += 1
        move = {"tile": tile, "x": x, "y": y, "orientation": orientation, "zone": zone}
        events = [Event("move", move, seat)]
        for score in scores:
            for winner in score.seats:
                self.scores[winner] += score.points
            events.append(Event("score", score.asJSON()))
        if scores:  # followers come home only with a score
            self._returnFollowers()
        self.pending = None
        self.phase = _PLACE
        self.orientation = "N"
        self._advance()
        drawn = self._draw()
        events.extend(drawn)
        words.extend(_scoreWords(score) for score in scores if score.seats)
        words.extend(f"{TILE_WORDS[e.data]} fits nowhere: it is put aside" for e in drawn
                     if e.kind == "discard")
        self.said = "; ".join(words)
        return self._step(events)

    def _returnFollowers(self) -> None:
        """Every seat's supply: 7 less those standing on the board."""
        standing: dict[Seat, int] = {}
        for seat, _ in self.board.followers.values():
            standing[seat] = standing.get(seat, 0) + 1
        self.left = [FOLLOWERS - standing.get(s, 0) for s in range(self.players)]

    def _advance(self) -> None:
        for step in range(1, self.players + 1):
            seat = (self.turn + step) % self.players
            if seat not in self.resigned:
                self.turn = seat
                return

    def resign(self, seat: Seat) -> Instructions:
        if self.over or seat in self.resigned:
            return self._step(())
        self.resigned.add(seat)
        events = [Event("resign", None, seat)]
        self.said = f"player {seat + 1} gave up"
        if self.players - len(self.resigned) < 2:
            self.ending = self.said
            events.extend(self._finish())
        elif seat == self.turn:
            self.pending = None
            self.phase = _PLACE
            self.orientation = "N"
            self._advance()
        return self._step(events)

    # -- what seats see

    def view(self, seat: Seat) -> CarcassonneView:
        return CarcassonneView(
            seat=seat, turn=None if self.over else self.turn, board=self.board,
            tile=None if self.named else self.tile,
            remaining={t: n for t, n in sorted(self.remaining.items()) if n > 0},
            followers=tuple(self.left), scores=tuple(self.scores),
            placed=len(self.board.tiles))

    def _layout(self) -> tuple[int, int, int, int, int]:
        """(left column, top row, columns, rows, cell side) of the board picture."""
        xs = [x for x, _ in self.board.tiles] + [x for x, _ in self.board.frontier]
        ys = [y for _, y in self.board.tiles] + [y for _, y in self.board.frontier]
        left, top = min(xs), min(ys)
        columns, rows = max(xs) - left + 1, max(ys) - top + 1
        cell = max(12, min(64, 640 // max(columns, rows)))
        return left, top, columns, rows, cell

    def _panel(self) -> tuple[float, float]:
        left, top, columns, rows, cell = self._layout()
        return columns * cell + 16, 16

    def _targets(self) -> list[tuple[Zone, dict[str, JSON]]]:
        """Every clickable rectangle of the mover's picture and the move it makes."""
        left, top, _, _, cell = self._layout()
        px, py = self._panel()
        targets: list[tuple[Zone, dict[str, JSON]]] = []
        if self.phase == _PLACE and self.tile is not None:
            for x, y in sorted(self.board.frontier):
                if self.board.fits(self.tile, x, y, self.orientation):
                    targets.append((Zone((x - left) * cell, (y - top) * cell, cell, cell),
                                    {"place": [x, y]}))
            targets.append((Zone(px, py + BIG + 40, 70, 32), {"rotate": -1}))
            targets.append((Zone(px + 80, py + BIG + 40, 70, 32), {"rotate": 1}))
        elif self.phase == _FOLLOWER and self.pending is not None and self.tile is not None:
            x, y = self.pending
            if self.left[self.turn] > 0:
                for zone in self.board.followerZones(self.tile, x, y, self.orientation):
                    fx, fy = _ZONE_SPOTS[zone]
                    half = BIG * 0.07
                    targets.append((Zone(px + fx * BIG - half, py + 24 + fy * BIG - half,
                                         2 * half, 2 * half), {"follower": zone}))
            targets.append((Zone(px, py + BIG + 40, 110, 32), {"follower": None}))
            targets.append((Zone(px + 120, py + BIG + 40, 70, 32), {"back": True}))
        return targets

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        requested = tuple(r for r in self._requested() if r.player == seat)
        checked = checkAction(seat, action, requested)
        if isinstance(checked, Errors):
            return Errors(tuple(
                attrs.evolve(error, text=self._whyNotAction(seat, action, error))
                if isinstance(error, (WrongAction, UnexpectedAction)) else error
                for error in checked.errors))
        if checked.type == "KEY":
            key = str(action["key"]).lower()
            moves: dict[str, JSON] = {"r": {"rotate": 1}, "l": {"rotate": -1},
                                      "t": {"cycle": 1}, "n": {"follower": None},
                                      "b": {"back": True}}
            return moves[key]
        x, y = float(action["x"]), float(action["y"])  # type: ignore[arg-type]
        for zone, move in self._targets():
            if zone.contains(x, y):
                return move
        return Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, seat, dict(action),
                                   text=self._whyNotClick(x, y)),))

    # -- why an action is refused, in words

    def _whyNotPlace(self, tile: str, x: int, y: int, orientation: str) -> str:
        """Why ``tile`` may not lie at (x, y) turned to ``orientation``."""
        if (x, y) in self.board.tiles:
            return "A tile already lies there."
        if (x, y) not in self.board.frontier:
            return "The tile must touch a tile already placed, side to side."
        if any(self.board.fits(tile, x, y, other) for other in ORIENTATIONS):
            return ("Turned this way the tile does not fit there: each side must match "
                    "the side it touches (city to city, road to road, field to field).")
        return ("The tile does not fit there however it is turned: each side must match "
                "the side it touches (city to city, road to road, field to field).")

    def _whyNotFollower(self, seat: Seat, tile: str, x: int, y: int, orientation: str,
                        zone: str) -> str:
        """Why a follower of ``seat`` may not stand on ``zone`` of ``tile`` placed so."""
        if self.left[seat] <= 0:
            return "You have no follower left: place the tile without one."
        oriented = TILES[tile].oriented(orientation)
        if zone not in oriented.zoneFeature:
            return "There is nothing on the tile there for a follower to stand on."
        kind = oriented.features[oriented.zoneFeature[zone]].kind
        if kind == FIELD and self.board.farms == "none":
            return "This game is played without farmers: no follower may stand on a field."
        return f"That {kind} already has a follower: choose another place, or none."

    def _whyNotClick(self, x: float, y: float) -> str:
        """Why a click at (x, y) of the mover's display plays nothing."""
        if self.phase == _FOLLOWER:
            return "Click a white square on the tile for a follower, “no follower” or “back”."
        left, top, columns, rows, cell = self._layout()
        if self.tile is not None and 0 <= x < columns * cell and 0 <= y < rows * cell:
            return self._whyNotPlace(self.tile, left + int(x // cell), top + int(y // cell),
                                     self.orientation)
        return "Click a place outlined in green for the tile, or an arrow to turn it."

    def _whyNotAction(self, seat: Seat, action: Mapping[str, JSON],
                      error: WrongAction | UnexpectedAction) -> str:
        """The words for an error of the contract's checks (L{checkAction})."""
        if isinstance(error, UnexpectedAction):
            if self.over or seat != self.turn:
                return "The game is over." if self.over else "It is not your turn."
            return "Click on the board or press a key: nothing is typed in this game."
        if error.subtype == WrongActionSubtype.WRONG_BUTTON:
            return "Only the left mouse button plays."
        if error.subtype == WrongActionSubtype.KEY_NOT_ALLOWED:
            if self.phase == _PLACE:
                return ("That key does nothing now: R and L turn the tile"
                        + (", T shows another one." if self.named else "."))
            return "That key does nothing now: N plays no follower, B takes the tile back."
        return self._whyNotClick(float(action["x"]), float(action["y"]))  # type: ignore[arg-type]

    def display(self, seat: Seat | None) -> Display:
        """The board, the tile to place, the scores; the same for every seat but its caption."""
        left, top, columns, rows, cell = self._layout()
        width, height = columns * cell, rows * cell
        content: list[dict[str, JSON]] = [
            {"tag": "rect", "x": 0, "y": 0, "width": width, "height": height,
             "fill": "#e7e0c9"}]
        for (x, y), placed in sorted(self.board.tiles.items()):
            content.extend(_drawTile(placed.tile, placed.orientation, (x - left) * cell,
                                     (y - top) * cell, cell))
            if (x, y) in self.board.followers:
                owner, zone = self.board.followers[(x, y)]
                content.append(_follower(owner, zone, (x - left) * cell, (y - top) * cell,
                                         cell))
        if not self.over and self.tile is not None and self.phase == _PLACE:
            for x, y in sorted(self.board.frontier):
                if self.board.fits(self.tile, x, y, self.orientation):
                    content.append({"tag": "rect", "x": (x - left) * cell + 2,
                                    "y": (y - top) * cell + 2, "width": cell - 4,
                                    "height": cell - 4, "fill": "none", "stroke": "#16a34a",
                                    "stroke-width": 2})
        if self.pending is not None and self.tile is not None:
            x, y = self.pending
            content.extend(_drawTile(self.tile, self.orientation, (x - left) * cell,
                                     (y - top) * cell, cell))
            content.append({"tag": "rect", "x": (x - left) * cell, "y": (y - top) * cell,
                            "width": cell, "height": cell, "fill": "none",
                            "stroke": "#f97316", "stroke-width": 3})
        px, py = self._panel()
        if self.tile is not None and not self.over:
            *above, placing = _panelLines(f"P{self.turn + 1} places {TILE_WORDS[self.tile]}")
            content.extend(_text(px, py - 3, line) for line in above)  # in the margin above
            content.append(_text(px, py + 12, placing))
            content.extend(_drawTile(self.tile, self.orientation, px, py + 24, BIG))
            if self.phase == _FOLLOWER:
                for target, move in self._targets():
                    if "follower" in move and move["follower"] is not None:
                        content.append({"tag": "rect", "x": target.x, "y": target.y,
                                        "width": target.width, "height": target.height,
                                        "fill": "#ffffff", "stroke": "#000000",
                                        "opacity": 0.7})
                content.extend(_button(px, py + BIG + 40, 110, "no follower"))
                content.extend(_button(px + 120, py + BIG + 40, 70, "back"))
            else:
                content.extend(_button(px, py + BIG + 40, 70, "\u21ba"))
                content.extend(_button(px + 80, py + BIG + 40, 70, "\u21bb"))
        line = py + BIG + 100
        for s in range(self.players):
            mark = "*" if not self.over and s == self.turn else " "
            content.append(_text(px, line, f"{mark}P{s + 1}: {self.scores[s]} points, "
                                 f"{self.left[s]} followers", _COLOURS[s]))
            line += 20
        caption = ("game over" if self.over else
                   "spectator" if seat is None else
                   "your move" if seat == self.turn else f"P{self.turn + 1} to move")
        content.append(_text(px, line + 8, f"{caption}; {sum(self.remaining.values())} tiles left"))
        return Display(seat, width + PANEL + 16, max(height, line + 24), tuple(content))

    def stop(self) -> None:
        """Nothing to release: the game lives in this process."""


def _isInt(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- words for people

_PLACE_PROMPTS = {
    named: {
        False: ("click a place outlined in green for the tile",
                "press R or L (or click an arrow) to turn it" + more),
        True: ("click an arrow to turn the tile, which fits nowhere as it is",
               "press R or L" + more),
    } for named, more in ((False, ""), (True, ", T for another tile"))}
"""The CLICK's and the KEY's prompts while placing: by named pile, then by "fits nowhere now"."""
_FOLLOWER_PROMPTS = {
    None: ("click a white square on the tile for a follower",
           "press N (or click “no follower”) for none, B (or “back”) to move the tile"),
    "none left": ("you have no follower left: click “no follower”",
                  "press N, or B (or “back”) to move the tile"),
    "no room": ("no follower may stand on this tile: click “no follower”",
                "press N, or B (or “back”) to move the tile"),
}
"""The CLICK's and the KEY's prompts for the follower, by why none may go on the tile."""
_WHERE = {CITY: "in a city", ROAD: "on a road", FIELD: "on a field", CLOISTER: "in a cloister"}


def _scoreWords(score: Score) -> str:
    """``score`` in words: "player 1 scored 8 for a city", "player 1 and player 2 ... each"."""
    names = [f"player {seat + 1}" for seat in score.seats]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return (f"{who} scored {score.points}{' each' if len(names) > 1 else ''} "
            f"for a {score.kind}")


def _panelLines(text: str) -> tuple[str, ...]:
    """``text`` on the panel: one line, or two, cut before " with " or else at a space."""
    if len(text) <= _PANEL_LINE:
        return (text,)
    cut = text.find(" with ")
    if not 0 < cut <= _PANEL_LINE:
        cut = text.rfind(" ", 0, _PANEL_LINE + 1)
    return (text[:cut], text[cut + 1:])


def _text(x: float, y: float, text: str, fill: str = "#000000") -> dict[str, JSON]:
    return {"tag": "text", "x": x, "y": y, "fill": fill, "font-size": 13, "content": text}


def _button(x: float, y: float, width: float, label: str) -> list[dict[str, JSON]]:
    return [{"tag": "rect", "x": x, "y": y, "width": width, "height": 32, "rx": 4,
             "fill": "#f3f4f6", "stroke": "#374151"},
            _text(x + 8, y + 21, label)]


def _follower(seat: Seat, zone: str, x: float, y: float, cell: float) -> dict[str, JSON]:
    fx, fy = _ZONE_SPOTS[zone]
    return {"tag": "circle", "cx": x + fx * cell, "cy": y + fy * cell, "r": max(3, cell * 0.1),
            "fill": _COLOURS[seat % len(_COLOURS)], "stroke": "#ffffff"}


_CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))
"""A side's corners: side s runs from corner s to corner s + 1."""


def _drawTile(tile: str, orientation: str, x: float, y: float,
              size: float) -> list[dict[str, JSON]]:
    """SVG tags of a tile drawn from its features: fields, cities, roads, cloisters."""

    def at(fx: float, fy: float) -> str:
        return f"{x + fx * size:g},{y + fy * size:g}"

    oriented = TILES[tile].oriented(orientation)
    tags: list[dict[str, JSON]] = [
        {"tag": "rect", "x": x, "y": y, "width": size, "height": size, "fill": "#4d9a3a",
         "stroke": "#2f5d24", "stroke-width": 0.5}]
    for feature in oriented.features:
        if feature.kind != CITY:
            continue
        sides = feature.sides
        if len(sides) == 4:
            tags.append({"tag": "rect", "x": x, "y": y, "width": size, "height": size,
                         "fill": "#8b5a2b"})
        elif len(sides) == 1 and "C" not in feature.zones:
            (a, b), (c, d) = _CORNERS[sides[0]], _CORNERS[(sides[0] + 1) % 4]
            ia = (a + (0.5 - a) * 0.5, b + (0.5 - b) * 0.5)
            ib = (c + (0.5 - c) * 0.5, d + (0.5 - d) * 0.5)
            tags.append({"tag": "polygon", "fill": "#8b5a2b",
                         "points": " ".join((at(a, b), at(c, d), at(*ib), at(*ia)))})
        else:
            for side in sides:
                (a, b), (c, d) = _CORNERS[side], _CORNERS[(side + 1) % 4]
                tags.append({"tag": "polygon", "fill": "#8b5a2b",
                             "points": " ".join((at(a, b), at(c, d), at(0.5, 0.5)))})
            if "C" in feature.zones:
                tags.append({"tag": "rect", "x": x + 0.25 * size, "y": y + 0.25 * size,
                             "width": 0.5 * size, "height": 0.5 * size, "fill": "#8b5a2b"})
        if feature.shield:
            sx, sy = _ZONE_SPOTS["C" if "C" in feature.zones else EDGE_ZONES[3 * sides[0] + 1]]
            sx, sy = 0.5 + (sx - 0.5) * 0.6, 0.5 + (sy - 0.5) * 0.6
            tags.append({"tag": "circle", "cx": x + sx * size, "cy": y + sy * size,
                         "r": size * 0.08, "fill": "#1e40af", "stroke": "#facc15"})
    mids = ((0.5, 0), (1, 0.5), (0.5, 1), (0, 0.5))
    ends = 0
    for feature in oriented.features:
        if feature.kind != ROAD:
            continue
        sides = feature.sides
        if len(sides) == 2:
            points = " ".join((at(*mids[sides[0]]), at(0.5, 0.5), at(*mids[sides[1]])))
        else:
            ends += 1
            points = " ".join((at(*mids[sides[0]]), at(0.5, 0.5)))
        tags.append({"tag": "polyline", "points": points, "fill": "none",
                     "stroke": "#f8f8f2", "stroke-width": max(1, size * 0.08)})
    if ends >= 3:
        tags.append({"tag": "rect", "x": x + 0.42 * size, "y": y + 0.42 * size,
                     "width": 0.16 * size, "height": 0.16 * size, "fill": "#57534e"})
    if any(f.kind == CLOISTER for f in oriented.features):
        tags.append({"tag": "rect", "x": x + 0.32 * size, "y": y + 0.32 * size,
                     "width": 0.36 * size, "height": 0.36 * size, "fill": "#b91c1c",
                     "stroke": "#fef3c7"})
    return tags


# -- the bot ---------------------------------------------------------------------


def _value(board: Board, seat: Seat, tile: str, x: int, y: int, orientation: str,
           supply: int, late: bool) -> tuple[float, str | None]:
    """How good a placement is for ``seat``, and the best zone for a follower there."""
    merged = board.preview(tile, x, y, orientation)
    oriented = TILES[tile].oriented(orientation)
    value = 0.0
    seen: set[int] = set()
    for group in merged:
        if min(group.features) in seen or group.kind not in (CITY, ROAD):
            continue
        seen.add(min(group.features))
        if not group.followers:
            continue
        winners = _winners(group.followers)
        perTile = 2 if group.kind == CITY else 1
        points = perTile * (group.tiles + group.shields) if group.complete else group.tiles
        mine = 1.0 if seat in winners else -0.6 * len(winners)
        value += mine * (points if group.complete else 0.5 * perTile)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            where = (x + dx, y + dy)
            if where in board.followers and board.followers[where][1] == "C" \
                    and any(board.nodeKind[n] == CLOISTER for n in board.tiles[where].nodes):
                owner = board.followers[where][0]
                around = board.surrounding(where) + 1
                sign = 1.0 if owner == seat else -0.6
                value += sign * (9 if around == 9 else 1)
    best: tuple[float, str | None] = (0.0, None)
    if supply > 0:
        cost = (1.0 if late else 2.5) + (3.0 if supply <= 2 else 0.0)
        for zone in board.followerZones(tile, x, y, orientation):
            group = merged[oriented.zoneFeature[zone]]
            if group.kind == CITY:
                gain = 2.0 * (group.tiles + group.shields) if group.complete else \
                    (group.tiles + group.shields) * (1.6 if not late and group.open <= 2 else 1.0)
            elif group.kind == ROAD:
                gain = float(group.tiles) if group.complete else group.tiles * 0.8
            elif group.kind == CLOISTER:
                around = board.surrounding((x, y)) + 1
                gain = around + (0 if late else (9 - around) * 0.6)
            else:
                cities = {board.find(c) for r in group.roots for c in board.regions[r].cities}
                done = sum(1 for r in cities if board.regions[r].complete)
                gain = 3.0 * done + (1.5 * (len(cities) - done) if not late else 0.0)
                if supply <= 3 and not late:
                    gain -= 2
            if group.complete:
                cost = 0.0  # the follower comes straight back
            if gain - cost > best[0]:
                best = (gain - cost, zone)
    return value + best[0], best[1]


def carcassonneBot(view: CarcassonneView, seat: Seat) -> JSON:
    """
    The engine's bot: among the legal placements, one that completes or
    extends its own features (and not another's), with a follower where it
    is expected to score more than it costs.  None when its tile (or, with
    a named pile, every tile left) fits nowhere.
    """
    board = view.board
    tile = view.tile
    if tile is None:
        # A named pile: draw from this seat's view of what is left.
        names = [t for t in sorted(view.remaining)
                 if view.remaining[t] > 0 and board.placeable(t)]
        if not names:
            return None  # no tile left fits: the game is over
        weights = [view.remaining[t] for t in names]
        tile = random.Random(view.placed * 31 + seat).choices(names, weights)[0]
    late = sum(view.remaining.values()) < 12
    best: tuple[float, dict[str, JSON]] | None = None
    for x, y, orientation in board.placements(tile):
        score, zone = _value(board, seat, tile, x, y, orientation, view.followers[seat], late)
        if best is None or score > best[0]:
            best = (score, {"tile": tile, "x": x, "y": y, "orientation": orientation,
                            "zone": zone})
    return None if best is None else best[1]


# -- the factory ---------------------------------------------------------------------


class CarcassonneEngine:
    """The Carcassonne engine factory."""

    name = "carcassonne"
    parameters: Sequence[Parameter] = PARAMETERS
    hiddenInformation = True
    """The seeded pile's order (the seed and the pile in ``initvalues``); the board is public."""

    def publicAction(self, seat: Seat, action: JSON) -> bool:
        """Every move shows its tile on the public board."""
        return True

    def start(
        self,
        params: Mapping[str, JSON],
        initvalues: Mapping[str, JSON] | None = None,
        rng: random.Random | None = None,
    ) -> CarcassonneGame | Errors:
        started = checkSeeded(self.parameters, params, initvalues, rng)
        if isinstance(started, Errors):
            return started
        checked, seed = started
        pile: list[str] | None = None
        if initvalues is not None:
            given = initvalues.get("pile")
            if given is not None and checked["pile"] == "seeded":
                if (not isinstance(given, list) or not all(isinstance(t, str) for t in given)
                        or Counter(given) != fullPile()):
                    return Errors((IncorrectValue("pile", given),))
                pile = list(given)
        if checked["referee"] == "off":
            if checked["pile"] != "named":
                return Errors((IncorrectValue("pile", checked["pile"]),))
            from gameproto.games.carcassonne_relayed import RelayedGame

            return RelayedGame(checked, seed)
        return CarcassonneGame(checked, seed, pile)

    def bot(self, params: Mapping[str, JSON]) -> Bot:
        return carcassonneBot


CARCASSONNE = CarcassonneEngine()
ENGINE = CARCASSONNE
