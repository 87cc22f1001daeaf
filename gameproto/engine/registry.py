"""The engines a server offers: the built-in games and external programs."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Mapping

from twisted.internet.interfaces import IReactorProcess

from gameproto.engine.contract import JSON, EngineFactory, describe
from gameproto.engine.external import EngineManifest, ExternalEngine, ManifestError


class EngineRegistry:
    """Engines by name."""

    def __init__(self, engines: Mapping[str, EngineFactory] | None = None) -> None:
        self._engines: dict[str, EngineFactory] = dict(engines or {})

    def add(self, engine: EngineFactory) -> None:
        if engine.name in self._engines:
            raise ValueError(f"two engines are named {engine.name!r}")
        self._engines[engine.name] = engine

    def get(self, name: str) -> EngineFactory | None:
        return self._engines.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._engines

    def __iter__(self) -> Iterator[EngineFactory]:
        return iter(sorted(self._engines.values(), key=lambda e: e.name))

    def describe(self) -> list[dict[str, JSON]]:
        """Every engine with its init parameter description (the API's listing)."""
        listed = []
        for engine in self:
            entry: dict[str, JSON] = {"name": engine.name,
                                      "parameters": describe(engine.parameters),
                                      "external": isinstance(engine, ExternalEngine)}
            if isinstance(engine, ExternalEngine) and engine.manifest.sprites is not None:
                entry["sprites"] = f"/api/engines/{engine.name}/sprites.zip"
            listed.append(entry)
        return listed


def builtins() -> EngineRegistry:
    """The games gameproto has."""
    from gameproto.games.connect4 import ENGINE as CONNECT4
    from gameproto.games.tarot import TAROT

    return EngineRegistry({CONNECT4.name: CONNECT4, TAROT.name: TAROT})


def loadEngineDirectory(directory: Path) -> list[EngineManifest]:
    """Every engine manifest in ``directory`` (each subfolder holding a manifest.json)."""
    if not directory.is_dir():
        raise ManifestError(f"{directory}: not a directory")
    return [EngineManifest.load(sub) for sub in sorted(directory.iterdir())
            if (sub / "manifest.json").is_file()]


def externalEngine(spec: str, reactor: IReactorProcess, timeout: float) -> ExternalEngine:
    """
    ``NAME=PATH`` (a manifest.json or a folder holding one) or
    ``NAME=COMMAND`` (an engine whose only init parameter is ``players``).
    """
    name, equals, value = spec.partition("=")
    if not equals or not name.isidentifier() or not value.strip():
        raise ManifestError(f"expected NAME=COMMAND or NAME=MANIFEST, got {spec!r}")
    path = Path(value)
    if path.exists():
        manifest = EngineManifest.load(path)
        if manifest.name != name:
            manifest = EngineManifest(name, manifest.command, manifest.directory,
                                      manifest.parameters, manifest.description,
                                      manifest.sprites)
    else:
        manifest = EngineManifest.fromCommand(name, value)
    return ExternalEngine(manifest, reactor, timeout)
