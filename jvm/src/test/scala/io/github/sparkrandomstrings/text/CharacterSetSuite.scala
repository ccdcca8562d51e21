package io.github.sparkrandomstrings.text

import org.scalatest.funsuite.AnyFunSuite

class CharacterSetSuite extends AnyFunSuite {

  private def all(set: CharacterSet): String = {
    val cps = (0 until set.size).map(set.codePoint).toArray
    new String(cps, 0, cps.length)
  }

  test("the named sets hold exactly their characters, in code point order") {
    assert(all(CharacterSet.Digits) == "0123456789")
    assert(all(CharacterSet.Hex) == "0123456789abcdef")
    assert(all(CharacterSet.Letters) == ('A' to 'Z').mkString + ('a' to 'z').mkString)
    assert(all(CharacterSet.Alphanumeric) == ('0' to '9').mkString + ('A' to 'Z').mkString + ('a' to 'z').mkString)
    assert(all(CharacterSet.Ascii) == (0x20 to 0x7E).map(_.toChar).mkString)
  }

  test("unicode is every scalar value but surrogates and control characters") {
    val set = CharacterSet.Unicode
    assert(set.size == 95 + (0xD7FF - 0xA0 + 1) + (0x10FFFF - 0xE000 + 1))
    val expected = (0 to 0x10FFFF).filter(cp =>
      Character.getType(cp) != Character.SURROGATE && Character.getType(cp) != Character.CONTROL)
    assert(expected.size == set.size)
    assert(expected.indices.forall(i => set.codePoint(i) == expected(i)))
    assert(set.maxUtf8Bytes == 4 && !set.isAscii)
  }

  test("an alphabet counts each distinct character once, whatever the order") {
    val a = CharacterSet.alphabet("alphabet", "abca")
    assert(a.size == 3)
    assert(a == CharacterSet.alphabet("alphabet", "cab"))
    assert(a.description == "alphabet=abc")
    assert(all(CharacterSet.alphabet("alphabet", "zyx\uD83D\uDE00é")) == "xyzé\uD83D\uDE00")
  }

  test("an alphabet with many scattered characters maps every index to its character") {
    val scattered = (0 until 500).map(i => i * 37 + 0x100)
    val set = CharacterSet.alphabet("alphabet", new String(scattered.reverse.toArray, 0, 500))
    assert((0 until 500).map(set.codePoint) == scattered)
  }

  test("charset names are case-insensitive") {
    assert(CharacterSet.named("charset", " Unicode ") eq CharacterSet.Unicode)
  }
}
