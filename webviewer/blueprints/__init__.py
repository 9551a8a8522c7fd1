"""The Flask views, one blueprint per module: ``games`` (the archive list, a game's page,
its downloads), ``explore`` (position and player pages), ``record`` (the scorer's tool),
``check`` (the Validate page) and ``api`` (the JSON API). A blueprint imports no other:
what two of them share lives in :mod:`webviewer.pages` or :mod:`webviewer.plumbing`."""
