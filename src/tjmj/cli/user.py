"""``tjmj user``: an operator's tools for the web table's accounts (docs/web.md, "Accounts")."""

from __future__ import annotations

import secrets

import click

__all__ = ["user"]


@click.group("user")
def user() -> None:
    """Manage the accounts of the web table's database."""


@user.command("reset")
@click.argument("name")
@click.option("--db", "db", envvar="TJMJ_DATABASE_URL", default=None, metavar="URL",
              help="The server's database [env TJMJ_DATABASE_URL; default: its SQLite file].")
def reset(name: str, db: str | None) -> None:
    """Give account NAME a new random password (printed once); every session of it ends."""
    from ..web.accounts import hash_password
    from ..web.store import Store
    from .serve import _one_line, _shown_url

    try:
        store = Store(db)
    except Exception as e:
        raise click.ClickException(f"cannot open the database {_shown_url(db)}: {_one_line(e)}") from None
    try:
        acct = store.account(name)
        if acct is None:
            raise click.ClickException(f"no account named {name!r}")
        password = secrets.token_urlsafe(12)
        store.set_password(acct["id"], hash_password(password))
    finally:
        store.close()
    click.echo(f"new password for {acct['name']}: {password}")
    click.echo("every session of the account has ended; tell the owner to change it after logging in")
