"""The second factor cannot be guessed (issue 33, finding 2), on SQLite and PostgreSQL, with a
simulated clock: wrong codes count per account from its last accepted code, not per window;
after LOCK_AFTER in a row the second step is locked until a recovery code is used or the
operator resets it, the owner is mailed (in their language, through a real SMTP server), and a
correct password does not reset the count. With two-factor required for every admin, an admin
without it sets it up only from a link mailed to the account (finding 6)."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlmodel import Session, select

from storefront import i18n
from storefront.i18n import _o
from storefront.models import AuditLog, NotificationOutbox, TwoFactor
from storefront.services.accounts import auth, two_factor
from storefront.services.messaging import outbox
from tests.integration.test_two_factor import NOW, PASSWORD, _admin, _code, _enable, _second_step

HOUR = timedelta(hours=1)


def _wrong(secret: str, at) -> str:
    """A six-digit code that is none of the codes valid around `at`."""
    valid = {_code(secret, at + timedelta(seconds=30 * step)) for step in (-1, 0, 1)}
    return next(code for code in ("000000", "111111", "222222", "333333") if code not in valid)


def _row(session, user) -> TwoFactor:
    session.expire_all()
    return session.get(TwoFactor, user.id)


def _sent(session, mailbox, now) -> list:
    session.commit()
    outbox.run_once(now=now, engine=session.get_bind())
    return mailbox.messages


def test_a_day_of_guesses_from_rotating_addresses_checks_ten_codes(session, mailbox):
    """The review's reproduction: one wrong code each time the backoff allows, from a new
    address each time, for 24 hours (1,189 codes were checked before). Each guess comes with a
    fresh password step, as an attacker who knows the password gets one for free."""
    user = _admin(session)
    secret, _codes = _enable(session, user, NOW - HOUR)
    answers = []
    at = NOW
    for attempt in range(200):
        answers.append(
            _second_step(
                session, user, _wrong(secret, at), at, ip=f"198.51.{attempt // 250}.{attempt % 250}"
            )
        )
        at += timedelta(minutes=7, seconds=13)
        if at > NOW + timedelta(hours=24):
            break
    checked = [answer for answer in answers if answer in ("invalid_code", "locked")]
    assert answers[: two_factor.LOCK_AFTER - 1] == ["invalid_code"] * (two_factor.LOCK_AFTER - 1)
    assert answers[two_factor.LOCK_AFTER - 1] == "locked"
    assert set(answers[two_factor.LOCK_AFTER :]) <= {"locked", "rate_limited"}
    row = _row(session, user)
    assert row.locked_at is not None and row.failed_codes >= two_factor.LOCK_AFTER
    # The right code no longer signs in, even much later, with a new password step.
    later = NOW + timedelta(days=3)
    assert auth.sign_in(
        session=session, email=user.email, password=PASSWORD, ip="192.0.2.1", now=later
    )
    session.commit()
    assert _second_step(session, user, _code(secret, later), later) == "locked"
    assert len(checked) > two_factor.LOCK_AFTER  # every later guess is refused as locked
    # The owner was told once, in English (the back office's default language).
    messages = _sent(session, mailbox, later)
    locked_mails = [m for m in messages if m["Subject"] == "Two-factor sign-in is locked"]
    assert len(locked_mails) == 1 and locked_mails[0]["To"] == user.email
    text = locked_mails[0].get_body(("plain",)).get_content()
    assert "10 wrong two-factor codes" in text and "recovery codes" in text
    actions = session.exec(select(AuditLog.action)).all()
    assert actions.count("two_factor_locked") == 1


def test_the_count_runs_from_the_last_success_and_a_password_does_not_reset_it(session):
    user = _admin(session)
    secret, _codes = _enable(session, user, NOW - HOUR)
    at = NOW
    for _ in range(two_factor.LOCK_AFTER - 1):
        assert _second_step(session, user, _wrong(secret, at), at) == "invalid_code"
        at += timedelta(minutes=20)  # past every window and backoff
        auth.sign_in(session=session, email=user.email, password=PASSWORD, ip="192.0.2.9", now=at)
        session.commit()
    assert _row(session, user).failed_codes == two_factor.LOCK_AFTER - 1
    # A right code starts the count again.
    assert _second_step(session, user, _code(secret, at), at) == str(user.id)
    assert _row(session, user).failed_codes == 0
    at += timedelta(minutes=20)
    assert _second_step(session, user, _wrong(secret, at), at) == "invalid_code"
    assert _row(session, user).failed_codes == 1 and _row(session, user).locked_at is None


def _lock(session, user, secret):
    at = NOW
    for _ in range(two_factor.LOCK_AFTER):
        answer = _second_step(session, user, _wrong(secret, at), at)
        at += timedelta(minutes=20)
    assert answer == "locked"
    return at


def test_a_recovery_code_lifts_the_lock(session):
    user = _admin(session)
    secret, codes = _enable(session, user, NOW - HOUR)
    at = _lock(session, user, secret)
    assert _second_step(session, user, _code(secret, at), at) == "locked"
    assert _second_step(session, user, codes[0], at) == str(user.id)
    row = _row(session, user)
    assert row.locked_at is None and row.failed_codes == 0
    later = at + timedelta(minutes=1)
    assert _second_step(session, user, _code(secret, later), later) == str(user.id)
    assert "two_factor_unlocked" in session.exec(select(AuditLog.action)).all()


def test_the_operator_resets_a_locked_account(session):
    user = _admin(session)
    secret, _codes = _enable(session, user, NOW - HOUR)
    _lock(session, user, secret)
    two_factor.reset_by_operator(session=session, email=user.email)
    session.commit()
    assert _row(session, user) is None
    assert not two_factor.is_enabled(session=session, user_id=user.id)


def test_the_owner_is_told_in_their_own_language(session, mailbox):
    user = _admin(session)
    user.language = "sq"
    session.add(user)
    session.commit()
    secret, _codes = _enable(session, user, NOW - HOUR)
    at = _lock(session, user, secret)
    [message] = _sent(session, mailbox, at)
    with i18n.using("sq"):
        subject = _o("Two-factor sign-in is locked")
    assert subject != "Two-factor sign-in is locked"
    assert message["Subject"] == subject


def test_wrong_codes_sent_at_once_lock_once(session, engine):
    """Parallel wrong codes, each on its own connection: the count loses none, and only the
    one that reaches the lock audits and mails."""
    user = _admin(session)
    secret, _codes = _enable(session, user, NOW - HOUR)
    wrong = _wrong(secret, NOW)
    answers: list[str] = []
    start = threading.Barrier(12)

    def guess(number: int) -> None:
        with Session(engine, expire_on_commit=False) as own:
            start.wait()
            ticket = two_factor.pending_ticket(user.id, remember=False, now=NOW)
            try:
                two_factor.complete_sign_in(
                    session=own, ticket=ticket, code=wrong, ip=f"203.0.113.{number}", now=NOW
                )
            except two_factor.TwoFactorError as exc:
                own.rollback()
                answers.append(exc.code)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    checked = [a for a in answers if a in ("invalid_code", "locked")]
    row = _row(session, user)
    # The per-account backoff lets CODE_RULE.allowed through at once; all of them count.
    assert row.failed_codes == len(checked)
    mails = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.recipient == user.email)
    ).all()
    assert len(mails) == (1 if row.locked_at else 0)


# --- finding 6: enrolling while required needs the mailed link ---------------------------------


def _require(session):
    owner = _admin(session, "owner@example.com")
    _enable(session, owner, NOW - HOUR)
    two_factor.set_required(session=session, actor_id=owner.id, required=True)
    session.commit()
    return owner


def _mailed_link(messages) -> str:
    text = messages[-1].get_body(("plain",)).get_content()
    link = re.search(r"https?://\S+", text).group(0)
    assert urlsplit(link).path == "/account/security"
    return parse_qs(urlsplit(link).query)[two_factor.SETUP_LINK_PARAM][0]


def test_a_stolen_password_alone_cannot_enrol_while_required(session, mailbox):
    _require(session)
    admin = _admin(session, "second@example.com")
    assert two_factor.status(session=session, user_id=admin.id).setup_needs_link
    with pytest.raises(two_factor.TwoFactorError) as refused:
        two_factor.begin_setup(session=session, user_id=admin.id, now=NOW)
    assert refused.value.code == "link_needed"
    session.rollback()
    two_factor.send_setup_link(session=session, user_id=admin.id, now=NOW)
    token = _mailed_link(_sent(session, mailbox, NOW))
    # Another account's link, or this one's after 30 minutes, does not do.
    other = _admin(session, "third@example.com")
    with pytest.raises(two_factor.TwoFactorError):
        two_factor.begin_setup(session=session, user_id=other.id, link=token, now=NOW)
    session.rollback()
    late = NOW + two_factor.SETUP_LINK_LIFETIME + timedelta(seconds=1)
    with pytest.raises(two_factor.TwoFactorError):
        two_factor.begin_setup(session=session, user_id=admin.id, link=token, now=late)
    session.rollback()
    setup = two_factor.begin_setup(session=session, user_id=admin.id, link=token, now=NOW)
    session.commit()
    two_factor.confirm_setup(
        session=session, user_id=admin.id, code=_code(setup.secret, NOW), now=NOW
    )
    session.commit()
    assert two_factor.is_enabled(session=session, user_id=admin.id)


def test_setup_links_are_limited_per_account(session, mailbox):
    _require(session)
    admin = _admin(session, "second@example.com")
    for _ in range(two_factor.SETUP_LINK_RULE.allowed):
        two_factor.send_setup_link(session=session, user_id=admin.id, now=NOW)
        session.commit()
    with pytest.raises(two_factor.TwoFactorError) as refused:
        two_factor.send_setup_link(session=session, user_id=admin.id, now=NOW)
    assert refused.value.code == "rate_limited"
