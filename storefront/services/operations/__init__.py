"""Running the business day to day: the day sheet, the week, reminders, the dashboard,
backups, housekeeping, health."""
