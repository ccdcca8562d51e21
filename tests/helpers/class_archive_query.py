"""The query whose classes the tests' class archive holds (see ``jvm_options``): run under
spark-submit, it writes a short bounded stream with the command-line tool, as most child
processes of the tests do, and reads another into a memory sink, as the workers' sessions do.

Usage: spark-submit class_archive_query.py FOLDER
"""

from __future__ import annotations

import sys
from pathlib import Path

# The tests' folder, for their helpers: spark-submit puts only this file's own on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.support import run_available_now
from spark_random_strings import cli, read_random_strings
from spark_random_strings.engine.local import local_session


def main(folder: Path) -> int:
    written = cli.main(
        ["write", "--total-rows", "2000", "--max-rows-per-trigger", "1000", "--output", str(folder / "write")]
    )
    if written != 0:
        return written
    spark = local_session("spark-random-strings class archive")
    df = read_random_strings(spark, seed=1, total_rows=100)
    rows, _ = run_available_now(df, "class_archive", folder / "checkpoint")
    spark.stop()
    return 0 if len(rows) == 100 else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
