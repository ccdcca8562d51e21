package io.github.sparkrandomstrings.testing

/** What a failed query or load() said, for the suites' asserts. */
object Errors {

  /** The messages of `error` and of each of its causes, outermost first, joined by " | ". */
  def messages(error: Throwable): String =
    Iterator.iterate[Throwable](error)(_.getCause).takeWhile(_ != null).map(_.getMessage).mkString(" | ")
}
