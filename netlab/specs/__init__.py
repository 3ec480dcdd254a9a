"""The hardware registry: every published figure netlab uses, once, with its source.

A number a learner sees should be traceable to where it was published. So no
model or notebook writes a hardware literal; it asks the registry::

    >>> from netlab import specs
    >>> s = specs.get("nvlink.5.per_gpu_bidir")
    >>> s.value / 8e12                      # stored in bit/s; 1.8 TB/s both ways
    1.8
    >>> s.source, s.status
    ('nvidia-nvlink-page', 'shipping')

Each entry (a :class:`Spec`) holds the value in SI units (bit/s, bytes, seconds,
watts, FLOP/s, US dollars), the unit it was published in, a source key that is also
a key of ``book/references.bib``, the date of the source, a status saying how
much weight the figure bears, and the grade the project's fact sheet gives the
source (P primary, S secondary, D derived, U unconfirmed; ``-`` for netlab's own
assumptions, whose source key is ``netlab-assumptions``).

Statuses (:data:`STATUS_MEANINGS` says what each means; the registry appendix prints it).

The entries live in small data modules, one per domain (``link_rates``, ``gpus``,
...), so that a chapter adding figures touches only its own file.
"""

from __future__ import annotations

from dataclasses import dataclass
import importlib
import pkgutil

#: What each status means (the registry appendix prints it).
STATUS_MEANINGS = {
    "standard": "fixed by a published standard or specification (IEEE, IBTA, PCI-SIG, ITU-T, or an "
                "industry multi-source agreement's specification)",
    "shipping": "a datasheet or manual figure of a product that ships",
    "measured": "a published measurement",
    "simulated": "a published simulation result (a paper's model, not a measurement)",
    "announced": "announced by the vendor; not yet shipping when the source was written",
    "vendor claim": "a performance claim by a vendor, not independently checked",
    "estimate": "a third-party estimate (prices, analysts)",
    "derived": "arithmetic on other entries; the formula is in the note",
    "assumption": "a modelling assumption of netlab's, stated so a reader can change it",
    "unconfirmed": "no source found; shown only with this label, never as published",
}
#: The statuses a figure may have.
STATUSES = tuple(STATUS_MEANINGS)
#: The fact sheet's grades of a source (the module docstring says what each means).
GRADES = ("P", "S", "D", "U", "-")


@dataclass(frozen=True)
class Spec:
    """One figure: value in SI units plus where it comes from.

    Attributes
    ----------
    key : str
        Dotted name, e.g. ``"ib.ndr.port_rate"``. Domains come first.
    value : float
        The figure in SI units (bit/s, bytes, s, W, FLOP/s, USD).
    unit : str
        Unit of ``value`` (``"bit/s"``, ``"B"``, ``"s"``, ``"W"``, ``"FLOP/s"``, ``"USD"``, ``"1"``).
    description : str
        What the number is, in words, including one-way or bidirectional for rates.
    source : str
        Bibliography key in ``book/references.bib``.
    date : str
        Date of the source (``YYYY`` or ``YYYY-MM`` or ``YYYY-MM-DD``).
    status : str
        One of :data:`STATUSES`.
    grade : str
        Grade of the source in the fact sheet: one of :data:`GRADES`.
    published : str
        The figure as published, with its unit (``"1.8 TB/s"``), for tables.
    note : str
        Caveats, the derivation of a derived figure, conflicts between sources.
    """

    key: str
    value: float
    unit: str
    description: str
    source: str
    date: str
    status: str
    grade: str
    published: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"{self.key}: status must be one of {STATUSES}, got {self.status!r}")
        if self.grade not in GRADES:
            raise ValueError(f"{self.key}: grade must be one of {GRADES}, got {self.grade!r}")
        if self.grade == "U" and self.status != "unconfirmed":
            raise ValueError(f"{self.key}: a figure graded U must have status 'unconfirmed'")
        if (self.grade == "-") != (self.status == "assumption"):
            raise ValueError(f"{self.key}: grade '-' is for assumptions, and assumptions have grade '-'")
        if not self.source:
            raise ValueError(f"{self.key}: every figure needs a source key")

    def __repr__(self) -> str:
        shown = self.published or f"{self.value:g} {self.unit}"
        return f"Spec({self.key} = {shown} [{self.status}, {self.grade}; {self.source}, {self.date}])"


_REGISTRY: dict[str, Spec] = {}


def register(*entries: Spec) -> None:
    """Add entries to the registry; a key may be registered only once."""
    for entry in entries:
        if entry.key in _REGISTRY:
            raise ValueError(f"spec {entry.key!r} is registered twice")
        _REGISTRY[entry.key] = entry


def _load() -> None:
    """Import every data module in this package (each registers its entries)."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


class UnknownKey(KeyError, ValueError):
    """No spec under this key: a ``KeyError`` of the registry, and a ``ValueError`` of the argument."""


def get(key: str) -> Spec:
    """The :class:`Spec` stored under ``key``; an :class:`UnknownKey` error lists close keys."""
    if not isinstance(key, str):
        raise TypeError(f"key must be a str, got {type(key).__name__}")
    try:
        return _REGISTRY[key]
    except KeyError:
        stem = key.rsplit(".", 1)[0]
        near = sorted(k for k in _REGISTRY if k.startswith(stem))[:8]
        raise UnknownKey(f"key: no spec {key!r}; keys under {stem!r}: {near}") from None


def value(key: str) -> float:
    """Shorthand for ``get(key).value``."""
    return get(key).value


def find(prefix: str = "") -> list[Spec]:
    """All entries whose key starts with ``prefix``, sorted by key."""
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a str, got {type(prefix).__name__} {prefix!r}")
    return [_REGISTRY[k] for k in sorted(_REGISTRY) if k.startswith(prefix)]


def all_specs() -> list[Spec]:
    """Every entry, sorted by key."""
    return find("")


_load()


def table_markdown(prefix: str = "", cite: bool = True) -> str:
    """A Markdown table of the entries under ``prefix``, for the registry appendix.

    With ``cite=True`` each source is a MyST citation role, so the book links it
    to the bibliography (and the strict build fails if a key is missing).
    """
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a str, got {type(prefix).__name__} {prefix!r}")
    rows = ["| key | figure | what it is | status | grade | source | date |",
            "|---|---|---|---|---|---|---|"]
    for s in find(prefix):
        shown = s.published or f"{s.value:g} {s.unit}"
        source = f"{{cite:p}}`{s.source}`" if cite else s.source
        description = s.description.replace("|", "/")
        if s.note:
            description += f" *{s.note.replace('|', '/')}*"
        rows.append(f"| `{s.key}` | {shown} | {description} | {s.status} | {s.grade} | {source} | {s.date} |")
    return "\n".join(rows)


def registry_page(parts: dict[str, dict[str, str]], cite: bool = True) -> str:
    """The registry appendix as Markdown: an in-page contents, then one section per key prefix.

    ``parts`` maps a part's title to ``{key prefix: section name}`` (``{"Scale-up": {"nvlink":
    "NVLink"}}``); sections come in that order, each with an explicit target
    (``registry-<prefix>``) that the contents links to. Each table has three columns (the
    figure with its key; what it is, with its note; source, date, status and grade), narrow
    enough to read on a phone. A prefix with no entries is left out; prefixes of the registry
    that ``parts`` does not name are listed last, under "Other figures" (give them a name).
    """
    if not isinstance(parts, dict) or not all(isinstance(v, dict) for v in parts.values()):
        raise TypeError("parts must map a part's title to {key prefix: section name}")
    named = {prefix for names in parts.values() for prefix in names}
    unnamed = sorted({s.key.split(".")[0] for s in all_specs()} - named)
    if unnamed:
        parts = {**parts, "Other figures": {p: f"Figures under {p}." for p in unnamed}}
    contents, sections = [], []
    for part, names in parts.items():
        present = [(prefix, name, find(prefix + ".")) for prefix, name in names.items() if find(prefix + ".")]
        if not present:
            continue
        links = ", ".join(f"{{ref}}`{name} ({len(entries)}) <registry-{prefix}>`" for prefix, name, entries in present)
        contents.append(f"- **{part}**: {links}")
        sections.append(f"## {part}")
        for prefix, name, entries in present:
            rows = ["| figure | what it is | source |", "|---|---|---|"]
            for s in entries:
                shown = (s.published or f"{s.value:g} {s.unit}").replace("|", "/")
                what = s.description.replace("|", "/") + (f" *{s.note.replace('|', '/')}*" if s.note else "")
                source = f"{{cite:p}}`{s.source}`" if cite else s.source
                rows.append(f"| **{shown}** `{s.key}` | {what} | {source}, {s.date}; {s.status}, grade {s.grade} |")
            sections.append(f"(registry-{prefix})=\n### {name}\n\n" + "\n".join(rows))
    return "**In this appendix**\n\n" + "\n".join(contents) + "\n\n" + "\n\n".join(sections)
