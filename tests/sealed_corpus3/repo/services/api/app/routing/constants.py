"""Routing limits agreed with the launch districts."""

# Longest ride any student may have, door of the bus to school.
MAX_RIDE_MINUTES = 55

# Seconds added at every stop for boarding.
DEFAULT_DWELL_SECONDS = 20

# Buses must reach school this many minutes before the bell.
BELL_BUFFER_MINUTES = 10

# A bus within this distance of a stop counts as arriving.
GEOFENCE_RADIUS_M = 150

# Average speed used for ETA estimates on local roads.
AVERAGE_SPEED_KMH = 28.0
