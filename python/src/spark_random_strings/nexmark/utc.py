"""A time's calendar fields in UTC, as Spark columns: Flink's ``TIMESTAMP(3)`` holds the
generator's epoch milliseconds, so Flink's Nexmark queries read their hours and days in UTC,
whatever the Spark session's time zone."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import Column

_MS_PER_DAY = 86_400_000
_MS_PER_HOUR = 3_600_000
_MS_PER_MINUTE = 60_000


def utc_hour(time: Column) -> Column:
    """The hour of day (0-23) of a timestamp, in UTC."""
    from pyspark.sql import functions as f

    return f.pmod(f.floor(f.unix_millis(time) / _MS_PER_HOUR), f.lit(24))


def utc_day(time: Column) -> Column:
    """The day of a timestamp as ``yyyy-MM-dd``, in UTC: Flink's ``DATE_FORMAT(t, 'yyyy-MM-dd')``."""
    from pyspark.sql import functions as f

    days = f.floor(f.unix_millis(time) / _MS_PER_DAY).cast("int")
    return f.date_from_unix_date(days).cast("string")


def utc_minute(time: Column) -> Column:
    """The hour and minute of a timestamp as ``HH:mm``, in UTC: Flink's ``DATE_FORMAT(t, 'HH:mm')``."""
    from pyspark.sql import functions as f

    minute = f.pmod(f.floor(f.unix_millis(time) / _MS_PER_MINUTE), f.lit(60))
    return f.format_string("%02d:%02d", utc_hour(time), minute)
