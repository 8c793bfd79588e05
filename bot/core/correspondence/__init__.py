"""Correspondence play, pure parts: time controls and clocks, reminder thresholds, digests and
the texts about them. The scheduler that runs what is due is ``bot.services.scheduler``."""
