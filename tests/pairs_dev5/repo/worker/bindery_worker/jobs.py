"""Conversion jobs: manuscript in, EPUB and PDF out."""

from dataclasses import dataclass


@dataclass
class ConversionResult:
    manuscript_id: str
    epub_path: str | None
    pdf_path: str | None
    ok: bool


def convert_manuscript(manuscript_id: str) -> ConversionResult:
    source = fetch_source(manuscript_id)
    epub = build_epub(source)
    pdf = build_print_pdf(source)
    return ConversionResult(manuscript_id, epub, pdf, ok=epub is not None)


def fetch_source(manuscript_id: str) -> bytes:
    raise NotImplementedError


def build_epub(source: bytes) -> str | None:
    raise NotImplementedError


def build_print_pdf(source: bytes) -> str | None:
    raise NotImplementedError
