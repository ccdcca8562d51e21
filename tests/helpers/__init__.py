"""What the tests share: child processes and waiting (support), SIGKILLed writes
(checkpointed_writes), a clock the tests step (stepped), the Spark lines of spark-lines.txt
(spark_lines), and the application the standalone-cluster test submits (cluster_app)."""
