"""Money at the door on SQLite and PostgreSQL (issue 36, items 2 and 3): payments and their
reversals, balances, staff's 'Collected' under the booking's money lock, the day's cash and its
handovers."""

import threading
import uuid
from collections import Counter
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import partial

import pytest
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import AuditLog, Booking, CashHandover, Payment, User
from storefront.services.booking import admin as ab
from storefront.services.payments import cash, ledger
from storefront.services.payments.cash import CashError
from storefront.services.payments.ledger import PaymentError
from tests.factories import line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"
_place = partial(place, now=NOW)


def _user(session, role="staff", name=None) -> str:
    user = User(email=f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role, full_name=name)
    session.add(user)
    session.commit()
    return str(user.id)


def _booking(session, price="100.00", hours=2) -> Booking:
    """A booking of one per-hour bouncer: 2 h at 100 = 200.00 owed."""
    bouncer = make_service(session, price=price, units=3)
    session.commit()
    placed = _place(session, [line(bouncer, DAY, "12:00", hours=hours)], full_name="Arta K")
    return session.get(Booking, uuid.UUID(str(placed.id)))


def _pay(session, actor, booking, amount, method="cash", **kw):
    return ledger.record_payment(
        session=session,
        actor_id=actor,
        booking_id=booking.id,
        amount=amount,
        method=method,
        key=kw.pop("key", uuid.uuid4().hex),
        **kw,
    )


def _money(session, booking):
    session.expire_all()
    return ledger.balance(session, session.get(Booking, booking.id))


def test_payments_make_the_balance_and_its_state(session):
    staff, booking = _user(session), _booking(session)
    assert _money(session, booking).state == "unpaid"
    assert _money(session, booking).balance == Decimal("200.00")
    _pay(session, staff, booking, "50")
    money = _money(session, booking)
    assert (money.due, money.paid, money.balance, money.state) == (
        Decimal("200.00"),
        Decimal("50.00"),
        Decimal("150.00"),
        "part_paid",
    )
    _pay(session, staff, booking, "150,00", method="card")
    money = _money(session, booking)
    assert (money.balance, money.state) == (Decimal("0.00"), "paid")
    rows = ledger.payments_of(session, booking.id)
    assert [(r.amount, r.method) for r in rows] == [
        (Decimal("50.00"), "cash"),
        (Decimal("150.00"), "card"),
    ]
    assert all(isinstance(r.amount, Decimal) for r in rows)


@pytest.mark.parametrize(
    "typed", ["0", "-5", "abc", "10.001", "", "1e3", "NaN", "Infinity", "100000000"]
)
def test_a_bad_amount_is_refused(session, typed):
    staff, booking = _user(session), _booking(session)
    with pytest.raises(PaymentError) as refused:
        _pay(session, staff, booking, typed)
    assert refused.value.code == "invalid_amount"
    assert session.exec(select(Payment)).all() == []


def test_more_than_the_balance_staff_never_an_admin_after_confirming(session):
    staff, admin, booking = _user(session), _user(session, "admin"), _booking(session)
    with pytest.raises(PaymentError) as refused:
        _pay(session, staff, booking, "200.01")
    assert refused.value.code == "too_much"
    with pytest.raises(PaymentError) as asked:
        _pay(session, admin, booking, "210.00")
    assert asked.value.code == "over_balance"
    assert asked.value.details == {"balance": "200.00", "most": "220.00"}
    with pytest.raises(PaymentError) as beyond:
        _pay(session, admin, booking, "220.01", over_confirmed=True)
    assert beyond.value.code == "too_much"
    _pay(session, admin, booking, "210.00", over_confirmed=True)
    money = _money(session, booking)
    assert (money.balance, money.over, money.state) == (Decimal("0.00"), Decimal("10.00"), "paid")


def test_who_may_record_what(session):
    staff, user, booking = _user(session), _user(session, "user"), _booking(session)
    with pytest.raises(PaymentError) as refused:
        _pay(session, user, booking, "10")
    assert refused.value.code == "not_allowed"
    with pytest.raises(PaymentError) as anonymous:
        _pay(session, "", booking, "10")
    assert anonymous.value.code == "no_user"
    with pytest.raises(PaymentError) as transfer:
        _pay(session, staff, booking, "10", method="bank_transfer")
    assert transfer.value.code == "invalid_method"
    with pytest.raises(PaymentError) as unknown:
        _pay(session, _user(session, "admin"), booking, "10", method="bitcoin")
    assert unknown.value.code == "invalid_method"
    assert session.exec(select(Payment)).all() == []


def test_a_cancelled_booking_takes_no_payment(session):
    staff, admin, booking = _user(session), _user(session, "admin"), _booking(session)
    ab.set_status(
        session=session, actor_id=admin, booking_id=booking.id, status="cancelled", now=NOW
    )
    with pytest.raises(PaymentError) as refused:
        _pay(session, staff, booking, "10")
    assert refused.value.code == "cancelled"


def test_one_press_sent_twice_is_one_payment(session):
    staff, booking = _user(session), _booking(session)
    first = _pay(session, staff, booking, "40", key="press-1")
    again = _pay(session, staff, booking, "40", key="press-1")
    assert first.id == again.id
    with pytest.raises(PaymentError) as other:
        _pay(session, staff, booking, "41", key="press-1")
    assert other.value.code == "key_reused"
    assert len(session.exec(select(Payment)).all()) == 1


def test_a_reversal_answers_a_payment_which_stays(session):
    staff, admin, booking = _user(session), _user(session, "admin"), _booking(session)
    paid = _pay(session, staff, booking, "200")
    with pytest.raises(PaymentError) as staff_refused:
        ledger.reverse_payment(
            session=session, actor_id=staff, payment_id=paid.id, reason="wrong", key="r0"
        )
    assert staff_refused.value.code == "not_allowed"
    with pytest.raises(PaymentError) as no_reason:
        ledger.reverse_payment(
            session=session, actor_id=admin, payment_id=paid.id, reason="  ", key="r1"
        )
    assert no_reason.value.code == "reason_required"
    reversal = ledger.reverse_payment(
        session=session, actor_id=admin, payment_id=paid.id, reason="Counted twice", key="r2"
    )
    assert reversal.amount == Decimal("-200.00") and reversal.reverses_id == paid.id
    with pytest.raises(PaymentError) as twice:
        ledger.reverse_payment(
            session=session, actor_id=admin, payment_id=paid.id, reason="again", key="r3"
        )
    assert twice.value.code == "already_reversed"
    with pytest.raises(PaymentError) as of_a_reversal:
        ledger.reverse_payment(
            session=session, actor_id=admin, payment_id=reversal.id, reason="x", key="r4"
        )
    assert of_a_reversal.value.code == "not_a_payment"
    money = _money(session, booking)
    assert (money.paid, money.balance, money.state) == (
        Decimal("0.00"),
        Decimal("200.00"),
        "unpaid",
    )
    session.expire_all()
    original = session.get(Payment, paid.id)
    assert original.amount == Decimal("200.00") and original.kind == "payment"
    rows = ledger.payments_of(session, booking.id)
    assert [(r.kind, r.reversed) for r in rows] == [("payment", True), ("reversal", False)]
    actions = [a.action for a in session.exec(select(AuditLog).order_by(AuditLog.created_at))]
    assert actions.count("payment_record") == 1 and actions.count("payment_reverse") == 1


def test_the_lists_balance_filter(session):
    staff = _user(session)
    unpaid, part, paid = _booking(session), _booking(session), _booking(session)
    _pay(session, staff, part, "10")
    _pay(session, staff, paid, "200")
    session.expire_all()
    for state, expected in (("unpaid", unpaid), ("part_paid", part), ("paid", paid)):
        found = session.exec(select(Booking.id).where(ledger.state_clause(state))).all()
        assert found == [expected.id], state


def test_a_booking_with_payments_is_cancelled_not_deleted(session):
    admin, booking = _user(session, "admin"), _booking(session)
    _pay(session, admin, booking, "20")
    with pytest.raises(ab.AdminBookingError) as refused:
        ab.delete_booking(session=session, actor_id=admin, booking_id=booking.id)
    assert refused.value.code == "has_payments"
    assert session.get(Booking, booking.id) is not None


def test_two_staff_collecting_the_same_balance_at_once_record_it_once(session, database_url):
    """Two phones press 'Collected' for the whole balance at the same moment, each with its own
    press key: one payment; the other is told there is no balance left."""
    first, second, booking = _user(session), _user(session), _booking(session)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def collect(actor: str) -> None:
        engine = make_engine(database_url)
        try:
            with Session(engine, expire_on_commit=False) as own:
                start.wait()
                try:
                    _pay(own, actor, booking, "200.00")
                    outcomes.append("recorded")
                except PaymentError as error:
                    outcomes.append(error.code)
                except Exception as error:  # counted, so the assertion shows it
                    outcomes.append(f"error: {type(error).__name__}: {error}")
        finally:
            engine.dispose()

    threads = [threading.Thread(target=collect, args=(a,)) for a in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert Counter(outcomes) == {"recorded": 1, "too_much": 1}
    session.rollback()
    assert len(session.exec(select(Payment)).all()) == 1


def _on(day: str, hour: int = 15) -> datetime:
    year, month, number = map(int, day.split("-"))
    return datetime(year, month, number, hour, 0, tzinfo=UTC)


def _recorded_at(session, payment, moment):
    row = session.get(Payment, payment.id)
    row.recorded_at = moment
    session.add(row)
    session.commit()


def test_the_days_cash_by_staff_and_method_and_its_handover(session):
    driver = _user(session, name="Driton")
    helper = _user(session, name="Besa")
    admin = _user(session, "admin", name="Owner")
    one, two, three = _booking(session), _booking(session), _booking(session)
    for payment in (
        _pay(session, driver, one, "200"),
        _pay(session, driver, two, "50", method="card"),
        _pay(session, helper, two, "30"),
    ):
        _recorded_at(session, payment, _on(DAY))
    wrong = _pay(session, helper, three, "25")
    _recorded_at(session, wrong, _on(DAY))
    ledger.reverse_payment(
        session=session, actor_id=admin, payment_id=wrong.id, reason="other booking", key="rv"
    )
    sheet = cash.day_cash(session=session, actor_id=admin, day=DAY)
    by_name = {s.name: s for s in sheet.staff}
    assert by_name["Driton"].by_method == {"cash": Decimal("200.00"), "card": Decimal("50.00")}
    assert (by_name["Driton"].total, by_name["Driton"].held) == (
        Decimal("250.00"),
        Decimal("200.00"),
    )
    assert by_name["Besa"].by_method == {"cash": Decimal("30.00")}  # the reversed 25 is not
    assert sheet.due == Decimal("600.00") and sheet.collected == Decimal("280.00")
    assert [(u.reference, u.balance) for u in sheet.unpaid] == sorted(
        [(two.reference, Decimal("120.00")), (three.reference, Decimal("200.00"))]
    )
    assert cash.my_day(session=session, actor_id=driver, day=date(2026, 6, 10)) == {
        "cash": Decimal("200.00"),
        "card": Decimal("50.00"),
    }
    with pytest.raises(CashError) as staff_refused:
        cash.day_cash(session=session, actor_id=driver, day=DAY)
    assert staff_refused.value.code == "not_allowed"

    handed = cash.hand_over(session=session, actor_id=admin, staff_id=driver, day=DAY)
    session.commit()
    assert handed.amount == Decimal("200.00")
    with pytest.raises(CashError) as again:
        cash.hand_over(session=session, actor_id=admin, staff_id=driver, day=DAY)
    assert again.value.code == "nothing_held"
    session.rollback()
    after = {s.name: s for s in cash.day_cash(session=session, actor_id=admin, day=DAY).staff}
    assert (after["Driton"].handed_over, after["Driton"].held) == (
        Decimal("200.00"),
        Decimal("0.00"),
    )
    assert after["Driton"].handovers and "Owner" in after["Driton"].handovers[0]
    assert len(session.exec(select(CashHandover)).all()) == 1
    assert session.exec(select(AuditLog).where(AuditLog.action == "cash_handover")).one()
    with pytest.raises(CashError) as bad_day:
        cash.day_cash(session=session, actor_id=admin, day="31.02.2026")
    assert bad_day.value.code == "invalid_day"


def test_the_customer_sees_what_is_paid_and_left(session):
    from storefront import i18n
    from storefront.models import BookingItem
    from storefront.services.booking import views
    from storefront.services.messaging import notify

    staff, booking = _user(session), _booking(session)
    owner = uuid.UUID(_user(session, "user"))
    row = session.get(Booking, booking.id)
    row.user_id = owner
    session.add(row)
    session.commit()
    view = views.booking_for_view(session=session, booking_id=booking.id)
    assert (view.paid, view.money_state) == (Decimal("0.00"), "unpaid")
    _pay(session, staff, booking, "80")
    session.expire_all()
    view = views.booking_for_view(session=session, booking_id=booking.id)
    assert (view.paid, view.balance, view.money_state) == (
        Decimal("80.00"),
        Decimal("120.00"),
        "part_paid",
    )
    (summary,) = views.bookings_for_user(session=session, user_id=owner, now=NOW)
    assert summary.money_state == "part_paid" and "120" in summary.balance_label
    row = session.get(Booking, booking.id)
    items = session.exec(select(BookingItem).where(BookingItem.booking_id == row.id)).all()
    with i18n.using("en", office=True):
        words = notify._booking_words(row, items)
    assert words["balance"] == "Paid: €80.00 · Left to pay: €120.00"
