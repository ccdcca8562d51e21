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
 * Options (names are case-insensitive; every value is checked when the stream is loaded), made from
 * the options table of `README.md` (`make options`):
 *  - `rowsPerSecond` (default: 10): rows become available at this rate: t ms after the first start,
 *    floor(t * rowsPerSecond / 1000) rows exist. Not with `rateProfile`. Allowed: long >= 1.
 *  - `minLength` (default: 0): the shortest string, in code points. Allowed: int, 0 to 1,048,576.
 *  - `maxLength` (default: 4): the longest string; each length is uniform over [minLength,
 *    maxLength]. Allowed: int, minLength to 1,048,576.
 *  - `charset` (default: alphanumeric): the characters to draw from, uniformly. Allowed:
 *    `alphanumeric`, `letters`, `digits`, `hex` (0-9a-f), `ascii` (printable 0x20-0x7E), `unicode`
 *    (every scalar value except surrogates and control characters).
 *  - `alphabet` (default: none): the characters to draw from, each distinct one counted once; wins
 *    over `charset`. Allowed: a non-empty string.
 *  - `seed` (default: drawn once, kept in the checkpoint): the seed of every row. Allowed: long.
 *  - `numPartitions` (default: the session's default parallelism): partitions (tasks) per batch.
 *    Allowed: int >= 1.
 *  - `maxRowsPerTrigger` (default: no limit): the most rows one micro-batch reads. Allowed: long
 *    >= 1.
 *  - `totalRows` (default: unbounded): the stream ends after this many rows. Allowed: long >= 0.
 *  - `distinctValues` (default: none): `value` is one of exactly N distinct strings: pool entry k
 *    is a pure function of (seed, k), within the lengths and characters, no two equal; `load()`
 *    fails, saying how many strings the options allow, when they allow fewer. Allowed: long, 1 to
 *    2^31-1.
 *  - `valueDistribution` (default: uniform): how rows pick pool entries; `zipf` picks entry k with
 *    probability proportional to 1/(k+1)^s. Needs `distinctValues`. Allowed: `uniform`, `zipf`.
 *  - `zipfExponent` (default: 1.0): s above. Only with `zipf`. Allowed: double > 0, at most 10.
 *  - `maxOutOfOrderMs` (default: 0): each row's `ts` is its in-order time minus a delay uniform
 *    over [0, maxOutOfOrderMs]. Allowed: long >= 0.
 *  - `lateRowFraction` (default: 0): each row is, with this probability, late: its `ts` moves back
 *    by a further `lateByMs`. Allowed: double, 0 to 1.
 *  - `lateByMs` (default: none): how late a late row is; required when `lateRowFraction` > 0,
 *    refused otherwise. Allowed: long >= 1.
 *  - `duplicateFraction` (default: 0): each row is, with this probability, an exact repeat of the
 *    `value` and `ts` of the row emitted 1 to `maxDuplicateDistance` offsets before it (never
 *    before offset 0). Allowed: double, 0 to below 1.
 *  - `maxDuplicateDistance` (default: 1000): see above; only with `duplicateFraction`. Allowed:
 *    long >= 1.
 *  - `timestampColumn` (default: false): adds a last column, `timestamp` (TIMESTAMP): `ts` as
 *    Spark's timestamp, for `withWatermark` and `window` with no cast. Allowed: `true`, `false`.
 *  - `startTimestamp` (default: none): the event time of offset 0; without it, the time the stream
 *    first starts. Rows still become available by the clock from the first start. Allowed: long
 *    (epoch ms).
 *  - `rateProfile` (default: none): the rate follows these phases from the first start, instead of
 *    one `rowsPerSecond` (below). Allowed: phases, e.g. `60s@1000, 30s@1000..20000, 10s@0, repeat`.
 *  - `realTime` (default: false): read the stream through Spark's DSv2 interfaces, which real-time
 *    mode (`Trigger.RealTime`, Spark 4.1+) needs: each partition hands each row on the moment it
 *    comes to exist. Micro-batch triggers read it too. `numPartitions` is then fixed for the
 *    checkpoint, and `maxRowsPerTrigger` refused in real-time mode. Refused on Spark 3.5 and 4.0
 *    and by the Python data source (docs/real-time.md). Allowed: `true`, `false`.
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
