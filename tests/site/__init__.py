"""Checks of the built static site: static HTML checks (marker ``site``) and headless-Chromium checks (``browser``)."""
