"""``python -m spark_random_strings``: the same as the ``spark-random-strings`` command."""

from spark_random_strings.cli import main

if __name__ == "__main__":  # and not when a tool imports the module to read it
    raise SystemExit(main())
