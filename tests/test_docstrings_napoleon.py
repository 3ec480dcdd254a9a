"""Attribute docs the strict site build can read.

Napoleon (the reference's docstring reader) takes the first line of an attribute's or a
property's doc for ``type: description`` when it holds a colon followed by a space, and the
strict build then fails on a "type" that is a sentence. This finds such lines in the source,
for a ``#:`` doc comment's first line and a property's docstring's first line.
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
# a colon and a space outside ``literals`` and :role:`targets`
_TYPE_LIKE = re.compile(r"(?<!:)(?<!`):\s")


def _bad(line: str) -> bool:
    plain = re.sub(r"``.*?``|:\w+:`[^`]*`|`[^`]*`", "", line)
    return bool(_TYPE_LIKE.search(plain))


def _offenders(text: str, name: str) -> list[str]:
    found = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("#:") and not lines[i - 1].strip().startswith("#:") and _bad(stripped[2:]):
            found.append(f"{name}:{i + 1}: {stripped}")
        if stripped == "@property" and i + 2 < len(lines):
            doc = lines[i + 2].strip()
            if doc.startswith('"""') and _bad(doc.strip('"')):
                found.append(f"{name}:{i + 3}: {doc}")
    return found


def test_the_detector_finds_a_type_like_first_line():
    assert _offenders("#: Routing rules: the limit\nX = 1\n", "m") and not _offenders("#: The rules (M).\nX = 1\n", "m")
    prop = '    @property\n    def t(self):\n        """RDMA and NVLink: the slower."""\n'
    assert _offenders(prop, "m") and not _offenders(prop.replace(": the", ", the"), "m")
    assert not _offenders("#: Keys of :data:`KINDS` and ``a: b``.\nX = 1\n", "m")


def test_no_attribute_doc_reads_as_a_type():
    found = []
    for path in sorted((ROOT / "netlab").rglob("*.py")):
        found += _offenders(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "reword (no 'text: more' on the first line):\n" + "\n".join(found)
