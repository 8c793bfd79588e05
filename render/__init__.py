"""Board images with Pillow (DESIGN.md §4). Imports engines only."""
