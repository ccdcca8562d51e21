package io.github.sparkrandomstrings.changes

import org.scalatest.funsuite.AnyFunSuite

/** Untidy delivery without Spark: which change each read is, when it exists, and what a bounded stream delivers. */
class ChangeDeliverySuite extends AnyFunSuite {

  private val StartMs = 1000000L

  /** The stream of these row options (rate, delivery, totalRows) over 50 keys, seed 7, first started at StartMs. */
  private def stream(options: (String, String)*): ChangeStream = {
    val parsed = ChangeOptions.stream(Map("seed" -> "7", "keys" -> "50") ++ options, None)
    ChangeStream(parsed.rows.definition(StartMs, () => 7L), parsed.spec)
  }

  private def reads(s: ChangeStream, positions: Long): IndexedSeq[Long] = {
    val d = s.delivery().get
    (0L until positions).map(d.changeAt)
  }

  private val Untidy = Seq(
    Seq("maxOutOfOrderMs" -> "200"),
    Seq("duplicateFraction" -> "0.1"),
    Seq("lateRowFraction" -> "0.05", "lateByMs" -> "450"),
    Seq("maxOutOfOrderMs" -> "200", "duplicateFraction" -> "0.1", "lateRowFraction" -> "0.05", "lateByMs" -> "450"),
    Seq("maxOutOfOrderMs" -> "1000", "rateProfile" -> "2s@100, 1s@10, 2s@50..400, repeat"))

  test("a bounded untidy stream reads every change before totalRows, none after, and floor(f * n) copies") {
    for (options <- Untidy; total <- Seq(0L, 1L, 999L, 1000L)) {
      val opts = options ++ Seq("totalRows" -> total.toString) ++
        (if (options.exists(_._1 == "rateProfile")) Nil else Seq("rowsPerSecond" -> "100"))
      val parsed = ChangeOptions.stream(Map("seed" -> "7", "keys" -> "50") ++ opts, None)
      val s = ChangeStream(parsed.rows.definition(StartMs, () => 7L), parsed.spec)
      val copies = math.floor(parsed.rows.shape.duplicateFraction * total).toLong
      assert(parsed.positions.contains(total + copies), s"$options")
      val read = reads(s, total + copies)
      assert(read.distinct.sorted == (0L until total), s"$options, totalRows $total")
      assert(read.size - read.distinct.size == copies, s"$options, totalRows $total")
      assert(s.rowsAvailableAt(Long.MaxValue / 2) == total + copies, s"$options: the stream ends there")
    }
  }

  test(
    "with maxOutOfOrderMs, a window's changes come in a drawn order: some key is read before an earlier change of it") {
    val s = stream("rowsPerSecond" -> "1000", "maxOutOfOrderMs" -> "500", "totalRows" -> "5000")
    val read = reads(s, 5000L)
    assert(
      read.take(10) == Seq(367L, 475L, 474L, 301L, 179L, 399L, 15L, 308L, 375L, 60L),
      "pinned: the jar and the Python engine agree on them")
    assert(read != read.sorted)
    val lifecycle = new ChangeLifecycle(7L, s.spec)
    def keyOf(n: Long) = { lifecycle.locate(n); lifecycle.key }
    val inversions = read.indices.count { i =>
      read.indices.drop(i + 1).take(200).exists(j => read(j) < read(i) && keyOf(read(j)) == keyOf(read(i)))
    }
    assert(inversions > 100, "changes of one key read out of their order")
  }

  test("without any delivery option, offset n reads change n, when it exists") {
    val s = stream("rowsPerSecond" -> "100")
    assert(!s.untidy && s.delivery().isEmpty)
    assert(s.rowsAvailableAt(StartMs + 1234L) == s.definition.rowsAvailableAt(StartMs + 1234L))
  }

  test("each read exists after the change it delivers, at most 2W later (L more windows for a late one), and availability counts it from then") {
    for (options <- Untidy) {
      val rate = if (options.exists(_._1 == "rateProfile")) Nil else Seq("rowsPerSecond" -> "100")
      val s = stream(options ++ rate: _*)
      val d = s.delivery().get
      val w = math.max(1L, s.definition.shape.maxOutOfOrderMs)
      val lateWindows = s.definition.shape.lateByMs.fold(0L)(by => (by + w - 1) / w)
      var previous = StartMs
      for (p <- 0L until 1500L) {
        val n = d.changeAt(p)
        val at = s.existsAtMs(p)
        val exists = s.definition.existsAtMs(n)
        assert(at >= exists && at < exists + (2L + lateWindows) * w, s"$options: read $p of change $n")
        assert(at >= previous, s"$options: reads exist in position order")
        assert(s.rowsAvailableAt(at) > p && s.rowsAvailableAt(at - 1L) <= p, s"$options: read $p counted from $at")
        previous = at
      }
    }
  }

  test("a read's change does not depend on where a partition starts reading") {
    val options = Untidy(3) :+ ("rowsPerSecond" -> "100")
    val all = reads(stream(options: _*), 2000L)
    for (start <- Seq(0L, 1L, 37L, 555L, 1999L)) {
      val d = stream(options: _*).delivery().get
      val backwards = (start until 2000L).reverse.map(d.changeAt).reverse
      assert(backwards == all.drop(start.toInt), s"from $start")
    }
  }

  test("late changes are read at least lateByMs after their window, and copies keep their change") {
    val s = stream("rowsPerSecond" -> "100", "lateRowFraction" -> "0.1", "lateByMs" -> "300", "totalRows" -> "3000")
    val d = s.delivery().get
    val read = (0L until 3000L).map(p => (p, d.changeAt(p)))
    val late = read.filter { case (p, n) => s.existsAtMs(p) - s.definition.existsAtMs(n) >= 300L }
    assert(late.size == 300, "lateRowFraction 0.1 of 3,000 changes, each held back 300 ms or more")
    assert(read.map(_._2).sorted == (0L until 3000L))
  }

  test("a restart refuses another totalRows once delivery is untidy, and accepts any without it") {
    val first = ChangeOptions.stream(Map("maxOutOfOrderMs" -> "100", "totalRows" -> "10"), None).spec
    val again = ChangeOptions.stream(Map("maxOutOfOrderMs" -> "100", "totalRows" -> "20"), None).spec
    assert(first.end.contains(10L) && first.settings.last == ("totalRows" -> 10L))
    assert(first != again)
    assert(ChangeOptions.stream(Map("totalRows" -> "10"), None).spec.end.isEmpty)
  }

  test("the checkpoint's file keeps totalRows with untidy delivery, reads a file without it, and a restart that changes it is refused") {
    val folder = java.nio.file.Files.createTempDirectory("change-store").toString
    val conf = new org.apache.hadoop.conf.Configuration()
    def spec(options: (String, String)*) = ChangeOptions.stream(options.toMap, None).spec
    val untidy = new ChangeStore(s"$folder/untidy", conf)
    assert(untidy.loadOrCreate(spec("maxOutOfOrderMs" -> "100", "totalRows" -> "10")).end.contains(10L))
    assert(untidy.read().flatMap(_.end).contains(10L), "read back from the file")
    for ((options, now) <- Seq(Seq("totalRows" -> "20") -> "20", Seq.empty -> "none")) {
      val error = intercept[IllegalArgumentException] {
        untidy.loadOrCreate(spec(("maxOutOfOrderMs" -> "100") +: options: _*))
      }
      assert(error.getMessage.contains(s"totalRows: the checkpoint has 10, the query sets $now"), error.getMessage)
    }
    val tidy = new ChangeStore(s"$folder/tidy", conf)
    assert(tidy.loadOrCreate(spec("totalRows" -> "10")).end.isEmpty)
    assert(tidy.loadOrCreate(spec("totalRows" -> "99")).end.isEmpty, "without untidy delivery, totalRows may change")
    val text =
      new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(s"$folder/tidy/${ChangeStore.FileName}")))
    assert(!text.contains("totalRows"), text)
  }

  test("a batch read refuses the delivery options: a table has no order of delivery") {
    for ((name, more) <- Seq(
        "maxOutOfOrderMs" -> Map("maxOutOfOrderMs" -> "100"),
        "duplicateFraction" -> Map("duplicateFraction" -> "0.1"),
        "lateRowFraction" -> Map("lateRowFraction" -> "0.1", "lateByMs" -> "100"))) {
      val error = intercept[IllegalArgumentException] {
        ChangeOptions.batch(Map("asOf" -> "10", "seed" -> "1") ++ more, None)
      }
      assert(error.getMessage.contains(s"Option '$name' says how a stream reads its changes"), error.getMessage)
    }
  }

  test("a change stream's windows and lateness are at most 365 days, and its reads fit a long") {
    def refusal(options: (String, String)*) =
      intercept[IllegalArgumentException](ChangeOptions.stream(options.toMap, None)).getMessage
    assert(refusal("maxOutOfOrderMs" -> "31536000001") ==
      "Invalid value '31536000001' for option 'maxOutOfOrderMs': out of range. Allowed: a whole number from 0 to 31536000000.")
    assert(refusal("lateRowFraction" -> "0.5", "lateByMs" -> "9223372036854775807").startsWith(
      "Invalid value '9223372036854775807' for option 'lateByMs': out of range."))
    assert(refusal("totalRows" -> "9000000000000000000", "duplicateFraction" -> "0.1") ==
      "Options that do not fit together: 'totalRows' is 9000000000000000000 and 'duplicateFraction' is 0.1: the " +
      "stream would read 9000000000000000000 changes and 900000000000000000 copies, more than 9223372036854775807 " +
      "reads. Lower 'totalRows'.")
    assert(ChangeOptions.stream(
      Map("maxOutOfOrderMs" -> "31536000000"),
      None).rows.shape.maxOutOfOrderMs == 31536000000L)
  }

  test("maxDuplicateDistance is the random strings' alone: the changes source refuses it by name") {
    val error = intercept[IllegalArgumentException](ChangeOptions.stream(Map("maxDuplicateDistance" -> "5"), None))
    assert(error.getMessage.contains("maxDuplicateDistance"), error.getMessage)
  }
}
