"""What a person may type into a field, in one place: one-line text, multi-line text, an email
address and a phone number. Every path that writes such a field (checkout, the booking screen,
the back office's booking edit, the contact form, the profile, sign-up, the business settings)
checks it here, with the length its model declares (`max_length`), so a name cannot carry a
second paragraph into a mail and an email field cannot name two recipients.

Nothing is silently removed: text is trimmed of surrounding spaces, and whatever else is wrong
is refused with a code and a message that names the field.

Codes (FieldError.code): required, too_long (details `max`), not_one_line, unprintable,
invalid (an email or phone number that is not one)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import phonenumbers
from email_validator import EmailNotValidError, validate_email

from storefront.i18n import N_s, _s
from storefront.services.errors import ServiceError

# Numbers typed without a country code are Kosovo's (+383).
PHONE_REGION = "XK"
PHONE_EXAMPLE = "+383 44 123 456"
# Line breaks of every kind: a one-line field refuses them with their own message.
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
# Format characters some names need: the zero-width non-joiner and joiner (Persian, Indic
# scripts, emoji sequences). Every other format character (bidi overrides, zero-width spaces,
# the byte-order mark) is refused.
NAME_FORMAT_CHARACTERS = frozenset("\u200c\u200d")
# Categories refused everywhere: controls, format characters, line and paragraph separators,
# lone surrogates.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
# What a multi-line field keeps of the control characters.
MULTI_LINE_KEEPS = frozenset("\n\t")

# Marked for translation (storefront/i18n.py); `_fail` says them in the language of the moment,
# so a label passed in should be in that language too (`_s("Email")`).
MESSAGES = {
    "required": N_s("{label} is required"),
    "too_long": N_s("{label} can be at most {max} characters long"),
    "not_one_line": N_s("{label} must be on one line"),
    "unprintable": N_s("{label} contains a control or invisible character; please retype it"),
    "invalid": N_s("{label} is invalid"),
}
PHONE_INVALID = N_s("{label} is invalid: enter a number such as {example}")
# What a typed phone number may hold besides digits.
PHONE_PUNCTUATION = frozenset("+()-./ ")
# Each kind of field's rule in words, for a form that names the field and its rule when it
# refuses a value ('Phone: use digits, ...'; `rule_message`). The checks below are the rules.
RULE_WORDS = {
    "line": N_s("write it on one line, up to {max} characters"),
    "text": N_s("up to {max} characters"),
    "email": N_s("enter one email address like name@example.com, up to {max} characters"),
    "phone": N_s("use digits, spaces and a leading +, like {example}, up to {max} characters"),
}


class FieldError(ServiceError):
    """One field's value refused; see the module's codes. `message` names the field."""

    CODES = {
        "invalid": "Invalid",
        "not_one_line": "Not one line",
        "required": "Required",
        "too_long": "Too long",
        "unprintable": "Unprintable",
    }


def max_length(model: type, column: str) -> int:
    """The length the model declares for `column` (`Field(max_length=...)`): the one source of
    every field's limit."""
    length = model.__table__.c[column].type.length  # type: ignore[attr-defined]
    if not length:
        raise ValueError(f"{model.__name__}.{column} declares no max_length")
    return int(length)


def _fail(code: str, label: str, **details: Any) -> FieldError:
    return FieldError(code, _s(MESSAGES[code]).format(label=label, **details), **details)


def _text(value: object, label: str, max_len: int, *, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise _fail("invalid", label)
    text = value.strip()
    if required and not text:
        raise _fail("required", label)
    if len(text) > max_len:
        raise _fail("too_long", label, max=max_len)
    return text


def _refused(char: str, *, keep: frozenset[str] = frozenset()) -> bool:
    if char in keep:
        return False
    return unicodedata.category(char) in REFUSED_CATEGORIES and char not in NAME_FORMAT_CHARACTERS


def single_line(value: object, label: str, max_len: int, *, required: bool = False) -> str:
    """One line of printable text, trimmed, at most `max_len` characters; '' when blank and
    not required."""
    text = _text(value, label, max_len, required=required)
    if any(char in LINE_BREAKS for char in text):
        raise _fail("not_one_line", label)
    if any(_refused(char) for char in text):
        raise _fail("unprintable", label)
    return text


def multi_line(value: object, label: str, max_len: int, *, required: bool = False) -> str:
    """Text that may have several lines (Windows line ends become '\\n') and tabs, but no other
    control or invisible character; trimmed, at most `max_len` characters."""
    raw = value.replace("\r\n", "\n") if isinstance(value, str) else value
    text = _text(raw, label, max_len, required=required)
    if any(_refused(char, keep=MULTI_LINE_KEEPS) for char in text):
        raise _fail("unprintable", label)
    return text


def email(
    value: object, label: str | None = None, *, required: bool = True, max_len: int = 255
) -> str:
    """Exactly one address, checked by email-validator (syntax only: no DNS), lowercased as the
    accounts store them; '' when blank and not required. `a,b@x.com`, `Ana <a@x.com>` and a
    second line are refused. `label`: 'Email' unless named."""
    label = label or _s("Email")
    text = _text(value, label, max_len, required=required)
    if not text:
        return ""
    try:
        checked = validate_email(text, check_deliverability=False)
    except EmailNotValidError:
        # 'Email is invalid': docs/product.md §5's text.
        raise _fail("invalid", label) from None
    return checked.normalized.lower()


def phone(
    value: object, label: str | None = None, *, required: bool = True, max_len: int = 64
) -> str:
    """A phone number in E.164 ('+38344123456'); one without a country code is read as a
    Kosovo number (+383). '' when blank and not required; anything that is not a valid number
    is refused. `label`: 'Phone number' unless named."""
    label = label or _s("Phone number")
    text = _text(value, label, max_len, required=required)
    if not text:
        return ""
    number = _parse_phone(single_line(text, label, max_len))
    if number is None:
        raise FieldError("invalid", _s(PHONE_INVALID).format(label=label, example=PHONE_EXAMPLE))
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _parse_phone(text: str) -> phonenumbers.PhoneNumber | None:
    if not all(c in PHONE_PUNCTUATION or "0" <= c <= "9" for c in text):
        return None  # no words, extensions or letters for digits: the number as dialled
    digits = "".join(c for c in text if c.isdigit())
    candidates = [text]
    if digits.startswith("383") and not text.lstrip().startswith(("+", "0")):
        # '383 44 123 456' is Kosovo's code without its '+', not a local number.
        candidates.insert(0, "+" + digits)
    for candidate in candidates:
        try:
            number = phonenumbers.parse(candidate, PHONE_REGION)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return number
    return None


def e164_or_none(value: object) -> str | None:
    """The number in E.164 if it is one, else None (for rows written before numbers were
    checked)."""
    try:
        return phone(value) or None
    except FieldError:
        return None


def readable_phone(value: object) -> str:
    """A stored number as a person reads and dials it ('+383 44 123 456'); a row written before
    numbers were checked, as it is."""
    number = _parse_phone(str(value or "").strip())
    if number is None:
        return str(value or "").strip()
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


def rule_message(kind: str, label: str, code: str, max_len: int) -> str:
    """A refused field's message that names the field and its rule: 'Email: enter one email
    address like name@example.com, up to 255 characters'; `code` is the FieldError's."""
    words = _s(RULE_WORDS[kind]).format(max=max_len, example=PHONE_EXAMPLE)
    if code == "required":
        return _s("{label}: required; {words}").format(label=label, words=words)
    if code == "unprintable":
        return _s("{label}: {words}, without control or invisible characters").format(
            label=label, words=words
        )
    return _s("{label}: {words}").format(label=label, words=words)


# --- a whole form -------------------------------------------------------------------------------


def rule(
    kind: str, value: object, label: str, max_len: int, *, required: bool = False
) -> Callable[[], str]:
    """The check of one field, to run in `check`: kind 'line' (one line), 'text' (several
    lines), 'email' or 'phone'."""
    if kind == "email":
        return lambda: email(value, label, required=required, max_len=max_len)
    if kind == "phone":
        return lambda: phone(value, label, required=required, max_len=max_len)
    if kind == "text":
        return lambda: multi_line(value, label, max_len, required=required)
    if kind == "line":
        return lambda: single_line(value, label, max_len, required=required)
    raise ValueError(f"No field kind {kind!r}")


@dataclass
class Checked:
    """A form's fields after their rules: the clean values, and for each refused field its
    code and its message."""

    values: dict[str, Any] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)

    def refuse(self, name: str, code: str, message: str) -> None:
        self.codes[name] = code
        self.messages[name] = message


def check(rules: Mapping[str, Callable[[], Any]]) -> Checked:
    """Run each field's rule (a call that returns the clean value or raises FieldError)."""
    result = Checked()
    for name, rule in rules.items():
        try:
            result.values[name] = rule()
        except FieldError as error:
            result.refuse(name, error.code, error.message)
    return result


def in_words(
    codes: Mapping[str, str],
    messages: Mapping[str, str],
    words: Mapping[tuple[str, str], str],
    fallback: str,
) -> dict[str, str]:
    """Each refused field's message for a screen: the screen's words for (field, code) where it
    has them (the spec's, such as 'Name is required'), else the rule's own message, else
    `fallback`."""
    return {
        name: words.get((name, code)) or messages.get(name) or fallback
        for name, code in codes.items()
    }


def normalize_email(email: str) -> str:
    """An email address as it is stored and compared: trimmed, lowercase, at most 255 characters."""
    return str(email).strip().lower()[:255]
