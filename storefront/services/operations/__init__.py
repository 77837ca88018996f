"""Running the business day to day: the day sheet, the week, reminders, calendar feeds, the dashboard, backups, housekeeping, health."""
