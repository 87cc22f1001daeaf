"""The third party's one line: its protocol plugin, where C{getPlugins} looks."""

from gameproto.test.thirdparty.echo import echo

__all__ = ["echo"]
