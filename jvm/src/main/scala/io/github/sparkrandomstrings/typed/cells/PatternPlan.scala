package io.github.sparkrandomstrings.typed.cells

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.text.Utf8

/**
 * A regular expression read as a recipe for strings that match it: the `pattern` of a string
 * column. What it reads, and how a string is drawn from it (each draw from the cell's stream,
 * in this order, left to right):
 *  - a literal character, or an escaped one (`\.`, `\-`, `\\`, ...), and `\t`, `\n`, `\r`:
 *    itself, no draw;
 *  - a class, `[a-z0-9_]`, `[^...]` (the printable ASCII characters, space to `~`, not in it),
 *    `\d` (0-9), `\w` (a-z, A-Z, 0-9, _), `\s` (space, \t, \n, \r) and `.` (printable ASCII):
 *    one character, uniform over the class's characters;
 *  - `a|b|c`: one alternative, uniform;
 *  - a repeat, `x?`, `x{n}`, `x{m,n}`, and the open ones, `x*` = `x{0,8}`, `x+` = `x{1,8}`,
 *    `x{m,}` = `x{m,m+8}` ([[OpenRepeatExtra]] more at most): how many times, uniform over
 *    its range, then each time in turn;
 *  - groups, `(...)` and `(?:...)`, only group.
 * Anything else (anchors `^` `$` `\b`, lookaround, back-references, named groups, flags,
 * possessive and lazy repeats, classes such as `\p{...}`) cannot be generated and is refused,
 * naming its position.
 */
sealed trait PatternPlan extends Serializable {

  /**
   * The most a string of this plan measures, each character counted as `size` of its code point:
   * exact, as repeats of repeats may multiply past any `Long` (and a `Long`'s wrapped product
   * could pass the check of [[PatternPlan.parse]]).
   */
  def most(size: Int => Int): BigInt

  /** The most code points a string of this plan holds. */
  def maxLength: BigInt = most(_ => 1)

  /** The most UTF-8 bytes a string of this plan takes. */
  def maxUtf8Bytes: BigInt = most(Utf8.length)
}

object PatternPlan {

  /** How many more times than their least an open repeat (`*`, `+`, `{m,}`) goes at most. */
  val OpenRepeatExtra: Int = 8

  /** The most code points a pattern's strings may hold. */
  val MaxLength: Long = RandomStrings.LengthCap.toLong

  /** The characters of `.` and of a negated class: printable ASCII, space to `~`. */
  private val Printable: Array[Int] = (0x20 to 0x7E).toArray

  final case class Literal(codePoint: Int) extends PatternPlan {
    def most(size: Int => Int): BigInt = BigInt(size(codePoint))
  }
  final case class AnyOf(codePoints: IndexedSeq[Int]) extends PatternPlan {
    def most(size: Int => Int): BigInt = BigInt(codePoints.map(size).max)

    /** The code points as an array, which a string's draw indexes without boxing. */
    val table: Array[Int] = codePoints.toArray
  }
  final case class Sequence(parts: IndexedSeq[PatternPlan]) extends PatternPlan {
    def most(size: Int => Int): BigInt = parts.map(_.most(size)).sum

    /** The parts as an array, which a string's draw walks. */
    val steps: Array[PatternPlan] = parts.toArray
  }
  final case class Either(alternatives: IndexedSeq[PatternPlan]) extends PatternPlan {
    def most(size: Int => Int): BigInt = alternatives.map(_.most(size)).max

    /** The alternatives as an array, which a string's draw indexes. */
    val choices: Array[PatternPlan] = alternatives.toArray
  }
  final case class Repeat(part: PatternPlan, min: Int, max: Int) extends PatternPlan {
    def most(size: Int => Int): BigInt = part.most(size) * max
  }

  /**
   * The plan of `pattern`, the value of option `option`.
   *
   * @throws IllegalArgumentException naming the option, the position and what it cannot generate
   */
  def parse(option: String, pattern: String): PatternPlan = {
    val plan = new Parser(option, pattern).parse()
    val longest = plan.maxLength
    if (longest > MaxLength) {
      throw new IllegalArgumentException(
        s"Invalid value '$pattern' for option '$option': its strings may be $longest " +
          s"characters long, and the longest allowed is $MaxLength. Lower its repeats.")
    }
    plan
  }

  private final class Parser(option: String, pattern: String) {
    private val points = pattern.codePoints().toArray
    private var at = 0

    private def refuse(why: String, position: Int = at): Nothing =
      throw new IllegalArgumentException(
        s"Invalid value '$pattern' for option '$option': $why at position $position. A pattern may " +
          "hold literals, escapes, classes ([a-z], \\d, \\w, \\s, .), groups, alternation (|) and " +
          "repeats (?, *, +, {n}, {m,n}); anchors, lookaround and back-references cannot be generated.")

    private def more: Boolean = at < points.length
    private def peek: Int = points(at)

    def parse(): PatternPlan = {
      val plan = alternatives()
      if (more) refuse(s"an unmatched '${new String(Character.toChars(peek))}'")
      plan
    }

    private def alternatives(): PatternPlan = {
      val options = IndexedSeq.newBuilder[PatternPlan]
      options += sequence()
      while (more && peek == '|') {
        at += 1
        options += sequence()
      }
      val all = options.result()
      if (all.length == 1) all.head else Either(all)
    }

    private def sequence(): PatternPlan = {
      val parts = IndexedSeq.newBuilder[PatternPlan]
      while (more && peek != '|' && peek != ')') parts += repeated(atom())
      val all = parts.result()
      if (all.length == 1) all.head else Sequence(all)
    }

    private def atom(): PatternPlan = {
      val start = at
      val c = peek
      at += 1
      c match {
        case '(' =>
          if (more && peek == '?') {
            if (at + 1 < points.length && points(at + 1) == ':') at += 2
            else refuse("a group with '?' (lookaround, a named group or flags)", start)
          }
          val inner = alternatives()
          if (!more || peek != ')') refuse("a group that does not close", start)
          at += 1
          inner
        case '[' => bracketClass(start)
        case '.' => AnyOf(Printable.toIndexedSeq)
        case '\\' => escape(start, inClass = false)
        case '^' | '$' => refuse(s"the anchor '${c.toChar}'", start)
        case '*' | '+' | '?' | '{' => refuse(s"a repeat '${c.toChar}' with nothing before it", start)
        case ')' => refuse("an unmatched ')'", start)
        case _ => Literal(c)
      }
    }

    /** The escape after a backslash at `start`: a literal or a class. */
    private def escape(start: Int, inClass: Boolean): PatternPlan = {
      if (!more) refuse("a backslash at the end", start)
      val c = peek
      at += 1
      c match {
        case 'd' => AnyOf(('0'.toInt to '9'.toInt).toIndexedSeq)
        case 'w' => AnyOf((('0' to '9') ++ ('A' to 'Z') ++ Seq('_') ++ ('a' to 'z')).map(_.toInt).toIndexedSeq)
        case 's' => AnyOf(IndexedSeq('\t'.toInt, '\n'.toInt, '\r'.toInt, ' '.toInt))
        case 't' => Literal('\t')
        case 'n' => Literal('\n')
        case 'r' => Literal('\r')
        case 'b' | 'B' | 'A' | 'z' | 'Z' | 'G' => refuse(s"the anchor '\\${c.toChar}'", start)
        case d if d >= '1' && d <= '9' && !inClass => refuse("a back-reference", start)
        case l if Character.isLetterOrDigit(l) => refuse(s"the escape '\\${new String(Character.toChars(l))}'", start)
        case other => Literal(other)
      }
    }

    private def bracketClass(start: Int): PatternPlan = {
      val negated = more && peek == '^'
      if (negated) at += 1
      val members = scala.collection.mutable.TreeSet.empty[Int]
      var first = true
      while (more && (peek != ']' || first)) {
        first = false
        val from = classMember(start)
        if (more && peek == '-' && at + 1 < points.length && points(at + 1) != ']') {
          at += 1
          val to = classMember(start)
          (from, to) match {
            case (Literal(a), Literal(b)) if a <= b => members ++= (a to b)
            case (Literal(_), Literal(_)) => refuse("a range whose end is before its start", at - 1)
            case _ => refuse("a range with a class as an end", at - 1)
          }
        } else {
          from match {
            case Literal(a) => members += a
            case AnyOf(all) => members ++= all
            case _ => ()
          }
        }
      }
      if (!more) refuse("a class that does not close", start)
      at += 1
      val chosen =
        if (negated) Printable.filterNot(members.contains).toIndexedSeq
        else members.toIndexedSeq
      if (chosen.isEmpty) refuse("a class with no character in it", start)
      AnyOf(chosen)
    }

    private def classMember(start: Int): PatternPlan = {
      val c = peek
      at += 1
      if (c == '\\') escape(at - 1, inClass = true)
      else if (c == '[' && more && (peek == ':' || peek == '=' || peek == '.')) refuse("a POSIX class", at - 1)
      else Literal(c)
    }

    private def repeated(part: PatternPlan): PatternPlan = {
      if (!more) return part
      val start = at
      val (min, max) = peek match {
        case '?' => at += 1; (0, 1)
        case '*' => at += 1; (0, OpenRepeatExtra)
        case '+' => at += 1; (1, 1 + OpenRepeatExtra)
        case '{' => braces(start)
        case _ => return part
      }
      if (more && (peek == '?' || peek == '+')) refuse("a lazy or possessive repeat", at)
      if (more && (peek == '*' || peek == '{')) refuse("a repeat of a repeat", at)
      if (min == 1 && max == 1) part else Repeat(part, min, max)
    }

    private def braces(start: Int): (Int, Int) = {
      at += 1
      def number(): Option[Int] = {
        val from = at
        while (more && peek >= '0' && peek <= '9') at += 1
        if (at == from) None
        else {
          val digits = new String(points, from, at - from)
          if (digits.length > 7) refuse("a repeat count above 1000000", from)
          Some(digits.toInt)
        }
      }
      val min = number().getOrElse(refuse("a '{' that is not a repeat such as {3} or {2,5}", start))
      val max =
        if (more && peek == ',') {
          at += 1
          number().getOrElse(min + OpenRepeatExtra)
        } else min
      if (!more || peek != '}') refuse("a repeat that does not close with '}'", start)
      at += 1
      if (max < min) refuse(s"a repeat whose most ($max) is below its least ($min)", start)
      (min, max)
    }
  }
}
