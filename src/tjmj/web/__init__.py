"""The web table: a Starlette server for human and bot players, with matches stored in a database."""
