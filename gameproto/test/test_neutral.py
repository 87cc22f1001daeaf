"""
The shared modules name no protocol: the core (C{tap}, C{plugin}, the
connection scaffolding), the engine layer with its hub, the engine JSON
protocol, the web port and its page know the protocols only through their
plugins and the hub's matchmakers.

The names looked for are those of the protocols installed (gameproto's own
and a third party's): each plugin's name, each engine a plugin brings, each
matchmaker's title.  Only code is read, not its documentation: Python's
identifiers and string literals but not docstrings (nor the descriptions of
an interface's attributes), the page's markup, script and style but not
their comments.  The engine JSON protocol is the core's own language (the
page speaks it, and its name is the word "engine"): it is not looked for.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

import gameproto
from gameproto import tap
from gameproto.enginejson.plugin import engine as engineJson
from gameproto.plugin import pluginEngines, protocolPlugins
from gameproto.test.service_helpers import LOCAL, onlyPorts
from gameproto.test.test_tap import installThirdParty

PACKAGE = Path(gameproto.__file__).parent

SHARED = ("tap.py", "plugin.py", "net.py", "buffer.py", "jsonutil.py", "machines.py",
          "metrics.py", "_compat.py", "diagrams.py", "engine/*.py", "enginejson/*.py",
          "web/*.py", "web/static/*")
"""The shared modules and the page, as globs under the package."""


def _documentation(tree: ast.AST) -> set[int]:
    """
    The string constants of ``tree`` that document rather than act:
    docstrings (a string alone as a statement, attribute docstrings too) and
    the descriptions given to C{zope.interface.Attribute}.
    """
    ids: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for statement in body if isinstance(body, list) else ():
            if (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)):
                ids.add(id(statement.value))
        if isinstance(node, ast.Call):
            function = node.func
            name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
            if name == "Attribute":
                ids.update(id(argument) for argument in node.args)
    return ids


def pythonCode(text: str) -> list[str]:
    """Every identifier and string literal of a Python module, its documentation left out."""
    tree = ast.parse(text)
    documentation = _documentation(tree)
    code: list[str] = []
    for node in ast.walk(tree):
        match node:
            case ast.Constant(value=str(value)) if id(node) not in documentation:
                code.append(value)
            case ast.Name(id=name) | ast.Attribute(attr=name) | ast.arg(arg=name):
                code.append(name)
            case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name) \
                    | ast.ClassDef(name=name):
                code.append(name)
            case ast.alias(name=name, asname=asname):
                code.extend([name, asname or ""])
            case ast.ImportFrom(module=module):
                code.append(module or "")
            case ast.keyword(arg=arg):
                code.append(arg or "")
    return code


def pageCode(path: Path, text: str) -> list[str]:
    """A file of the page without its comments (HTML's, and CSS's and script's)."""
    if path.suffix == ".html":
        return [re.sub(r"<!--.*?-->", " ", text, flags=re.S)]
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return [re.sub(r"(^|\s)//[^\n]*", r"\1", text)]


def code(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return pythonCode(text) if path.suffix == ".py" else pageCode(path, text)


def sharedFiles() -> list[Path]:
    return sorted({path for pattern in SHARED for path in PACKAGE.glob(pattern)
                   if path.is_file() and path.suffix in (".py", ".html", ".js", ".css")})


def named(words: set[str], texts: list[str]) -> list[tuple[str, str]]:
    """Each word of ``words`` found in ``texts`` (any case), with the text around it."""
    found = []
    for word in sorted(words):
        pattern = re.compile(re.escape(word), re.IGNORECASE)
        for text in texts:
            for match in pattern.finditer(text):
                found.append((word, text[max(0, match.start() - 30):match.end() + 30]))
    return found


class NeutralTests(SynchronousTestCase):
    """No shared module, nor the page, names a protocol or its games."""

    def setUp(self) -> None:
        installThirdParty(self)

    def protocolWords(self) -> set[str]:
        """What names a protocol: its plugin's name, its engines' names, its matchmakers' titles."""
        plugins = [plugin for plugin in protocolPlugins() if plugin is not engineJson]
        options = tap.Options()
        options.parseOptions(onlyPorts(web=LOCAL))
        hub = tap.makeService(options, Clock()).hub
        words = {plugin.name for plugin in plugins}
        words |= {engine.name for engine in pluginEngines(plugins)}
        words |= {matchmaker.title for matchmaker in hub.matchmakers.values()}
        return words

    def test_words(self) -> None:
        """The words looked for: every installed protocol's, the third party's too."""
        words = self.protocolWords()
        self.assertTrue({"connect4", "maitretarot", "carcassonne", "freedoko", "tarot",
                         "doppelkopf", "Protuissance 4", "MaîtreTarot", "echo", "tally"} <= words,
                        words)
        self.assertNotIn("engine", words)

    def test_sharedModulesNameNoProtocol(self) -> None:
        words = self.protocolWords()
        files = sharedFiles()
        self.assertIn(PACKAGE / "web" / "static" / "index.html", files)
        self.assertIn(PACKAGE / "engine" / "hub.py", files)
        found = {str(path.relative_to(PACKAGE)): named(words, code(path)) for path in files}
        self.assertEqual({path: hits for path, hits in found.items() if hits}, {})

    def test_scanFinds(self) -> None:
        """The scan sees a name in code, and not in documentation or comments."""
        module = ('"""About connect4."""\nfrom x import y\n'
                  'class A:\n    """tarot here."""\n    kind = "tarot"\n    """connect4 doc."""\n'
                  '# connect4 in a comment\nI = Attribute("connect4, tarot")\n')
        self.assertEqual([word for word, _ in named({"tarot", "connect4"}, pythonCode(module))],
                         ["tarot"])
        page = '<!-- connect4 --><p title="Tarot">x</p>'
        self.assertEqual([word for word, _ in named({"tarot", "connect4"},
                                                    pageCode(Path("p.html"), page))], ["tarot"])
        script = ('// connect4\nconst a = `${s}//tarot`; /* connect4\n */ let b = "x";'
                  ' // connect4')
        self.assertEqual([word for word, _ in named({"tarot", "connect4"},
                                                    pageCode(Path("a.js"), script))], ["tarot"])
