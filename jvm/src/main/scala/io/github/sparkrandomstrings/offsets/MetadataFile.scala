package io.github.sparkrandomstrings.offsets

import java.io.{FileNotFoundException, IOException}
import java.nio.charset.StandardCharsets

import scala.io.{Codec, Source}
import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{ChecksumException, FileAlreadyExistsException, FileSystem, Path}

import io.github.sparkrandomstrings.offsets.SparkCheckpointFiles.CheckpointFileManager

/**
 * One small text file in a source's metadata folder of the checkpoint (the `metadataPath` Spark
 * hands to `createSource`), holding what the stream's replay needs: written once, when the
 * query first starts, and whole, through Spark's `CheckpointFileManager.createAtomic`, as Spark
 * writes its own offset and commit logs, so each checkpoint store (local, HDFS, object stores)
 * writes it the way that store makes atomic. The first text written wins: a start that finds the
 * file already there reads it back.
 *
 * @param holds what the file holds, as messages say it ("the seed and start time of the stream")
 */
final class MetadataFile(metadataPath: String, fileName: String, hadoopConf: Configuration, holds: String) {

  private val folder = new Path(metadataPath)
  private val file = new Path(folder, fileName)

  /** Writes, as Spark writes its own logs. */
  private lazy val files: CheckpointFileManager = SparkCheckpointFiles.CheckpointFileManager.create(folder, hadoopConf)

  /** Reads, through Hadoop's FileSystem: it checks a checksum where the store keeps one (.crc). */
  private def fs: FileSystem = file.getFileSystem(hadoopConf)

  /** Where the file lives, for messages. */
  def location: String = file.toString

  /** The file's text, if it exists. */
  def read(): Option[String] = {
    if (!fs.exists(file)) return None
    try {
      val in = fs.open(file)
      try Some(Source.fromInputStream(in)(Codec.UTF8).mkString)
      finally in.close()
    } catch {
      case e: ChecksumException => corrupt("its content does not match the checksum in its .crc file", e)
    }
  }

  /** Refuses the file as corrupt, saying `why`. */
  def corrupt(why: String, cause: Throwable = null): Nothing =
    throw new IllegalStateException(
      s"The source metadata file $location is corrupt or truncated ($why). It holds $holds in " +
        "this checkpoint, without which its batches cannot be replayed. Restore the file, or " +
        "start the query with a new checkpoint location.",
      cause)

  /**
   * Writes `text` unless the file exists already, and returns the file's text: `text`, or the
   * first writer's, if two starts race.
   */
  def store(text: String): String = {
    files.mkdirs(folder)
    val temporaryBefore = temporaryFiles()
    val out = files.createAtomic(file, false)
    try out.write(text.getBytes(StandardCharsets.UTF_8))
    catch {
      case NonFatal(e) =>
        out.cancel()
        throw e
    }
    try {
      out.close()
      text
    } catch {
      // Another start stored its file first (or, in a race of three, removed the temporary file
      // this one left): the stored one is the stream's.
      case _: FileAlreadyExistsException | _: FileNotFoundException if fs.exists(file) =>
        (temporaryFiles() -- temporaryBefore).foreach(files.delete)
        read().getOrElse(throw new IOException(s"Could not write the source metadata to $location"))
    }
  }

  /** The temporary files `createAtomic` writes beside the file before it renames one into place. */
  private def temporaryFiles(): Set[Path] =
    files.list(folder).map(_.getPath).filter { path =>
      path.getName.startsWith(s".$fileName.") && path.getName.endsWith(".tmp")
    }.toSet

  /**
   * The source's metadata folder is `<checkpoint>/sources/<n>`; if the checkpoint's offset log
   * beside it already holds batches, the stream started before and the file is lost.
   */
  def refuseIfBatchesExist(): Unit = {
    val sources = folder.getParent
    if (sources == null || sources.getName != "sources" || sources.getParent == null) return
    val offsetLog = new Path(sources.getParent, "offsets")
    val batches =
      if (!files.exists(offsetLog)) Seq.empty
      else files.list(offsetLog).toSeq.map(_.getPath.getName).filter(_.forall(Character.isDigit))
    if (batches.nonEmpty) {
      val last = batches.map(BigInt(_)).max
      throw new IllegalStateException(
        s"The source metadata file $location is missing, but the checkpoint's offset log " +
          s"$offsetLog already holds ${batches.size} batches (the last is batch $last). The file " +
          s"holds $holds in this checkpoint; without it a restart would replay other rows under " +
          "the same offsets. Restore the file, or start the query with a new checkpoint location.")
    }
  }
}
