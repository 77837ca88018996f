"""Who may do what: sign-in, accounts and roles, two-factor, OAuth, password resets, the first
admin, sealed secrets, the staff's calendar feeds."""
