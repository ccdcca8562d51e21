package io.github.sparkrandomstrings.options

import java.nio.charset.StandardCharsets
import java.nio.file.Files

import scala.io.Source

import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.nexmark.{Nexmark, NexmarkConfig}

class OptionTableSuite extends AnyFunSuite {

  test("the jar carries the wheel's table of options, character for character") {
    val repo = new java.io.File(sys.props("spark-random-strings.fixtures")).getParentFile.getParentFile
    val wheels = new java.io.File(repo, "python/src/spark_random_strings/options/table.json")
    val jars = Source.fromInputStream(getClass.getResourceAsStream(OptionTable.Resource), "UTF-8")
    try assert(jars.mkString == new String(Files.readAllBytes(wheels.toPath), StandardCharsets.UTF_8))
    finally jars.close()
  }

  test("the strings source's options are the table's, under the constants the code spells, in its order") {
    import RandomStrings._
    assert(Names == Seq(
      ROWS_PER_SECOND,
      MIN_LENGTH,
      MAX_LENGTH,
      CHARSET,
      ALPHABET,
      SEED,
      NUM_PARTITIONS,
      MAX_ROWS_PER_TRIGGER,
      TOTAL_ROWS,
      DISTINCT_VALUES,
      VALUE_DISTRIBUTION,
      ZIPF_EXPONENT,
      MAX_OUT_OF_ORDER_MS,
      LATE_ROW_FRACTION,
      LATE_BY_MS,
      DUPLICATE_FRACTION,
      MAX_DUPLICATE_DISTANCE,
      TIMESTAMP_COLUMN,
      START_TIMESTAMP,
      RATE_PROFILE,
      REAL_TIME))
    assert(InternalNames == Seq(MANUAL_CLOCK))
    assert(Table.ownColumns == Seq(
      MIN_LENGTH,
      MAX_LENGTH,
      CHARSET,
      ALPHABET,
      DISTINCT_VALUES,
      VALUE_DISTRIBUTION,
      ZIPF_EXPONENT,
      TIMESTAMP_COLUMN))
  }

  test("the strings source's defaults and ranges read from the table, and the words they make") {
    import RandomStrings._
    assert((DefaultRowsPerSecond, DefaultMinLength, DefaultMaxLength) == ((10L, 0, 4)))
    assert((DefaultZipfExponent, DefaultMaxDuplicateDistance, LengthCap) == ((1.0, 1000L, 1 << 20)))
    assert(Distributions == Seq("uniform", "zipf"))
    assert(RowsPerSecondRange.allowed == "a whole number >= 1")
    assert(LengthRange.allowed == "a whole number from 0 to 1048576")
    assert(SeedRange.allowed == "a whole number (a 64-bit long)")
    assert(ZipfExponentRange.allowed == "a decimal number > 0 and <= 10")
    assert(DuplicateFractionRange.allowed == "a decimal number >= 0 and < 1")
  }

  test("the nexmark source's options are the table's, and its defaults Beam's configuration's") {
    import Nexmark._
    assert(Names == EventNames ++ Seq(NUM_EVENTS, NUM_PARTITIONS, MAX_EVENTS_PER_TRIGGER, REAL_TIME))
    assert(InternalNames == Seq(MANUAL_CLOCK))
    val defaults = NexmarkConfig.Default.settings.toMap
    for (name <- EventNames) assert(Table.options(name).defaultText == defaults(name), name)
    assert(DefaultNumEvents == 100000L)
    assert(range(NUM_EVENT_GENERATORS) == Whole(1, 1000000))
    assert(range(AVG_BID_BYTE_SIZE) == Whole(0, 1 << 20))
  }

  test("the changes source's options are the table's, under the constants the code spells, in its order") {
    import io.github.sparkrandomstrings.changes.Changes._
    assert(Names == Seq(
      KEY,
      KEYS,
      DELETE_FRACTION,
      HOT_KEYS,
      HOT_KEY_FRACTION,
      SNAPSHOT,
      ENVELOPE,
      UPDATE_COLUMNS,
      ROWS_PER_SECOND,
      SEED,
      NUM_PARTITIONS,
      MAX_ROWS_PER_TRIGGER,
      TOTAL_ROWS,
      START_TIMESTAMP,
      RATE_PROFILE,
      MAX_OUT_OF_ORDER_MS,
      LATE_ROW_FRACTION,
      LATE_BY_MS,
      DUPLICATE_FRACTION,
      REAL_TIME,
      AS_OF,
      HISTORY))
    assert(InternalNames == Seq(MANUAL_CLOCK))
    val defaults = io.github.sparkrandomstrings.changes.ChangeSpec.Default
    assert((DefaultKey, defaults.keys, defaults.deleteFraction) == (("id", 1000L, 0.1)))
    assert(KeysRange == Whole(1L, KeyedPermutationMax))
    assert(Table.options(DELETE_FRACTION).real.allowed == "a decimal number >= 0 and < 1")
    assert(
      Table.options(ENVELOPE).values == io.github.sparkrandomstrings.changes.ChangeEnvelope.All.map(_.name) &&
        defaults.envelope == io.github.sparkrandomstrings.changes.ChangeEnvelope.Flat)
    // The rows' options are the random strings' own, with their ranges and defaults; a change
    // stream's windows and lateness are at most 365 days (ChangeOptions checks it).
    val Delivery = Seq(MAX_OUT_OF_ORDER_MS, LATE_BY_MS)
    for (name <- Names.filterNot(ChangeNames.contains)) {
      val (row, strings) = (Table.options(name), RandomStrings.Table.options(name))
      def default(r: OptionRow) = scala.util.Try(r.defaultText).toOption
      assert((row.kind, default(row)) == ((strings.kind, default(strings))), name)
      if (row.kind == "whole" && !Delivery.contains(name)) assert(row.whole == strings.whole, name)
    }
    for (name <- Delivery) assert(Table.options(name).whole == strings365(name), name)
  }

  test("the changes source reads, keeps and refuses its options as the table's roles say") {
    import io.github.sparkrandomstrings.changes.{ChangeEnvelope, ChangeSpec}
    import io.github.sparkrandomstrings.changes.Changes._
    assert(BatchNames == Seq(AS_OF, HISTORY))
    assert(StreamNames == Seq(
      MAX_ROWS_PER_TRIGGER,
      TOTAL_ROWS,
      MAX_OUT_OF_ORDER_MS,
      LATE_ROW_FRACTION,
      LATE_BY_MS,
      DUPLICATE_FRACTION,
      REAL_TIME))
    // A spec holds each kept option under its own name, in the table's order, and is rebuilt from
    // them by name; a name or a kind the table does not give is refused.
    val spec = ChangeSpec.of(Map(
      KEY -> "id",
      KEYS -> 9,
      DELETE_FRACTION -> 0.5,
      HOT_KEYS -> 2L,
      HOT_KEY_FRACTION -> 0.25,
      SNAPSHOT -> true,
      ENVELOPE -> "delta",
      UPDATE_COLUMNS -> "value",
      TOTAL_ROWS -> 7L))
    assert(ChangeSpec.of(spec.settings.toMap) == spec && spec.settings.map(_._1) == ChangeSpec.Stored)
    assert((spec.keys, spec.deleteFraction, spec.hotKeys, spec.hotKeyFraction) == ((9L, 0.5, 2L, 0.25)))
    assert((spec.envelope, spec.updatedColumns, spec.end) == ((ChangeEnvelope.Delta, Some(Seq("value")), Some(7L))))
    assert(ChangeSpec.Default.settings.map(_._1) == ChangeSpec.Stored.filterNot(Set(UPDATE_COLUMNS, TOTAL_ROWS)))
    assert(spec.updated(TOTAL_ROWS, None) == ChangeSpec.of(spec.settings.toMap - TOTAL_ROWS))
    assert(intercept[IllegalArgumentException](ChangeSpec.of(Map(AS_OF -> 3L))).getMessage ==
      s"'asOf' is no option a change stream keeps. The kept options: ${ChangeSpec.Stored.mkString(", ")}.")
    assert(intercept[IllegalArgumentException](ChangeSpec.of(Map(KEYS -> 0.5))).getMessage ==
      "Option 'keys' is whole, and 0.5 is not.")
    assert(intercept[IllegalArgumentException](spec.decimal(KEYS)).getMessage ==
      "Option 'keys' is whole in the table of options, not decimal.")
    assert(intercept[IllegalArgumentException](ChangeSpec.Default.whole(TOTAL_ROWS)).getMessage ==
      "Option 'totalRows' has no default in the table of options: read it with wholeIfSet.")
    assert(ChangeNames == Seq(KEY, KEYS, DELETE_FRACTION, HOT_KEYS, HOT_KEY_FRACTION, SNAPSHOT, ENVELOPE, UPDATE_COLUMNS, AS_OF, HISTORY))
    assert(ChangeNames.toSet == (Table.options.kept.filter(ChangeNames.contains) ++ BatchNames).toSet)
  }

  test("only the changes source has a batch read, and the nexmark stream keeps the table's kept options") {
    for (source <- Seq(RandomStrings.Table, Nexmark.Table)) assert(source.options.rows.forall(_.reads == "stream"))
    assert(
      io.github.sparkrandomstrings.changes.Changes.Table.options.rows.map(_.reads).distinct == Seq(
        "both",
        "stream",
        "batch"))
    assert(Nexmark.EventNames == Nexmark.Names.take(15) && Nexmark.EventNames.last == Nexmark.OUT_OF_ORDER_GROUP_SIZE)
  }

  private val KeyedPermutationMax = io.github.sparkrandomstrings.randomness.KeyedPermutation.MaxSize

  /** The random strings' range of `name`, up to 365 days. */
  private def strings365(name: String): Whole = Whole(RandomStrings.Table.options(name).whole.min, 365L * 86400000L)

  test("a name the table lacks fails loudly, naming it") {
    val failure = intercept[RuntimeException](RandomStrings.Table.options("rowsPerMinute"))
    assert(failure.getMessage == "table.json has no option 'rowsPerMinute'")
    assert(intercept[IllegalArgumentException](RandomStrings.Table.options(RandomStrings.CHARSET).whole)
      .getMessage.contains("option 'charset' is text, not whole"))
  }
}
