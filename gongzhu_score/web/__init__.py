"""The table's page (``gongzhu-score serve``): the match on every player's phone.

:mod:`.state` is what the page shows and does, as data, over the same library functions as the
command line; :mod:`.app` the HTTP door (Starlette, served by uvicorn: the ``[web]`` extra);
:mod:`.keys` the match's secret key; ``static/`` the page itself (plain files, no build step).
"""
