"""Page models: what the viewer makes of the archive's games for its pages, apart from the
Flask views that serve them (:mod:`webviewer.blueprints`). The games kept between requests
(:mod:`~webviewer.pages.kept_games`), the game page and its pieces (``game_page``, ``tree``,
``movelist``, ``chart``, ``board_view``), stored games' rows (``stored``), a search from
the query string (``search``), downloads (``downloads``) and the Validate page's report
(``validation``)."""
