"""Input at the edge: YAML and hand files, read strictly. Errors say where."""
