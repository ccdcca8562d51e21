"""What the benchmarks read off the driver: its heap after a full GC, and the machine."""

from __future__ import annotations

import os
import platform
import time
from typing import Dict

from pyspark.sql import SparkSession


def heap_after_gc_mb(spark: SparkSession) -> float:
    """The driver JVM's used heap, in MB, right after a full garbage collection."""
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    runtime = jvm.java.lang.Runtime.getRuntime()
    for _ in range(2):
        jvm.java.lang.System.gc()
    time.sleep(0.2)
    return float(runtime.totalMemory() - runtime.freeMemory()) / 2**20


def machine(spark: SparkSession) -> Dict[str, str]:
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
