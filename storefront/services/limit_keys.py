"""What the limits count by (issue 33, finding 4): the one rule for a mailbox and the one rule for
a visitor's address, used by every throttle key, the booking limits and the mail cap.

These values are for counting only: the address a customer typed is the one stored and mailed,
and the visitor's address is stored as it came."""

from __future__ import annotations

import ipaddress

# Providers where dots in the local part and the `googlemail.com` spelling reach one mailbox.
GMAIL_DOMAINS = ("gmail.com", "googlemail.com")
ADDRESS_KEY_MAX = 64


def mailbox(email: str) -> str:
    """The mailbox an address reaches: lower case, the `+tag` removed from the local part, and at
    Gmail the dots removed and googlemail.com written gmail.com. 'V.ictim+1@GMail.com' ->
    'victim@gmail.com'. Text without an '@' is only trimmed and lowered."""
    text = str(email or "").strip().lower()
    local, at, domain = text.rpartition("@")
    if not at or not local:
        return text
    untagged = local.split("+", 1)[0]
    if untagged:  # a local part that is all tag stays as typed
        local = untagged
    if domain in GMAIL_DOMAINS:
        local, domain = local.replace(".", "") or local, GMAIL_DOMAINS[0]
    return f"{local}@{domain}"


def network(address: str) -> str:
    """The visitor an address counts as: an IPv4 address as it is, an IPv6 address as its /64
    network (one household or one server's whole range: '2001:db8:1:2::/64'), an IPv4 address
    written as IPv6 ('::ffff:203.0.113.7') as that IPv4 address. Text that is not an address is
    kept as it is (at most 64 characters); '' stays ''."""
    text = str(address or "").strip()
    try:
        parsed = ipaddress.ip_address(text)
    except ValueError:
        return text[:ADDRESS_KEY_MAX]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        # From the integer, so a zone ('fe80::1%eth0') does not get in the way.
        return str(ipaddress.IPv6Network((int(parsed) >> 64 << 64, 64)))
    return str(parsed)
