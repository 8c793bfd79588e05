"""The process: how the bot starts (with a token, or the local console), its event loop, its
logs and the Discord endpoints it talks to."""
