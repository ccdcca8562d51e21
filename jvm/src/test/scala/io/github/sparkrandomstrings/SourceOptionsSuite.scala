package io.github.sparkrandomstrings

import org.scalatest.funsuite.AnyFunSuite

class SourceOptionsSuite extends AnyFunSuite {
  import SourceOptions._

  test("defaults: 10 rows/s, lengths 0 to 4, alphanumeric, no seed, no caps") {
    assert(parse(Map.empty) == SourceOptions(10L, 0, 4, CharacterSet.Alphanumeric, None, None, None, None))
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
    assert(options == SourceOptions(250L, 2, 9, CharacterSet.Hex, Some(-7L), Some(3), Some(1000L), Some(0L)))
  }

  test("alphabet wins over charset, and is the set of its distinct characters") {
    val options = parse(Map("charset" -> "digits", "alphabet" -> "GATTACA"))
    assert(options.characters == CharacterSet.alphabet("alphabet", "ACGT"))
    assert(options.characters.size == 4)
  }

  test("the extreme allowed values are accepted") {
    val options = parse(Map(
      "rowsPerSecond" -> Long.MaxValue.toString,
      "minLength" -> "1048576",
      "maxLength" -> "1048576",
      "seed" -> Long.MinValue.toString,
      "numPartitions" -> Int.MaxValue.toString))
    assert(options.rowsPerSecond == Long.MaxValue)
    assert(options.minLength == 1048576 && options.maxLength == 1048576)
    assert(options.seed.contains(Long.MinValue))
  }

  // (options, words the message must contain)
  private val invalid: Seq[(Map[String, String], Seq[String])] = Seq(
    Map("rowsPerSecond" -> "ten") -> Seq("'ten'", "'rowsPerSecond'", "not a whole number", ">= 1"),
    Map("rowsPerSecond" -> "0") -> Seq("'0'", "'rowsPerSecond'", "out of range", ">= 1"),
    Map("rowsPerSecond" -> "-5") -> Seq("'-5'", "'rowsPerSecond'", ">= 1"),
    Map("rowsPerSecond" -> "1.5") -> Seq("'1.5'", "'rowsPerSecond'", "not a whole number"),
    Map("rowsPerSecond" -> "") -> Seq("''", "'rowsPerSecond'", "not a whole number"),
    Map("rowsPerSecond" -> "9223372036854775808") -> Seq("'9223372036854775808'", "out of range"),
    Map("minLength" -> "-1") -> Seq("'-1'", "'minLength'", "from 0 to 1048576"),
    Map("maxLength" -> "1048577") -> Seq("'1048577'", "'maxLength'", "from 0 to 1048576"),
    Map("maxLength" -> "99999999999") -> Seq("'99999999999'", "'maxLength'", "out of range"),
    Map("minLength" -> "5", "maxLength" -> "3") -> Seq("'minLength' is 5", "'maxLength' is 3", "less than or equal"),
    Map("minLength" -> "5") -> Seq("'minLength' is 5", "'maxLength' is 4 (its default)"),
    Map("charset" -> "klingon") -> Seq("'klingon'", "'charset'", "alphanumeric, letters, digits, hex, ascii, unicode"),
    Map("charset" -> "") -> Seq("''", "'charset'", "unknown character set"),
    Map("alphabet" -> "") -> Seq("'alphabet'", "empty"),
    Map("alphabet" -> "ab\uD800") -> Seq("'alphabet'", "surrogate", "U+D800"),
    Map("seed" -> "lucky") -> Seq("'lucky'", "'seed'", "64-bit long"),
    Map("seed" -> "18446744073709551616") -> Seq("'seed'", "out of range"),
    Map("numPartitions" -> "0") -> Seq("'0'", "'numPartitions'", "from 1 to 2147483647"),
    Map("numPartitions" -> "2147483648") -> Seq("'numPartitions'", "from 1 to 2147483647"),
    Map("maxRowsPerTrigger" -> "0") -> Seq("'maxRowsPerTrigger'", ">= 1"),
    Map("maxRowsPerTrigger" -> "many") -> Seq("'many'", "'maxRowsPerTrigger'"),
    Map("totalRows" -> "-1") -> Seq("'-1'", "'totalRows'", ">= 0"),
    Map("rowPerSecond" -> "5") -> Seq("Unknown option 'rowPerSecond'", "Did you mean 'rowsPerSecond'?"),
    Map("max_length" -> "5") -> Seq("Unknown option 'max_length'", "Did you mean 'maxLength'?"),
    Map("charsets" -> "hex") -> Seq("Unknown option 'charsets'", "Did you mean 'charset'?"),
    Map("colour" -> "blue") -> Seq("Unknown option 'colour'", "Known options (case-insensitive): rowsPerSecond"),
    Map("path" -> "/tmp/x") -> Seq("Unknown option 'path'", "reads no path"))

  for ((options, words) <- invalid) {
    // Test names go into XML reports: show characters outside printable ASCII as escapes.
    val shown = options.toString.flatMap(c => if (c >= ' ' && c <= '~') c.toString else f"\\u${c.toInt}%04X")
    test(s"invalid options are rejected with a message naming them: $shown") {
      val error = intercept[IllegalArgumentException](parse(options))
      words.foreach(w => assert(error.getMessage.contains(w), s"'$w' not in: ${error.getMessage}"))
    }
  }

  test("an unknown option far from every known one gets no suggestion") {
    val error = intercept[IllegalArgumentException](parse(Map("colour" -> "blue")))
    assert(!error.getMessage.contains("Did you mean"))
  }
}
