package io.github.sparkrandomstrings

/**
 * Lets the package name serve as the format: `format("io.github.sparkrandomstrings")`, for
 * Spark looks up `<package>.DefaultSource` when the format names no registered source.
 */
class DefaultSource extends RandomStringsSourceProvider
