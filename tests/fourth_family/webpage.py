"""What the pages show of the test family (the ``webpage`` part, :mod:`tjmj.web.app`): its names and
its preset's; the table behaves as Tianjin's (a wild discard costs the win, R2); its settlement is
drawn by the default family's renderer (it has no ``static/win.js``)."""

from tjmj.families.tianjin.webpage import CAPS

STRINGS = {
    "family_yihun": ("一混天津麻将", "One-wild Tianjin"),
    "preset_yihun": ("一混：只有一种混儿，一圈", "yihun: one wild kind, one round"),
    "preset_name_yihun": ("一混", "yihun"),
}

__all__ = ["CAPS", "STRINGS"]
