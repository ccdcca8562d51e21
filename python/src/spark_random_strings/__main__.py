"""``python -m spark_random_strings``: the same as the ``spark-random-strings`` command."""

from spark_random_strings.cli import main

raise SystemExit(main())
