"""League play across tables and venues, on a PostgreSQL server.

The table plays fully offline: finished matches wait in the local store's outbox
(``rummy.store``) and :mod:`league.sync` sends them in the background. The server side is
numbered SQL migrations (:mod:`league.schema`), operator commands (:mod:`league.admin`)
and ratings (:mod:`league.ratings`). ``psycopg`` (3) and ``openskill`` come with the
optional extra ``league``; nothing here is imported by ``rummy/``. See ``docs/league.md``.
"""
