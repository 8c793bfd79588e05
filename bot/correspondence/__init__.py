"""Correspondence play, pure parts: time controls and clocks, reminder thresholds, and the one
scheduler task that sleeps until the next due time. Storage and Discord live elsewhere."""
