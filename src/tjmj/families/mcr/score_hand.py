"""The MCR scorer's input (:mod:`.score`): the meld and situation types, their checks
(:class:`InvalidMcrHand`) and the hand as the scorer reads it (``_prepare`` → ``_Hand``: counts,
fixed melds, the win's flags, the traits' fans), memoised on each frozen meld and situation.
Every public name here is importable from :mod:`.score` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..._mypyc import mypyc_attr
from ...tiles import TILE_TEXT, Tile
from . import shapes as S
from .score_tables import (
    _KIND_BITS,
    _KIND_BITS_CHECKED,
    _NOT_A_KIND,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    OUT_WITH_REPLACEMENT_TILE,
    ROBBING_THE_KONG,
    SELF_DRAWN,
    _Fans,
    _traits,
)

MELD_TYPES = ("chi", "pon", "kong", "added_kong", "ankong")


class InvalidMcrHand(ValueError):
    """An impossible hand or win (wrong tile count, a fifth copy, a bad meld); the one-line
    message names what is wrong."""


@mypyc_attr(native_class=False)  # its instance __dict__ caches what is derived from it
@dataclass(frozen=True)
class McrMeld:
    """A fixed (declared) meld: ``chi`` (``tile`` its lowest tile, ``claimed`` the tile taken),
    ``pon``, ``kong`` (from a discard), ``added_kong`` (onto one's own pon), ``ankong``
    (concealed).  ``offer``: where the claimed tile came from, 1 the previous seat, 2 opposite,
    3 the next (PyMahjongGB's ``offer``); it does not change the fan."""

    type: str
    tile: Tile
    claimed: Tile | None = None
    offer: int = 0


@mypyc_attr(native_class=False)  # its instance __dict__ caches what is derived from it
@dataclass(frozen=True)
class McrSituation:
    """How the hand won.  ``fourth_tile``: 和绝张 (the other three of the kind are face up);
    ``about_kong``: 杠上开花 when self-drawn, 抢杠和 otherwise; ``wall_last``: 妙手回春 when
    self-drawn, 海底捞月 otherwise; winds 0..3 = E S W N; ``flowers`` 0..8."""

    self_drawn: bool = False
    fourth_tile: bool = False
    about_kong: bool = False
    wall_last: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    flowers: int = 0


# --- input --------------------------------------------------------------------------------------


def _kind(t: object, what: str) -> int:
    if t.__class__ is Tile:
        return t  # type: ignore[return-value]
    if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < 34:
        raise InvalidMcrHand(f"{what} must be a tile kind 0..33, got {t!r}")
    return t


# a fixed meld as scored: (pack code, is a kong, concealed (an ankong))
_Fixed = tuple[int, bool, bool]
# what a fixed meld adds to a hand (_read_meld, kept on an McrMeld as ``_mcr``): its _Fixed, its
# lowest kind and how many of each of its kinds (a chow: 1 of three), its CPP code (a chow's lowest
# kind), kind (0 a chow, 1 a pon, 2 a melded kong, 3 a concealed kong), trait bits (_KIND_BITS) and
# packed group traits (shapes.pack_traits)
_MeldInfo = tuple[_Fixed, int, int, int, int, int, int]


def _read_meld(m: McrMeld) -> _MeldInfo:
    """Checks the meld (raises :class:`InvalidMcrHand`) and keeps what _prepare reads of it on the
    object (a frozen McrMeld's fields never change), for the next hand."""
    typ, tile, claimed, offer = m.type, m.tile, m.claimed, m.offer
    if (typ.__class__ is str and tile.__class__ is Tile and offer.__class__ is int
            and (claimed is None or claimed.__class__ is Tile)):
        # and the same for every meld of these fields (valid ones only: a few thousand at most)
        key = (typ, tile, claimed, offer)
        info = _MELDS.get(key)
        if info is None:
            info = _MELDS[key] = _meld_info(m)
    else:
        info = _meld_info(m)
    if m.__class__ is McrMeld:
        m.__dict__["_mcr"] = info
    return info


_MELDS: dict[tuple[str, Tile, Tile | None, int], _MeldInfo] = {}


def _meld_info(m: McrMeld) -> _MeldInfo:
    k = _kind(m.tile, "a meld's tile")
    typ = m.type
    offer = m.offer
    if not isinstance(offer, int) or isinstance(offer, bool) or not 0 <= offer <= 3:
        raise InvalidMcrHand(f"a meld's offer must be 0..3, got {offer!r}")
    kb = _KIND_BITS
    if typ == "chi":
        if k >= 27 or k % 9 > 6:
            raise InvalidMcrHand(f"a chi is named by its lowest tile, 1..7 of a suit; got {TILE_TEXT[k]}")
        if m.claimed is not None:
            c = _kind(m.claimed, "a chi's claimed tile")
            if not k <= c <= k + 2:
                raise InvalidMcrHand(f"a chi from {TILE_TEXT[k]} cannot have claimed {TILE_TEXT[c]}")
        ck = S.CPP[k]
        return (34 + k, False, False), k, 1, ck, 0, kb[k] | kb[k + 1] | kb[k + 2], S.CHOW_TRAITS[ck]
    if typ == "pon" or typ == "kong" or typ == "added_kong" or typ == "ankong":
        if m.claimed is not None and _kind(m.claimed, "a meld's claimed tile") != k:
            raise InvalidMcrHand(f"a {typ} of {TILE_TEXT[k]} cannot have claimed {TILE_TEXT[m.claimed]}")
        ck = S.CPP[k]
        if typ == "pon":
            return (k, False, False), k, 3, ck, 1, kb[k], S.PUNG_TRAITS[ck]
        concealed = typ == "ankong"
        return (k, True, concealed), k, 4, ck, 3 if concealed else 2, kb[k], S.PUNG_TRAITS[ck]
    raise InvalidMcrHand(f"unknown meld type {typ!r} (one of {', '.join(MELD_TYPES)})")


# a situation as _prepare reads it (_situation_info, kept on an McrSituation as ``_mcr``):
# self-drawn, seat wind, prevalent wind, and the flags' fans when no flag needs the hand to be
# judged (no 和绝张, 杠上开花/抢杠和, 妙手回春/海底捞月), else None
_SituationInfo = tuple[bool, int, int, dict[int, int] | None]


_SELF_DRAWN_ONLY = {SELF_DRAWN: 1}  # never changed: _prepare copies them
_NO_FLAGS: dict[int, int] = {}


def _situation_info(s: McrSituation) -> _SituationInfo:
    """Checks the situation (raises :class:`InvalidMcrHand`) and keeps what _prepare reads of it
    on the object (a frozen McrSituation's fields never change), for the next hand."""
    try:
        sw = s.seat_wind
        pw = s.prevalent_wind
        fl = s.flowers
        ok = (sw.__class__ is int and pw.__class__ is int and fl.__class__ is int
              and 0 <= sw <= 3 and 0 <= pw <= 3 and 0 <= fl <= 8)
    except AttributeError:
        ok = False
    if not ok:
        _check_situation(s)
    plain = None
    if not (s.fourth_tile or s.about_kong or s.wall_last):
        plain = _SELF_DRAWN_ONLY if s.self_drawn else _NO_FLAGS
    info: _SituationInfo = (s.self_drawn, s.seat_wind, s.prevalent_wind, plain)
    if s.__class__ is McrSituation:
        s.__dict__["_mcr"] = info
    return info


def _check_situation(s: McrSituation) -> None:
    if not isinstance(s, McrSituation):
        raise InvalidMcrHand(f"situation must be an McrSituation, got {s!r}")
    for name in ("seat_wind", "prevalent_wind"):
        w = getattr(s, name)
        if not isinstance(w, int) or isinstance(w, bool) or not 0 <= w <= 3:
            raise InvalidMcrHand(f"{name} must be 0..3 (E S W N), got {w!r}")
    if not isinstance(s.flowers, int) or isinstance(s.flowers, bool) or not 0 <= s.flowers <= 8:
        raise InvalidMcrHand(f"flowers must be 0..8, got {s.flowers!r}")


_NO_FIXED: list[_Fixed] = []  # the fixed melds of a hand without any (never changed)
_AT_MOST_4 = bytes(range(5))


class _Hand:
    """What every arrangement of one hand shares.  Kinds are ours, except the ``c``-prefixed
    fields and the scoring of arrangements, which use PyMahjongGB's order (:data:`shapes.CPP`)."""

    __slots__ = ("standing", "full", "every", "win", "cwin", "fixed", "cfixed_chows", "cfixed_pungs",
                 "melded_kongs", "concealed_kongs", "fixed_traits", "kongs", "claimed_melds", "self_drawn",
                 "flag_fans", "base", "seat", "prevalent", "traits", "hog", "unique_wait", "fb")

    standing: bytearray  # the concealed tiles before the win, per kind
    full: bytearray  # and the winning tile
    fb: bytes  # full as bytes
    every: bytearray  # and the fixed melds' tiles (a kong's four)
    win: int
    cwin: int  # the winning tile in CPP order
    fixed: list[_Fixed]
    cfixed_chows: tuple[int, ...]  # the fixed chows' lowest tiles, CPP order
    cfixed_pungs: tuple[int, ...]  # the fixed pungs and kongs, CPP order
    melded_kongs: int
    concealed_kongs: int
    fixed_traits: int  # the fixed melds' traits, packed (shapes.pack_traits)
    kongs: int
    claimed_melds: int  # fixed melds other than concealed kongs
    self_drawn: bool
    flag_fans: dict[int, int]  # 和绝张 妙手回春 海底捞月 杠上开花 抢杠和 自摸, corrected
    base: dict[int, int] | None  # fans every four-melds arrangement has (_standard_base)
    seat: int
    prevalent: int
    traits: _Fans  # the suit, tile-trait and number-range fans
    hog: int  # 四归一
    unique_wait: bool | None


def _prepare(concealed: Sequence[Tile], win_tile: object, melds: Sequence[McrMeld],
             situation: object) -> _Hand:
    # win_tile and situation are checked here, declared object: compiled (mypyc), a declared Tile or
    # McrSituation would be a TypeError before any check
    if melds.__class__ is not tuple and melds.__class__ is not list:
        melds = tuple(melds)
    n_melds = len(melds)
    if n_melds > 4:
        raise InvalidMcrHand(f"at most 4 melds, got {n_melds}")
    try:
        n = len(concealed)
    except TypeError:
        raise InvalidMcrHand(f"concealed must be a sequence of tiles, got {concealed!r}") from None
    if n != 13 - 3 * n_melds:
        raise InvalidMcrHand(f"with {n_melds} meld(s) the hand holds {13 - 3 * n_melds} concealed tiles "
                             f"before the winning tile, got {n}")
    win = win_tile if type(win_tile) is Tile else _kind(win_tile, "the winning tile")
    standing = bytearray(34)
    kb = _KIND_BITS_CHECKED
    mask = kb[win]
    try:
        for t in concealed:
            standing[t] += 1
            mask |= kb[t]
        if mask >= _NOT_A_KIND:  # a negative tile counted at the end of ``standing``
            raise IndexError
    except (IndexError, TypeError):  # (compiled: a plain int is a TypeError, no Tile)
        items: Sequence[object] = concealed  # each checked as an object: compiled, a Tile loop would raise TypeError
        for x in items:
            _kind(x, "a concealed tile")
        raise
    full = standing.copy()
    full[win] += 1
    fb = bytes(full)
    h = _Hand()
    if n_melds:
        every = full.copy()
        fixed = []
        cchows = []
        cpungs = []
        kongs = claimed_melds = melded_kongs = concealed_kongs = fixed_traits = 0
        for m in melds:
            if m.__class__ is not McrMeld and not isinstance(m, McrMeld):
                raise InvalidMcrHand(f"a meld must be an McrMeld, got {m!r}")
            got = m.__dict__.get("_mcr") if m.__class__ is McrMeld else None
            f, k, copies, ck, what, bits, traits = got if got is not None else _read_meld(m)
            fixed.append(f)
            if copies == 1:  # a chi
                every[k] += 1
                every[k + 1] += 1
                every[k + 2] += 1
                cchows.append(ck)
                claimed_melds += 1
            else:
                every[k] += copies
                cpungs.append(ck)
                if what == 3:
                    concealed_kongs += 1
                else:
                    claimed_melds += 1
                    if what == 2:
                        melded_kongs += 1
            mask |= bits
            fixed_traits += traits
        kongs = melded_kongs + concealed_kongs
        h.cfixed_chows = tuple(cchows)
        h.cfixed_pungs = tuple(cpungs)
        h.fixed_traits = fixed_traits
        h.melded_kongs = melded_kongs
        h.concealed_kongs = concealed_kongs
        eb = bytes(every)
    else:
        every = full
        eb = fb
        fixed, kongs, claimed_melds = _NO_FIXED, 0, 0
        h.cfixed_chows = h.cfixed_pungs = ()
        h.melded_kongs = h.concealed_kongs = 0
    if eb.translate(None, _AT_MOST_4):  # a count other than 0..4
        k = next(k for k in range(34) if every[k] > 4)
        raise InvalidMcrHand(f"{every[k]} copies of {TILE_TEXT[k]} (at most 4)")
    if not isinstance(situation, McrSituation):
        raise InvalidMcrHand(f"situation must be an McrSituation, got {situation!r}")
    info = situation.__dict__.get("_mcr") if situation.__class__ is McrSituation else None
    if info is None:
        info = _situation_info(situation)
    self_drawn, seat, prevalent, plain = info
    h.standing = standing
    h.full = full
    h.fb = fb
    h.every = every
    h.win = win
    h.cwin = S.CPP[win]
    h.fixed = fixed
    h.kongs = kongs
    h.claimed_melds = claimed_melds
    h.self_drawn = self_drawn
    h.seat = seat
    h.prevalent = prevalent
    h.unique_wait = None
    # the table's flags, corrected as PyMahjongGB corrects what cannot be so
    flags: dict[int, int]
    if plain is not None:
        flags = plain.copy()
        if n_melds and every[win] - full[win] == 3:
            flags[LAST_TILE] = 1  # three face up in the melds: the winning tile is the last one
    else:
        flags = {}
        in_fixed = every[win] - full[win]
        fourth = situation.fourth_tile and full[win] == 1  # 和绝张: not when holding one already
        if in_fixed == 3:
            fourth = True  # three face up in the melds: the winning tile is the last one
        about = situation.about_kong
        if about and ((self_drawn and not kongs) or (not self_drawn and (in_fixed or full[win] != 1))):
            about = False  # 杠上开花 needs a kong; 抢杠和 a tile nobody else holds
        if fourth:
            flags[LAST_TILE] = 1
        if situation.wall_last:
            flags[LAST_TILE_DRAW if self_drawn else LAST_TILE_CLAIM] = 1
        if about:
            flags[OUT_WITH_REPLACEMENT_TILE if self_drawn else ROBBING_THE_KONG] = 1
        if self_drawn:
            flags[SELF_DRAWN] = 1
    h.flag_fans = flags
    h.traits = _traits(mask)
    h.hog = eb.count(4) - kongs
    h.base = None
    return h
