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
    """The games gameproto has (L{gameproto.games.engines})."""
    from gameproto.games import engines

    return EngineRegistry({engine.name: engine for engine in engines()})


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
    return ExternalEngine(EngineManifest.fromSpec(spec), reactor, timeout)
