"""The pure domain of the bot, no I/O: settings, texts and names, seats, models and errors,
time controls and clock texts, tournament mathematics, rule texts, the analysis of a review."""
