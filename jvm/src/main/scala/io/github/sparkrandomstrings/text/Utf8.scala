package io.github.sparkrandomstrings.text

/** UTF-8 encoding of single code points into a byte buffer, with no allocation. */
private[sparkrandomstrings] object Utf8 {

  /** How many bytes UTF-8 takes for `codePoint`. */
  def length(codePoint: Int): Int =
    if (codePoint < 0x80) 1 else if (codePoint < 0x800) 2 else if (codePoint < 0x10000) 3 else 4

  /** Writes `codePoint` at `buffer(at)` and returns the position after it. */
  def write(codePoint: Int, buffer: Array[Byte], at: Int): Int = {
    if (codePoint < 0x80) {
      buffer(at) = codePoint.toByte
      at + 1
    } else if (codePoint < 0x800) {
      buffer(at) = (0xC0 | (codePoint >>> 6)).toByte
      buffer(at + 1) = (0x80 | (codePoint & 0x3F)).toByte
      at + 2
    } else if (codePoint < 0x10000) {
      buffer(at) = (0xE0 | (codePoint >>> 12)).toByte
      buffer(at + 1) = (0x80 | ((codePoint >>> 6) & 0x3F)).toByte
      buffer(at + 2) = (0x80 | (codePoint & 0x3F)).toByte
      at + 3
    } else {
      buffer(at) = (0xF0 | (codePoint >>> 18)).toByte
      buffer(at + 1) = (0x80 | ((codePoint >>> 12) & 0x3F)).toByte
      buffer(at + 2) = (0x80 | ((codePoint >>> 6) & 0x3F)).toByte
      buffer(at + 3) = (0x80 | (codePoint & 0x3F)).toByte
      at + 4
    }
  }
}
