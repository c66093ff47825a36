"""Dashboard helpers shared by the pages: session state, setting widgets, charts, formatting."""
