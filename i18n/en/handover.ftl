# The shift handover.
