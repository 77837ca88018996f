"""SQLModel tables and input/output shapes. No logic, no reflex."""

from storefront.models.auth import (
    OAuthAccount,
    PasswordResetToken,
    SignInThrottle,
    UsedSignInTicket,
)
from storefront.models.availability import BlockedDate, ServiceAvailability
from storefront.models.banners import Banner, BannerItem
from storefront.models.base import MONEY, UTCDateTime, new_id, utcnow
from storefront.models.bookings import (
    BOOKING_STATUSES,
    HOLD_STATUSES,
    Booking,
    BookingItem,
    BookingNote,
    booking_reference,
)
from storefront.models.catalog import (
    PER_EVENT_SLUGS,
    PRICE_UNITS,
    SERVICE_STATUSES,
    Service,
    ServiceCapacity,
    ServiceCategory,
    ServiceRevision,
    ServiceSlugRedirect,
)
from storefront.models.crews import LEGS, Van, VanJob, VanJobCrew
from storefront.models.operations import (
    CONTACT_EVENT_TYPES,
    AuditLog,
    Backup,
    BusinessSettings,
    CacheVersion,
    ContactMessage,
    HousekeepingLease,
    NotificationOutbox,
)
from storefront.models.payments import (
    PAYMENT_METHODS,
    CashHandover,
    Payment,
    Receipt,
    receipt_number,
)
from storefront.models.two_factor import RecoveryCode, TwoFactor
from storefront.models.uploads import UPLOAD_KINDS, StoredUpload
from storefront.models.users import (
    ROLES,
    CalendarFeed,
    FirstAdminSetup,
    LoginSession,
    User,
    UserPublic,
)

__all__ = [
    "BOOKING_STATUSES",
    "CONTACT_EVENT_TYPES",
    "HOLD_STATUSES",
    "LEGS",
    "MONEY",
    "PAYMENT_METHODS",
    "PER_EVENT_SLUGS",
    "PRICE_UNITS",
    "ROLES",
    "SERVICE_STATUSES",
    "UPLOAD_KINDS",
    "AuditLog",
    "Backup",
    "Banner",
    "BannerItem",
    "BlockedDate",
    "Booking",
    "BookingItem",
    "BookingNote",
    "BusinessSettings",
    "CacheVersion",
    "CalendarFeed",
    "CashHandover",
    "ContactMessage",
    "FirstAdminSetup",
    "HousekeepingLease",
    "LoginSession",
    "NotificationOutbox",
    "OAuthAccount",
    "PasswordResetToken",
    "Payment",
    "Receipt",
    "RecoveryCode",
    "Service",
    "ServiceAvailability",
    "ServiceCapacity",
    "ServiceCategory",
    "ServiceRevision",
    "ServiceSlugRedirect",
    "SignInThrottle",
    "StoredUpload",
    "TwoFactor",
    "UTCDateTime",
    "UsedSignInTicket",
    "User",
    "UserPublic",
    "Van",
    "VanJob",
    "VanJobCrew",
    "booking_reference",
    "new_id",
    "receipt_number",
    "utcnow",
]
