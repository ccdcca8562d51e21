"""What the benchmarks read off the driver (its heap after a full GC, and the machine), and the
state they give back to it when a query stops."""

from __future__ import annotations

import os
import platform

from pyspark.sql import SparkSession


def heap_after_gc_mb(spark: SparkSession) -> float:
    """The driver JVM's live heap, in MB, as a full garbage collection left it.

    Read from the heap pools' usage after their last collection, not from the heap's current
    use: a running query allocates tens of MB a second, which the current use would include.
    If another collection runs while the pools are read, the reading is taken again.
    """
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    management = jvm.java.lang.management.ManagementFactory
    collectors = list(management.getGarbageCollectorMXBeans())
    pools = [p for p in management.getMemoryPoolMXBeans() if str(p.getType()) == "Heap memory"]
    for _ in range(10):
        jvm.java.lang.System.gc()
        counts = [c.getCollectionCount() for c in collectors]
        used = sum(p.getCollectionUsage().getUsed() for p in pools)
        if counts == [c.getCollectionCount() for c in collectors]:
            break
    return float(used) / 2**20


def release_state_stores(spark: SparkSession) -> None:
    """Close every state store loaded in the driver's JVM, the executor of a local session, once
    the queries that used them have stopped.

    Spark keeps a stopped query's state stores loaded, with their state in the heap (an
    HDFS-backed store holds its last versions' rows; RocksDB's its native memory), until its
    maintenance task, every ``spark.sql.streaming.stateStore.maintenanceInterval`` (60 s), finds
    them inactive. A benchmark that runs one stateful query after another within that minute holds
    several queries' state at once: the Nexmark section's queries, each holding 20 to 300 MB, took
    the 1 GB heap to 990 MB in one repetition, and a 2-core VM's run ran it out. ``StateStore.stop()``
    closes and forgets every loaded store (a later query's first batch loads its own and starts the
    maintenance again): it is only for a moment when no query runs.
    """
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    jvm.org.apache.spark.sql.execution.streaming.state.StateStore.stop()


def machine(spark: SparkSession) -> dict[str, str]:
    """The machine and software a run's numbers come from, for its report."""
    cpu = "unknown"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as info:
        memory_kb = int(info.readline().split()[1])
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    return {
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "memory": f"{memory_kb / 2**20:.0f} GiB",
        "OS": platform.platform(),
        "Java": str(jvm.java.lang.System.getProperty("java.version")),
        "Spark": spark.version,
        "Python": platform.python_version(),
        "session": f"{spark.sparkContext.master}, driver heap {spark.conf.get('spark.driver.memory', '1g')}",
    }
