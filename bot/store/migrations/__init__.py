"""Numbered SQL migrations (0001_initial.sql, ...), applied in order by bot.store.sqlite.

A package only so the .sql files ship with the project (package data).
"""
