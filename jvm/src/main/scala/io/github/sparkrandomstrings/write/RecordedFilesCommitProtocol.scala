package io.github.sparkrandomstrings.write

import scala.annotation.nowarn

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.hadoop.mapreduce.TaskAttemptContext
import org.apache.spark.internal.io.FileNameSpec
import org.apache.spark.sql.execution.streaming.ManifestFileCommitProtocol

/**
 * The file sink's commit protocol of `spark-random-strings write`: Spark's own, which lists each
 * batch's data files in the sink's log (`_spark_metadata`), and before a task creates a data file,
 * a record of it: an empty file of the same name in the output folder's
 * `_spark_random_strings/pending/`.
 *
 * A run killed between a task's file and its batch's log entry leaves a file that no log lists, and a
 * rerun writes the batch again into new files. Readers other than Spark read every file in the
 * folder, so the write deletes such files once its query has stopped; the record is how it knows a
 * file is its own. A file of the same name pattern that it did not make (copied in by hand, written
 * by another job) has none, and stays. The record is written before the file exists, so that no kill
 * can leave a file of the write's without one.
 *
 * The write sets this class as the session's `spark.sql.streaming.commitProtocolClass` for its query
 * alone (`_write.py`). Spark makes one per batch, on the driver, and ships it to the tasks; this adds
 * nothing that travels.
 *
 * @param jobId the batch, as Spark names the job
 * @param path the output folder
 */
class RecordedFilesCommitProtocol(jobId: String, path: String) extends ManifestFileCommitProtocol(jobId, path) {

  // Spark's file writers ask for a file's name by one of two methods: Spark 3.5 by the extension
  // (which later lines deprecate), 4.x by a FileNameSpec. Each records the name it returns; where one
  // calls the other, the same record is written twice, which leaves it as it was.

  override def newTaskTempFile(taskContext: TaskAttemptContext, dir: Option[String], spec: FileNameSpec): String =
    recorded(super.newTaskTempFile(taskContext, dir, spec), dir, taskContext)

  @nowarn("cat=deprecation")
  override def newTaskTempFile(taskContext: TaskAttemptContext, dir: Option[String], ext: String): String =
    recorded(super.newTaskTempFile(taskContext, dir, ext), dir, taskContext)

  private def recorded(file: String, dir: Option[String], taskContext: TaskAttemptContext): String = {
    RecordedFilesCommitProtocol.record(new Path(path), dir, new Path(file).getName, taskContext.getConfiguration)
    file
  }
}

object RecordedFilesCommitProtocol {

  /** The folder of the records in the output folder (the Python package's `_write_records.PENDING`). */
  val PendingFolder = "_spark_random_strings/pending"

  /**
   * Records the data file `name`, in the partition folder `dir` of `output` if there is one, as an
   * empty file of the same name under [[PendingFolder]] (written again, if it exists, as it was).
   */
  def record(output: Path, dir: Option[String], name: String, conf: Configuration): Unit = {
    val pending = new Path(output, PendingFolder)
    val folder = dir.fold(pending)(new Path(pending, _))
    val marker = new Path(folder, name)
    marker.getFileSystem(conf).create(marker, true).close()
  }
}
