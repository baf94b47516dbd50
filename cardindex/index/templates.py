"""The Jinja2 templates: the shipped defaults, or the vault's own overrides."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any


def shipped_dir() -> Path:
    """The default templates: inside the installed package, or the source tree's `templates/`."""
    package = Path(__file__).parent.parent
    packaged = package / "templates"
    if packaged.is_dir():
        return packaged
    return package.parent / "templates"


def locate(name: str, override: Path | None = None) -> Path:
    """The file a template name resolves to: the vault's override, else the shipped one."""
    if override is not None and (override / name).is_file():
        return override / name
    return shipped_dir() / name


@functools.lru_cache(maxsize=8)
def _environment(override: str | None) -> Any:
    import jinja2

    from cardindex.store.card import yaml_value

    folders = [override] if override else []
    folders.append(str(shipped_dir()))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["yaml"] = yaml_value
    return env


def render(name: str, override: Path | None = None, **context: Any) -> str:
    """Render template `name`; a file of that name in `override` wins over the shipped one."""
    import jinja2

    from cardindex.errors import ConfigError

    env = _environment(str(override) if override else None)
    try:
        text: str = env.get_template(name).render(**context)
        return text
    except jinja2.TemplateError as exc:
        where = getattr(exc, "filename", None) or name
        raise ConfigError(f"template error: {exc}", path=where, line=getattr(exc, "lineno", None)) from None
