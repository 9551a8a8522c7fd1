"""The parts of ``samples/build_samples.py``: shared helpers (:mod:`builder.common`), the
worked openings, the annotator of complete games, the games and the error file."""
