"""What the limits and the mail cap count by (issue 33, finding 4): one mailbox however its
address is written, one visitor per IPv4 address or IPv6 /64 network."""

from __future__ import annotations

import pytest

from storefront.services import limit_keys


@pytest.mark.parametrize(
    ("typed", "mailbox"),
    [
        ("victim@example.com", "victim@example.com"),
        ("  Victim@Example.COM ", "victim@example.com"),
        ("victim+1@example.com", "victim@example.com"),
        ("victim+a+b@example.com", "victim@example.com"),
        # Dots name another mailbox at most providers: only Gmail ignores them.
        ("v.i.c.t.i.m@example.com", "v.i.c.t.i.m@example.com"),
        ("v.i.c.t.i.m@gmail.com", "victim@gmail.com"),
        ("V.ictim+promo@GMail.com", "victim@gmail.com"),
        ("victim@googlemail.com", "victim@gmail.com"),
        ("vic.tim+x@googlemail.com", "victim@gmail.com"),
        # A tag alone is not a mailbox: what was typed is kept.
        ("+tag@example.com", "+tag@example.com"),
        ("", ""),
        ("no-at-sign", "no-at-sign"),
    ],
)
def test_a_mailbox_is_counted_however_its_address_is_written(typed, mailbox):
    assert limit_keys.mailbox(typed) == mailbox


@pytest.mark.parametrize(
    ("address", "network"),
    [
        ("203.0.113.7", "203.0.113.7"),
        (" 203.0.113.7 ", "203.0.113.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:DB8:0001:0002:0:0:0:9", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        # An IPv4 address written as IPv6 (a dual-stack socket) is that IPv4 address.
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("::1", "::/64"),
        # What is not an address is kept as it is (at most 64 characters).
        ("unknown", "unknown"),
        ("", ""),
        ("x" * 100, "x" * 64),
    ],
)
def test_an_address_counts_as_its_network(address, network):
    assert limit_keys.network(address) == network


def test_one_ipv6_network_is_one_visitor_and_the_next_is_another():
    first = {limit_keys.network(f"2001:db8:aa:bb::{n:x}") for n in range(1, 300)}
    assert first == {"2001:db8:aa:bb::/64"}
    assert limit_keys.network("2001:db8:aa:bc::1") != "2001:db8:aa:bb::/64"
