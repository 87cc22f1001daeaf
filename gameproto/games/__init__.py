"""Pure game rules: no Twisted, no I/O."""
