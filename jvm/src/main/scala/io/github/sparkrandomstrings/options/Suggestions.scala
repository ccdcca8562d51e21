package io.github.sparkrandomstrings.options

import java.util.Locale

import org.apache.commons.text.similarity.LevenshteinDistance

/**
 * What every source of this jar says of an option it does not know or cannot read as a boolean:
 * the nearest known name, and the refusal that names the source and lists what it knows.
 */
private[sparkrandomstrings] object Suggestions {

  /**
   * The entry of `known` nearest to `name` by Levenshtein distance (Commons Text's, which
   * Spark's own suggestions use), case-insensitive, if it is near enough to be a typo.
   */
  def closest(name: String, known: Seq[String]): Option[String] =
    if (known.isEmpty) None
    else {
      val lower = name.toLowerCase(Locale.ROOT)
      val distance = LevenshteinDistance.getDefaultInstance
      val (best, edits) = known.map(k => k -> distance.apply(lower, k.toLowerCase(Locale.ROOT)).intValue).minBy(_._2)
      if (edits <= math.max(2, best.length / 3)) Some(best) else None
    }

  /**
   * Refuses the first of `names` that is neither one of `known` nor of `internal` (names the
   * documentation does not list), case-insensitive, naming `source` and the nearest known name.
   */
  def rejectUnknown(source: String, known: Seq[String], internal: Seq[String], names: Iterable[String]): Unit = {
    val all = (known ++ internal).map(_.toLowerCase(Locale.ROOT)).toSet
    names.find(n => !all.contains(n.toLowerCase(Locale.ROOT))).foreach { unknown =>
      val hint = if (unknown.equalsIgnoreCase("path")) {
        " This source makes its own rows and reads no path: call load() without one."
      } else {
        closest(unknown, known).map(c => s" Did you mean '$c'?").getOrElse("")
      }
      throw new IllegalArgumentException(
        s"Unknown option '$unknown' for the $source source." +
          s"$hint Known options (case-insensitive): ${known.mkString(", ")}.")
    }
  }

  /** The value of boolean option `name` given as `text`: true or false, case-insensitive. */
  def boolean(name: String, text: String): Boolean =
    text.trim.toLowerCase(Locale.ROOT) match {
      case "true" => true
      case "false" => false
      case _ =>
        throw new IllegalArgumentException(
          s"Invalid value '$text' for option '$name'. Allowed: true or false (case-insensitive).")
    }
}
