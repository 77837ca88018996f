"""Secrets sealed at rest (issue 33, finding 3; docs/operations.md, 'Security'): the admins' TOTP
secrets (`two_factor.secret`) are stored encrypted with a key that is not in the database, so a
copy of the database (a backup, a dump, a read through SQL injection) does not give anyone a
second factor.

A sealed value is `v1:` and base64url(nonce, AES-256-GCM ciphertext and tag). The key is
derived with HKDF-SHA256 from SECRETS_KEY when it is set, else from SECRET_KEY (`derive_key`,
one derivation per purpose: the backup manifest's signing key is another). A value without a
version prefix is a legacy plain one, written before secrets were sealed: `unseal` returns it as
it is (a base32 secret never holds ':'), and `reseal_two_factor_secrets` seals it.

When the key changes (SECRET_KEY rotated while SECRETS_KEY is unset, or SECRETS_KEY set or
changed), `python -m storefront.manage reseal-secrets --old-key -` (the old key on standard
input) seals every secret again with the current key; until then a secret sealed with the old
key does not open (`SealError('wrong_key')`) and its admin cannot pass the second step."""

from __future__ import annotations

import base64
import binascii
import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy import update
from sqlmodel import Session, col, select

from storefront.models import TwoFactor
from storefront.services.errors import ServiceError
from storefront.settings import get_settings

VERSION = "v1"
PREFIX = f"{VERSION}:"
NONCE_BYTES = 12  # AES-GCM's standard nonce, random for every value
KEY_BYTES = 32  # AES-256
# HKDF's salt: fixed, as its input is already a long random secret; each purpose has its info.
SALT = b"storefront/sealed"
SEAL_PURPOSE = b"sealed-secrets/v1"


class SealError(ServiceError):
    """Codes: wrong_key (sealed with another key, or changed), unknown_version."""

    CODES = {
        "wrong_key": "A sealed secret does not open with this key (SECRETS_KEY or SECRET_KEY "
        "changed?): run `python -m storefront.manage reseal-secrets --old-key -`",
        "unknown_version": "A sealed secret has a version this code does not know",
    }


def key_material() -> str:
    """The secret every at-rest key is derived from: SECRETS_KEY, else SECRET_KEY."""
    settings = get_settings()
    return settings.secrets_key or settings.secret_key


def derive_key(purpose: bytes, material: str | None = None) -> bytes:
    """A 32-byte key for `purpose`, derived from `material` (the current `key_material()` when
    None) with HKDF-SHA256."""
    source = key_material() if material is None else material
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=SALT, info=purpose).derive(
        source.encode()
    )


def is_sealed(stored: str) -> bool:
    return stored.startswith(PREFIX)


def seal(text: str, *, material: str | None = None) -> str:
    """`text` sealed with the current key (or the one derived from `material`)."""
    nonce = os.urandom(NONCE_BYTES)
    sealed = AESGCM(derive_key(SEAL_PURPOSE, material)).encrypt(
        nonce, text.encode(), PREFIX.encode()
    )
    return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode().rstrip("=")


def unseal(stored: str, *, material: str | None = None) -> str:
    """The text of a sealed value, or a legacy plain value as it is; SealError when it was
    sealed with another key, changed, or has an unknown version."""
    if ":" not in stored:
        return stored  # written before secrets were sealed
    if not is_sealed(stored):
        raise SealError("unknown_version")
    body = stored[len(PREFIX) :]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        text = AESGCM(derive_key(SEAL_PURPOSE, material)).decrypt(
            raw[:NONCE_BYTES], raw[NONCE_BYTES:], PREFIX.encode()
        )
    except (InvalidTag, ValueError, binascii.Error) as exc:
        raise SealError("wrong_key") from exc
    return text.decode()


def _opens(stored: str, material: str | None) -> str | None:
    try:
        return unseal(stored, material=material)
    except SealError:
        return None


@dataclass(frozen=True)
class ResealReport:
    """What `reseal_two_factor_secrets` did: legacy plain secrets sealed, secrets moved from an
    old key to the current one, secrets already on the current key, and the accounts whose
    secret opened with none of the keys given (left as they were)."""

    sealed_plain: int = 0
    resealed: int = 0
    current: int = 0
    unreadable: list[uuid.UUID] = field(default_factory=list)


def reseal_two_factor_secrets(*, session: Session, old_keys: Sequence[str] = ()) -> ResealReport:
    """Seal every `two_factor.secret` with the current key: a legacy plain one, or one that
    opens with one of `old_keys` (earlier SECRETS_KEY or SECRET_KEY values). Each row is
    written only if it still holds what was read (an admin setting up meanwhile keeps their
    new secret). The caller commits."""
    sealed_plain = resealed = current = 0
    unreadable: list[uuid.UUID] = []
    rows = session.exec(select(TwoFactor.user_id, TwoFactor.secret)).all()
    for user_id, stored in rows:
        legacy = ":" not in stored  # plain base32, written before secrets were sealed
        if not legacy and _opens(stored, None) is not None:
            current += 1
            continue
        text = (
            stored
            if legacy
            else next((t for t in (_opens(stored, key) for key in old_keys) if t is not None), None)
        )
        if text is None:
            unreadable.append(user_id)
            continue
        written = session.exec(  # type: ignore[call-overload]
            update(TwoFactor)
            .where(col(TwoFactor.user_id) == user_id, col(TwoFactor.secret) == stored)
            .values(secret=seal(text))
        )
        if written.rowcount != 1:
            continue  # replaced meanwhile by a new setup, sealed with the current key
        if legacy:
            sealed_plain += 1
        else:
            resealed += 1
    session.expire_all()
    return ResealReport(sealed_plain, resealed, current, unreadable)
