"""Work in progress: owned by an open issue; this module exports nothing yet."""

__all__: list[str] = []
