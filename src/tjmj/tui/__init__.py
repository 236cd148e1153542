"""The terminal table, ``tjmj play`` (docs/terminal.md): :mod:`.app` the Textual app, :mod:`.source`
the tables it draws (a match here against bots, or a seat at ``tjmj serve``), :mod:`.render` the text
of each part, :mod:`.glyphs` the tiles as Unicode glyphs or MPSZ text."""
