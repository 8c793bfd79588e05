"""The discord.py application: commands, views, services, storage, i18n, the local console."""
