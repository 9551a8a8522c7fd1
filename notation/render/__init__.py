"""Drawing positions: an SVG board (:mod:`notation.render.svg`) and a text diagram
(:mod:`notation.render.diagram`)."""
