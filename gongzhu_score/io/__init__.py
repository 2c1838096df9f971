"""Input at the edge: YAML and hand-file data read strictly, with errors that say where."""
