"""The customer's mails as the business writes them: each has a plain-text part and an HTML part,
both rendered from the templates in `storefront/templates/mail/` with the same data.

`render("booking_status", booking.language, subject=..., business=..., **context)` renders
`booking_status.txt` and `booking_status.html` in that language and returns both. The HTML one
extends `base.html`: the business's name and the site's colours, one column of at most 600 px,
large type, inline styles only, and nothing fetched from elsewhere (no images, fonts, stylesheets
or tracking). Autoescaping is on for `.html` templates, so whatever a customer typed shows as
text; the `.txt` ones are written as they are.

The words come in already translated (`_o()` in the Python that calls `render`, or below for the
layout's own), so the `.po` catalogs stay the one place of every word and `make translations`
finds them; a template holds no text of its own, only how the text is laid out.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

from storefront import i18n
from storefront.i18n import _o
from storefront.models import BusinessSettings
from storefront.services import content

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "mail"

# The site's colours (Tailwind v4's scales, as components/brand.py and the navbar use them),
# written in hex: mail programs do not read oklch(). Each text colour is readable on its
# background (WCAG AA: fuchsia-700 on white 6.3:1, white on fuchsia-600 4.7:1 for the large name).
COLOURS = {
    "brand": "#c800de",  # fuchsia-600: the header and the logo's gradient start
    "brand_end": "#7f22fe",  # violet-600: the logo's gradient end
    "accent": "#a800b7",  # fuchsia-700: links and the button
    "page": "#fdf4ff",  # fuchsia-50: around the mail
    "panel": "#f8fafc",  # slate-50: the booked lines
    "line": "#e2e8f0",  # slate-200: borders
    "text": "#1d293d",  # slate-800
    "muted": "#45556c",  # slate-600
    "white": "#ffffff",
}
FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"


class RenderedMail(NamedTuple):
    text: str
    html: str


def render(
    name: str, language: str, *, subject: str, business: BusinessSettings, **context: Any
) -> RenderedMail:
    """`name`.txt and `name`.html, in `language`, with `context` (words already translated,
    values as they are shown). `subject` is the HTML's title and heading; the business (its
    settings row) signs it."""
    env = environment()
    with i18n.using(language) as lang:
        shared = {
            "lang": lang,
            "subject": subject,
            "business": _signature(business),
            "colour": COLOURS,
            "font": FONT,
            "layout": _layout_words(),
            "phone_href": "tel:" + "".join(c for c in business.phone if c.isdigit() or c == "+"),
            "email_href": f"mailto:{business.email}",
        }
        taken = shared.keys() & context.keys() | context.keys() & env.globals.keys()
        if taken:
            raise ValueError(f"{name}: these names belong to the layout: {sorted(taken)}")
        values = {**shared, **context}
        return RenderedMail(
            text=env.get_template(f"{name}.txt").render(values),
            html=env.get_template(f"{name}.html").render(values),
        )


def _signature(business: BusinessSettings) -> dict[str, str]:
    """The business as the layout names it (`business.name`, `.phone`, `.email`, `.address`),
    its address in the language of the moment."""
    return {
        "name": business.business_name,
        "phone": business.phone,
        "email": business.email,
        "address": content.text(business.translations, "address", business.address),
    }


def _layout_words() -> dict[str, str]:
    """The words of base.html, in the language of the moment."""
    return {
        "questions": _o("Questions? {phone} or {email}"),
    }


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=lambda template_name: (template_name or "").endswith(".html"),
        undefined=StrictUndefined,  # a misspelt name fails the test, not the customer's mail
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(fill=fill, link_to=link_to, nowrap=nowrap)
    return env


@pass_eval_context
def fill(eval_ctx: EvalContext, sentence: str, **parts: Any) -> str:
    """A translated sentence with its placeholders filled: `fill(words.questions,
    phone=link_to("tel:...", phone))`. In HTML the sentence and every plain part are escaped and a
    part made by `link_to` stays a link; in text every part is written as it is."""
    if eval_ctx.autoescape:
        return Markup(escape(sentence)).format(**parts)
    return sentence.format(**{key: str(value) for key, value in parts.items()})


@pass_eval_context
def link_to(eval_ctx: EvalContext, href: str, text: str | None = None) -> str:
    """A link in the business's colour (HTML); in text, its words (its address when it has
    none)."""
    if not eval_ctx.autoescape:
        return href if text is None else text
    return Markup('<a href="{}" style="color:{};text-decoration:underline;">{}</a>').format(
        href, COLOURS["accent"], href if text is None else text
    )


@pass_eval_context
def nowrap(eval_ctx: EvalContext, text: str) -> str:
    """Words kept on one line (a reference such as MG-1A2B3C4D, not broken at its hyphen)."""
    if not eval_ctx.autoescape:
        return text
    return Markup('<span style="white-space:nowrap;">{}</span>').format(text)
