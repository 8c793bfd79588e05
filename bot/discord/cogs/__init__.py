"""One extension per feature; each module has ``async def setup(bot)``."""
