"""The ``nexmark`` source from Python: the Nexmark benchmark's events, identical to Apache Beam's
reference generator, as a streaming DataFrame of Flink's Nexmark table.

[`read_nexmark`][spark_random_strings.nexmark.read_nexmark] reads the stream (the jar's source,
``format("nexmark")``); [`nexmark_views`][spark_random_strings.nexmark.nexmark_views] splits it into
the ``person``, ``auction`` and ``bid`` views with Nexmark's watermark, as Flink's
``ddl_views.sql`` does; [`NexmarkKeywords`][spark_random_strings.nexmark.NexmarkKeywords] lists the
options under their keywords (Beam's ``NexmarkConfiguration`` names in snake_case).

[`nexmark_events`][spark_random_strings.nexmark.nexmark_events] gives a bounded stream's events
without Spark, and [`nexmark_answers`][spark_random_strings.nexmark.nexmark_answers] each query's
exact answer for them: the oracle that checks a Nexmark implementation on any engine.
"""

from __future__ import annotations

from spark_random_strings.nexmark.generator import NexmarkEvent
from spark_random_strings.nexmark.oracle import nexmark_answers, nexmark_events
from spark_random_strings.nexmark.read import read_nexmark
from spark_random_strings.nexmark.table import NEXMARK_DDL, NEXMARK_FORMAT, NEXMARK_OPTIONS, NexmarkKeywords
from spark_random_strings.nexmark.views import WATERMARK_DELAY, NexmarkViews, nexmark_views

__all__ = [
    "NEXMARK_DDL",
    "NEXMARK_FORMAT",
    "NEXMARK_OPTIONS",
    "WATERMARK_DELAY",
    "NexmarkEvent",
    "NexmarkKeywords",
    "NexmarkViews",
    "nexmark_answers",
    "nexmark_events",
    "nexmark_views",
    "read_nexmark",
]
