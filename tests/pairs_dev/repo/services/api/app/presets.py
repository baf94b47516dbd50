
"""Encoding presets offered through the API."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    name: str
    height: int
    video_kbps: int
    audio_kbps: int


PRESETS: dict[str, Preset] = {
    "web-480p": Preset("web-480p", 480, 1200, 96),
    "web-720p": Preset("web-720p", 720, 2800, 128),
    "web-1080p": Preset("web-1080p", 1080, 5000, 128),
    "web-2160p": Preset("web-2160p", 2160, 16000, 192),
}


def get_preset(name: str) -> Preset:
    """Return the preset called `name`; raises KeyError for unknown names."""
    return PRESETS[name]
