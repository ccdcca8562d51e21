"""What the benchmarks read off the driver: its heap after a full GC, and the machine."""

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
