"""The build's remembered bibliography plugin lookups (book/_ext/plugin_lookups.py)."""

import importlib.metadata
import importlib.util
import pathlib

import pytest

_PATH = pathlib.Path(__file__).resolve().parents[1] / "book" / "_ext" / "plugin_lookups.py"
_SPEC = importlib.util.spec_from_file_location("netlab_book_plugin_lookups", _PATH)
plugin_lookups = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(plugin_lookups)

#: The lookups a build of the book makes (author-year references, plain style, plain-text labels).
BUILD_LOOKUPS = [("pybtex.style.formatting", "plain"), ("pybtex.style.formatting", "unsrt"),
                 ("pybtex.backends", "plaintext"), ("pybtex.style.labels", "alpha"),
                 ("pybtex.style.names", "plain"), ("pybtex.style.sorting", "none"),
                 ("sphinxcontrib.bibtex.style.referencing", "author_year"),
                 ("pybtex.style.formatting", "no-such-style")]


def test_the_remembered_lookup_answers_as_importlib_does_and_scans_once():
    scans = []

    def counting(**selection):
        scans.append(selection)
        return importlib.metadata.entry_points(**selection)

    remembered = plugin_lookups.remembering(counting)
    for _ in range(3):
        for group, name in BUILD_LOOKUPS:
            got = remembered(group=group, name=name)
            assert got == tuple(importlib.metadata.entry_points(group=group, name=name))
        assert remembered(group="pybtex.backends") == tuple(importlib.metadata.entry_points(group="pybtex.backends"))
    assert len(scans) == len(BUILD_LOOKUPS) + 1          # one scan per (group, name), not per call
    assert remembered(group="pybtex.style.formatting", name="plain"), "pybtex's own plain style is installed"


def test_the_libraries_find_the_same_plugins_and_runtime_ones_first(monkeypatch):
    import pybtex.plugin
    import sphinxcontrib.bibtex.plugin as bibtex_plugin

    before = {(g, n): pybtex.plugin.find_plugin(g, n) for g, n in BUILD_LOOKUPS[:6]}
    author_year = bibtex_plugin.find_plugin("sphinxcontrib.bibtex.style.referencing", "author_year")
    monkeypatch.setattr(pybtex.plugin, "entry_points", pybtex.plugin.entry_points)
    monkeypatch.setattr(bibtex_plugin, "entry_points", bibtex_plugin.entry_points)
    assert plugin_lookups.install() == ["pybtex.plugin", "sphinxcontrib.bibtex.plugin"]
    assert plugin_lookups.install() == []                 # twice is once
    for (group, name), klass in before.items():
        assert pybtex.plugin.find_plugin(group, name) is klass
    assert bibtex_plugin.find_plugin("sphinxcontrib.bibtex.style.referencing", "author_year") is author_year
    with pytest.raises(pybtex.plugin.PluginNotFound):
        pybtex.plugin.find_plugin("pybtex.style.formatting", "no-such-style")
    # a plugin registered while the build runs is found before the remembered entry points
    runtime = type("NetlabStyle", (before[("pybtex.style.formatting", "plain")],), {})
    monkeypatch.setitem(pybtex.plugin._RUNTIME_PLUGINS, "pybtex.style.formatting", {"plain": runtime})
    assert pybtex.plugin.find_plugin("pybtex.style.formatting", "plain") is runtime
