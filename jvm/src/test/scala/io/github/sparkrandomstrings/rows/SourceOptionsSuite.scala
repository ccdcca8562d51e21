package io.github.sparkrandomstrings.rows

import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap
import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.{RowShape, StreamDefinition}
import io.github.sparkrandomstrings.text.{CharacterSet, StringValues}
import io.github.sparkrandomstrings.time.{ManualClock, RateProfile, StreamClock}

class SourceOptionsSuite extends AnyFunSuite {
  import RandomStrings._
  import SourceOptions.parse

  test("defaults: 10 rows/s, lengths 0 to 4, alphanumeric, no seed, no caps") {
    assert(parse(Map.empty) == SourceOptions(
      10L,
      StringValues(0, 4, CharacterSet.Alphanumeric),
      None,
      None,
      None,
      None))
  }

  test("every option is parsed, names case-insensitively, values trimmed") {
    val options = parse(Map(
      "ROWSPERSECOND" -> "250",
      "minlength" -> " 2",
      "MaxLength" -> "9 ",
      "charSet" -> "HEX",
      "seed" -> "-7",
      "numpartitions" -> "3",
      "maxRowsPerTrigger" -> "1000",
      "TOTALROWS" -> "0"))
    assert(options == SourceOptions(
      250L,
      StringValues(2, 9, CharacterSet.Hex),
      Some(-7L),
      Some(3),
      Some(1000L),
      Some(0L)))
  }

  test("the shaping options are parsed, names case-insensitively; none set is the plain shape") {
    assert(parse(Map.empty).shape == RowShape.Plain)
    assert(RowShape.Plain.isPlain && !RowShape.Plain.movesEventTimes)
    val options = parse(Map(
      "DISTINCTVALUES" -> "1000",
      "valueDistribution" -> " Zipf",
      "zipfexponent" -> "1.25",
      "maxOutOfOrderMs" -> "5000",
      "lateRowFraction" -> "1e-2",
      "LateByMs" -> "60000",
      "duplicateFraction" -> "0.05",
      "maxDuplicateDistance" -> "20"))
    assert(options.strings == StringValues(0, 4, CharacterSet.Alphanumeric, Some(1000L), "zipf", 1.25))
    assert(options.shape == RowShape(5000L, 0.01, Some(60000L), 0.05, 20L))
    assert(options.strings.isZipf && options.shape.movesEventTimes)
  }

  test("the extreme shaping values are accepted") {
    val options = parse(Map(
      "distinctValues" -> Int.MaxValue.toString,
      "maxLength" -> "8",
      "valueDistribution" -> "zipf",
      "zipfExponent" -> "10",
      "maxOutOfOrderMs" -> Long.MaxValue.toString,
      "lateRowFraction" -> "1",
      "lateByMs" -> Long.MaxValue.toString,
      "duplicateFraction" -> "0.999999",
      "maxDuplicateDistance" -> Long.MaxValue.toString))
    val (strings, shape) = (options.strings, options.shape)
    assert(strings.distinctValues.contains(Int.MaxValue.toLong) && strings.zipfExponent == 10.0)
    assert(shape.lateRowFraction == 1.0 && shape.duplicateFraction == 0.999999)
    assert(parse(Map("lateRowFraction" -> "0")).shape == RowShape.Plain)
    assert(parse(Map(
      "distinctValues" -> "1",
      "minLength" -> "0",
      "maxLength" -> "0")).strings.distinctValues.contains(1L))
  }

  test("a pool larger than the options allow names how many strings they allow") {
    val message = error(Map("distinctValues" -> "1112", "charset" -> "digits", "maxLength" -> "3"))
    assert(message == "Invalid value '1112' for option 'distinctValues': the other options allow " +
      "only 1111 distinct strings (lengths 0 to 3 of 10 characters). Lower 'distinctValues', or " +
      "allow more strings with a larger 'maxLength' or more characters.")
    assert(parse(Map("distinctValues" -> "1111", "charset" -> "digits", "maxLength" -> "3"))
      .strings.distinctValues.contains(1111L))
  }

  test("the options of time: none given is no timestamp column, no fixed origin, no profile") {
    val options = parse(Map.empty)
    assert(!options.timestampColumn && options.startTimestamp.isEmpty && options.rateProfile.isEmpty)
    val definition = options.definition(5L, () => 1L)
    assert(!definition.timestampColumn && definition.eventTimeOriginMs == 5L && definition.rateProfile.isEmpty)
  }

  test("the options of time are parsed, names case-insensitively, values trimmed") {
    val options = parse(Map(
      "TIMESTAMPCOLUMN" -> " True ",
      "starttimestamp" -> Long.MinValue.toString,
      "RateProfile" -> "10s@5 , 2s@5..0, repeat"))
    assert(options.timestampColumn)
    assert(options.startTimestamp.contains(Long.MinValue))
    assert(options.rateProfile.map(_.canonical).contains("10s@5,2s@5..0,repeat"))
    assert(options.rowsPerSecond == DefaultRowsPerSecond, "a profile leaves rowsPerSecond at its default")
    assert(!parse(Map("timestampColumn" -> "FALSE")).timestampColumn)
    val definition = options.definition(7L, () => 1L)
    assert(definition.timestampColumn && definition.eventTimeOriginMs == Long.MinValue)
    assert(definition.rateProfile == options.rateProfile && definition.startTimeMs == 7L)
  }

  test("timestampColumn takes only true or false") {
    for (text <- Seq("yes", "1", "", "truee")) {
      assert(error(Map("timestampColumn" -> text)) ==
        s"Invalid value '$text' for option 'timestampColumn'. Allowed: true or false (case-insensitive).")
    }
  }

  test("rateProfile and rowsPerSecond are exclusive, even at rowsPerSecond's default") {
    assert(error(Map("rowsPerSecond" -> "10", "rateProfile" -> "1s@5")) ==
      "Options that do not fit together: 'rowsPerSecond' is 10, but 'rateProfile' is set. The profile " +
      "sets the rate: remove 'rowsPerSecond', or remove 'rateProfile'.")
  }

  test("a bad rateProfile fails with the profile's own message") {
    assert(error(Map("rateProfile" -> "10s@5,repeat,1s@1")) ==
      "Invalid value '10s@5,repeat,1s@1' for option 'rateProfile': phase 2 is 'repeat', which only ends " +
      s"a profile. Allowed: ${RateProfile.Phases}.")
  }

  test("alphabet wins over charset, and is the set of its distinct characters") {
    val options = parse(Map("charset" -> "digits", "alphabet" -> "GATTACA"))
    assert(options.strings.characters == CharacterSet.alphabet("alphabet", "ACGT"))
    assert(options.strings.characters.size == 4)
  }

  test("the extreme allowed values are accepted") {
    val options = parse(Map(
      "rowsPerSecond" -> Long.MaxValue.toString,
      "minLength" -> "1048576",
      "maxLength" -> "1048576",
      "seed" -> Long.MinValue.toString,
      "numPartitions" -> Int.MaxValue.toString))
    assert(options.rowsPerSecond == Long.MaxValue)
    assert(options.strings.minLength == 1048576 && options.strings.maxLength == 1048576)
    assert(options.seed.contains(Long.MinValue))
  }

  // Every invalid option value the user can give is a case of the shared invalid-input table
  // (tests/vectors/invalid_inputs.json), which InvalidInputSuite runs through load() on every
  // line. The tests below pin what that table cannot say.

  private def error(options: Map[String, String]): String =
    intercept[IllegalArgumentException](parse(options)).getMessage

  test("an alphabet holding a lone surrogate is rejected, naming its code point") {
    // Not in the shared table: Python cannot send a lone surrogate to the JVM.
    val message = error(Map("alphabet" -> "ab\uD800"))
    Seq("'alphabet'", "surrogate", "U+D800").foreach(w => assert(message.contains(w), message))
  }

  test("an unknown option far from every known one gets no suggestion") {
    assert(!error(Map("colour" -> "blue")).contains("Did you mean"))
  }

  test("names come back as the user wrote them from the case-insensitive map Spark passes") {
    val message = error(CaseInsensitiveMap(Map("RowPerSecond" -> "5")))
    assert(message.startsWith("Unknown option 'RowPerSecond' for the InMemoryRandomStrings source."))
    assert(message.contains("Did you mean 'rowsPerSecond'?"))
  }

  test("a stored definition is checked by the same rules, with the same messages, as the options") {
    val stored = StreamDefinition(1L, 0L, 10L, StringValues(0, 4, CharacterSet.Alphanumeric))
    assert(stored.validated() == stored)
    def storedError(d: StreamDefinition): String = intercept[IllegalArgumentException](d.validated()).getMessage
    assert(storedError(stored.copy(rowsPerSecond = 0L)) == error(Map(ROWS_PER_SECOND -> "0")))
    assert(storedError(stored.copy(rowsPerSecond = 0L)) ==
      "Invalid value '0' for option 'rowsPerSecond': out of range. Allowed: a whole number >= 1.")
    assert(storedError(stored.copy(strings =
      stored.strings.copy(minLength = 5, maxLength = 3))) == error(Map(MIN_LENGTH -> "5", MAX_LENGTH -> "3")))
    val late = stored.copy(shape = RowShape.Plain.copy(lateRowFraction = 0.1))
    assert(storedError(late) == error(Map(LATE_ROW_FRACTION -> "0.1")))
    val pareto = stored.copy(strings = stored.strings.copy(distinctValues = Some(10L), valueDistribution = "pareto"))
    assert(storedError(pareto) == error(Map(DISTINCT_VALUES -> "10", VALUE_DISTRIBUTION -> "pareto")))
    val tooMany = stored.copy(strings = StringValues(0, 3, CharacterSet.Digits, distinctValues = Some(1112L)))
    assert(storedError(tooMany) == error(Map(DISTINCT_VALUES -> "1112", CHARSET -> "digits", MAX_LENGTH -> "3")))
  }

  test("_manualClock names a registered clock, case-insensitively, and is not among the documented options") {
    val clock = ManualClock.register("options-suite", 42L)
    assert(parse(Map("_MANUALCLOCK" -> "options-suite")).clock == StreamClock.Manual("options-suite"))
    assert(parse(Map.empty).clock == StreamClock.System)
    assert(StreamClock.Manual("options-suite").nowMs() == 42L && clock.advance(8L) == 50L)
    assert(!Names.contains(MANUAL_CLOCK) && InternalNames == Seq("_manualClock"))
    val error = intercept[IllegalArgumentException](parse(Map("_manualClock" -> "nowhere")))
    assert(error.getMessage == "Invalid value 'nowhere' for option '_manualClock': no manual clock of that name " +
      "is registered in this JVM. The option is for tests: register one first with " +
      "io.github.sparkrandomstrings.time.ManualClock.register(\"nowhere\", startMs), or remove '_manualClock'.")
    ManualClock.unregister("options-suite")
    intercept[IllegalArgumentException](parse(Map("_manualClock" -> "options-suite")))
  }
}
