package io.github.sparkrandomstrings.nexmark

import java.nio.charset.StandardCharsets

/**
 * A reusable buffer of ASCII text: the generator writes each string field of an event into one,
 * and the row writer copies its bytes into the row, so making an event allocates no `String`.
 */
final class AsciiText(initialCapacity: Int) {
  private var buffer = new Array[Byte](math.max(initialCapacity, 16))
  private var size = 0

  def bytes: Array[Byte] = buffer
  def length: Int = size

  def clear(): Unit = size = 0

  /** Room for `more` bytes after the text; returns the buffer to write them into. */
  def reserve(more: Int): Array[Byte] = {
    if (size + more > buffer.length) {
      buffer = java.util.Arrays.copyOf(buffer, math.max(buffer.length * 2, size + more))
    }
    buffer
  }

  def append(b: Byte): Unit = {
    reserve(1)(size) = b
    size += 1
  }

  def append(text: Array[Byte]): Unit = {
    System.arraycopy(text, 0, reserve(text.length), size, text.length)
    size += text.length
  }

  /** Appends `value` in decimal, zero-padded to `width` digits (at least). */
  def appendPadded(value: Int, width: Int): Unit = {
    val digits = Integer.toString(value)
    var pad = width - digits.length
    while (pad > 0) {
      append('0'.toByte)
      pad -= 1
    }
    append(digits.getBytes(StandardCharsets.US_ASCII))
  }

  /** Moves the end of the text to `newLength` (after writing straight into [[reserve]]'s buffer). */
  def setLength(newLength: Int): Unit = size = newLength

  /** Drops leading and trailing spaces, as `String.trim` does to text of letters and spaces. */
  def trim(from: Int): Unit = {
    var start = from
    while (start < size && buffer(start) == ' ') start += 1
    var end = size
    while (end > start && buffer(end - 1) == ' ') end -= 1
    if (start > from) System.arraycopy(buffer, start, buffer, from, end - start)
    size = from + (end - start)
  }

  override def toString: String = new String(buffer, 0, size, StandardCharsets.US_ASCII)
}

object AsciiText {
  def bytesOf(text: String): Array[Byte] = text.getBytes(StandardCharsets.US_ASCII)
}
