package io.github.sparkrandomstrings

import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.strings.RandomStringsProvider

/**
 * A streaming source of random strings, for testing, benchmarking and demonstrating streaming
 * pipelines: `spark.readStream.format("InMemoryRandomStrings")`.
 *
 * Each row is (value STRING, ts LONG, offset LONG, length INT), all not null, and with
 * `timestampColumn` a last column (timestamp TIMESTAMP), not null either:
 *  - `value`: the random string, its length uniform over [minLength, maxLength] and each
 *    character uniform over the character set;
 *  - `ts`: the row's event time in epoch ms, origin + offset * 1000 / rowsPerSecond (rounded
 *    down), where the origin is `startTimestamp` or else the stream's first start;
 *  - `offset`: the row's 0-based position in the stream;
 *  - `length`: the length of `value` in characters (Unicode code points);
 *  - `timestamp`: `ts` as a TIMESTAMP, for `withWatermark` and `window` with no cast.
 *
 * Options (names are case-insensitive; every value is checked when the stream is loaded):
 *  - `rowsPerSecond` (e.g. 1000, default: 10): how many rows become available per second.
 *  - `minLength` (e.g. 5, default: 0): the shortest string, 0 to 1,048,576 code points.
 *  - `maxLength` (e.g. 20, default: 4): the longest string, minLength to 1,048,576.
 *  - `charset` (e.g. hex, default: alphanumeric): the characters to draw from: alphanumeric,
 *    letters, digits, hex (0-9a-f), ascii (printable, 0x20-0x7E), or unicode (every scalar
 *    value except surrogates and control characters).
 *  - `alphabet` (e.g. ACGT, default: none): the characters to draw from, each distinct one
 *    counted once; wins over `charset`.
 *  - `seed` (e.g. 42, default: drawn once, kept in the checkpoint): the seed of every row.
 *  - `numPartitions` (e.g. 8, default: the session's default parallelism): partitions per
 *    batch; each makes its own slice of the batch on an executor.
 *  - `maxRowsPerTrigger` (e.g. 100000, default: no limit): the most rows one batch reads.
 *  - `totalRows` (e.g. 1000000, default: unbounded): the stream ends after this many rows.
 *  - `distinctValues` (e.g. 1000, default: none): `value` is one of exactly this many distinct
 *    strings (1 to 2^31-1), a pool whose entry k is a pure function of (seed, k); `load()`
 *    fails, saying how many the lengths and characters allow, if they allow fewer.
 *  - `valueDistribution` (e.g. zipf, default: uniform): how rows pick pool entries, uniform or
 *    zipf (entry k with probability proportional to 1 / (k + 1)^s). Needs `distinctValues`.
 *  - `zipfExponent` (e.g. 1.2, default: 1.0): s of zipf, above 0 and at most 10. Only with zipf.
 *  - `maxOutOfOrderMs` (e.g. 5000, default: 0): each row's `ts` moves back from its in-order
 *    time by a delay uniform over [0, maxOutOfOrderMs].
 *  - `lateRowFraction` (e.g. 0.01, default: 0): the probability, 0 to 1, that a row is late:
 *    its `ts` moves back by `lateByMs` more.
 *  - `lateByMs` (e.g. 60000, default: none): how late a late row is, >= 1; required when
 *    `lateRowFraction` > 0.
 *  - `duplicateFraction` (e.g. 0.01, default: 0): the probability, 0 to below 1, that a row
 *    repeats the `value` and `ts` of the row emitted 1 to `maxDuplicateDistance` offsets before.
 *  - `maxDuplicateDistance` (e.g. 100, default: 1000): how far back a repeated row may be, >= 1.
 *    Only with `duplicateFraction`.
 *  - `timestampColumn` (e.g. true, default: false): adds the last column `timestamp`, `ts` as a
 *    TIMESTAMP NOT NULL (true or false, case-insensitive).
 *  - `startTimestamp` (e.g. 1700000000000, default: none): the event time of offset 0, in epoch
 *    ms; without it, the stream's first start. Rows still become available by the wall clock
 *    from the first start, so two fresh runs with the same seed make the same rows, `ts` too.
 *  - `rateProfile` (e.g. 30s@100..5000, default: none): phases the rate follows from the first
 *    start, in place of `rowsPerSecond`: separated by commas, each `DURATION@RATE` (steady) or
 *    `DURATION@FROM..TO` (a linear ramp, in whole-second steps at the line's value in the middle
 *    of each step, rounded down); DURATION 1ms to 60m in ms, s or m; rates 0 to 1000000000 rows
 *    per second; at most 1000 phases. After the last phase its last rate holds, unless the last
 *    item is `repeat`, which starts over: e.g. `60s@1000, 30s@1000..20000, 10s@20000, 20s@0,
 *    repeat`. Not with `rowsPerSecond`.
 *  - `realTime` (e.g. true, default: false): reads the stream through Spark's DSv2 streaming
 *    interfaces, which real-time mode (`Trigger.RealTime`, Spark 4.1+) needs: each partition
 *    hands its rows on as they come to exist ([[realtime.OffsetRowsStream]]). Micro-batch triggers read
 *    it too (not with `maxRowsPerTrigger` in real-time mode). Refused at `load()` before Spark 4.1.
 *    Its offsets are per partition, so `numPartitions` is then fixed for the checkpoint.
 *
 * The shaping options (`distinctValues` to `maxDuplicateDistance`) move only `value` and `ts`:
 * `offset` stays each row's unique position, `length` matches `value`, and rows still become
 * available in offset order at `rowsPerSecond` (or by the profile). Options that do not fit
 * together (a Zipf exponent without zipf, `lateByMs` without a fraction, a profile with
 * `rowsPerSecond`) fail at `load()`.
 *
 * Typed columns: with a declared schema, `.schema(DDL or StructType)` (BOOLEAN, TINYINT,
 * SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), STRING, BINARY, DATE, TIMESTAMP,
 * TIMESTAMP_NTZ, and ARRAY and STRUCT of them), the rows are its columns, and the options
 * `fields.<column>.<property>` say how each is made (a path: `fields.shipping.zip.pattern`,
 * `fields.tags.element.values`; backticks around a name with a dot). The properties, each
 * allowed only where it makes sense ([[typed.TypedColumns]] checks them; `docs/typed-columns.md` says
 * how each draw is made):
 *  - `kind` (default: random): random, sequence (`start` 0, `step` 1, `end` the type's, then
 *    start again; integer types), offset (BIGINT: the row's offset), eventTime (TIMESTAMP,
 *    TIMESTAMP_NTZ, or BIGINT epoch ms: the row's event time) or values (`values`, a JSON array
 *    of the column's values; `weights`, a JSON array, or `distribution` zipf over the list);
 *  - `nullRate` (default: 0): the probability that a cell is null; nullable columns only;
 *  - `min`, `max` (numbers, DATE, timestamps; defaults: the type's range, 0 and 1 for FLOAT and
 *    DOUBLE, 0 and the largest DECIMAL, 2000-01-01 to 2030-12-31 for dates and times) and
 *    `distribution`: uniform (default), zipf (`zipfExponent`, whole numbers), normal (`mean`,
 *    `stddev`) or exponential (`mean`);
 *  - STRING: the string options above per column (`minLength`, `maxLength`, `charset`,
 *    `alphabet`, `distinctValues`, `valueDistribution`, `zipfExponent`), or `pattern`, a
 *    regular expression its strings match (literals, escapes, classes, groups, alternation and
 *    repeats; anchors, lookaround and back-references are refused);
 *  - BINARY: `minLength`, `maxLength` (bytes; defaults 0 and 16); ARRAY: `minSize`, `maxSize`
 *    (defaults 0 and 4), its elements by `element.<property>`.
 * Each cell is a pure function of (seed, column path, offset). The options of the random
 * strings' own columns (`minLength` to `zipfExponent`, and `timestampColumn`) are refused with a
 * declared schema; the row's options (rate, time, disorder, repeats) keep their meaning.
 *
 * Rows are a pure function of (seed, offset) and the options that shape them, so a restarted
 * query replays and continues the same stream. The checkpoint keeps the seed, the start time,
 * `rowsPerSecond`, the lengths, the characters, the shaping options, `timestampColumn`,
 * `startTimestamp`, `rateProfile`, and a declared schema with its `fields.` options; a restart
 * must not contradict them.
 *
 * This class is the source's public face, under the name users and `META-INF/services` give; its
 * work is [[strings.RandomStringsProvider]]'s.
 */
class RandomStringsSourceProvider extends RandomStringsProvider

/**
 * The source's name and schema, as [[options.RandomStrings]] holds them, under the provider's name: the
 * provider is the top of the source, and nothing else in it refers to it.
 */
object RandomStringsSourceProvider {

  /** The name to pass to `format`; Spark matches it case-insensitively. */
  val ShortName: String = RandomStrings.ShortName

  /** Each row: (value STRING, ts LONG, offset LONG, length INT), all not null (without `timestampColumn`). */
  val Schema: StructType = RandomStrings.Schema
}
