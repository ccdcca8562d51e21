package io.github.sparkrandomstrings

import java.io.File

import scala.reflect.io.Directory

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

/** LatencySink's arithmetic and bookkeeping, on constructed inputs (RealTimeStreamSuite runs it in a query). */
class LatencySinkSuite extends AnyFunSuite with TestDirectories {

  private def storeIn(checkpoint: File, definition: StreamDefinition): Unit =
    new DefinitionStore(new File(checkpoint, "sources/0").getPath, new Configuration()).store(definition)

  test("a sink reads its checkpoint's definition once a query, and anew for a new checkpoint at the same path") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val first = StreamDefinition(1L, 1000L, 10L, 1, 5, CharacterSet.Alphanumeric)
      storeIn(checkpoint, first)
      val path = checkpoint.getPath
      val before = LatencySink.definitionReads
      // Each batch's task opens a new sink: the query's id finds the definition read before.
      assert((1 to 3).map(_ => LatencySink.definitionOf("s", path, Some("query-1"))) == Seq.fill(3)(first))
      assert(LatencySink.definitionReads - before == 1)
      // Outside a streaming query's task there is no id: read each time.
      assert(LatencySink.definitionOf("s", path, None) == first)
      assert(LatencySink.definitionReads - before == 2)
      // The checkpoint made anew at the same path, for a new query: its own definition.
      new Directory(checkpoint).deleteRecursively()
      val second = first.copy(seed = 2L, rowsPerSecond = 500L)
      storeIn(checkpoint, second)
      assert(LatencySink.definitionOf("s", path, Some("query-2")) == second)
      assert(LatencySink.definitionOf("s", path, Some("query-2")) == second)
      assert(LatencySink.definitionReads - before == 3)
    }
  }
}
