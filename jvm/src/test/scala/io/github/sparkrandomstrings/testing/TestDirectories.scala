package io.github.sparkrandomstrings.testing

import java.io.File
import java.nio.file.Files

import scala.reflect.io.Directory

/** Temporary folders that are removed after use, also when the test fails. */
trait TestDirectories {
  def withTempDir[T](body: File => T): T = {
    val dir = Files.createTempDirectory("random-strings-test").toFile
    try body(dir)
    finally new Directory(dir).deleteRecursively()
  }
}
