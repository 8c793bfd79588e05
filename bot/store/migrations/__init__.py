"""Numbered SQL migrations (0001_initial.sql, ...), applied in order by ``bot.store.migrate``
on both backends.

Write them in SQL that SQLite and PostgreSQL both read: the types INTEGER, REAL and TEXT (on
PostgreSQL they become BIGINT, DOUBLE PRECISION and TEXT), ``id INTEGER PRIMARY KEY`` for a key
the database numbers itself, times as ISO-8601 UTC text, JSON as text, ``ON CONFLICT``.

A package only so the .sql files ship with the project (package data).
"""
