"""What several test modules share: running a bounded stream, and starting child processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from pyspark.sql import DataFrame
from pyspark.sql.streaming.listener import StreamingQueryProgress

#: The repository's root folder, and its examples.
REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"

Row4 = Tuple[str, int, int, int]


def run_available_now(
    df: DataFrame, name: str, checkpoint: Path
) -> Tuple[List[Row4], List[StreamingQueryProgress]]:
    """Run df to completion under Trigger.AvailableNow into a memory sink."""
    query = (
        df.writeStream.format("memory")
        .queryName(name)
        .trigger(availableNow=True)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    query.awaitTermination(120)
    assert not query.isActive
    assert query.exception() is None
    rows = df.sparkSession.table(name).orderBy("offset").collect()
    return [(r[0], r[1], r[2], r[3]) for r in rows], query.recentProgress


def pyspark_bin(command: str) -> Path:
    """One of the launchers (spark-submit, spark-shell, spark-class) of the installed pyspark."""
    import pyspark

    return Path(pyspark.__file__).parent / "bin" / command


def child_env(**extra: str) -> Dict[str, str]:
    """The environment for a child Spark process: this interpreter's pyspark, loopback only.

    A SPARK_HOME or PYTHONPATH from the caller's shell is dropped, so the child finds exactly the
    pyspark and the Python of this test run.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("SPARK_HOME", "PYTHONPATH")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYSPARK_PYTHON"] = sys.executable
    env["PYSPARK_DRIVER_PYTHON"] = sys.executable
    env["SPARK_LOCAL_IP"] = "127.0.0.1"
    env.update(extra)
    return env


def run_child(
    command: Sequence[str], cwd: Optional[Path] = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run a command to its end, as a user would from a shell with no input, and capture it."""
    return subprocess.run(
        list(command), cwd=cwd, env=child_env(**env), capture_output=True, text=True,
        timeout=600, stdin=subprocess.DEVNULL,
    )
