"""Shared helpers for the render tests: decode images, compare colours."""

from __future__ import annotations

import io

from PIL import Image


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def close(a, b, tolerance: int = 24) -> bool:
    """Two RGB colours within ``tolerance`` per channel (edges are antialiased)."""
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b[:3], strict=True))


def pixel(image: Image.Image, xy: tuple[float, float]):
    return image.convert("RGB").getpixel((round(xy[0]), round(xy[1])))
