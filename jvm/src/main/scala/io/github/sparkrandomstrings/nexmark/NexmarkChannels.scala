package io.github.sparkrandomstrings.nexmark

/**
 * A bid's `channel` and `url`, which Flink's generator adds to Beam's bid. Flink draws them as
 * here, but its URLs come from unseeded randoms; ours are pure functions of the channel, so they
 * replay: the URL of hot channel `i` (Google, Facebook, Baidu, Apple) is drawn from
 * `Random(-1 - i)`, and that of `channel-<n>` from `Random(n)`, which also decides, with
 * probability 9/10 as Flink's does, whether it ends with `&channel_id=<|reverse(n)|>`.
 *
 * A bid's channel is an index here: 0 to 3 the hot channels, 4 + n `channel-<n>`.
 */
object NexmarkChannels {
  val HotChannels: Seq[String] = Seq("Google", "Facebook", "Baidu", "Apple")

  /** How many hot channels: an Int, as a bid's draw reads it (a `Seq`'s length walks a list). */
  private val HotCount: Int = HotChannels.length
  val HotChannelsRatio: Int = 2
  val ChannelsNumber: Int = 10000

  private def baseUrl(random: JavaRandom): String = {
    val parts = Seq.fill(3) {
      val length = 3 + random.nextInt(2)
      val part = new StringBuilder
      for (_ <- 0 until length) part += (if (random.nextInt(13) == 0) '_' else ('a' + random.nextInt(26)).toChar)
      part.toString
    }
    "https://www.nexmark.com/" + parts.mkString("/") + "/item.htm?query=1"
  }

  private def seeded(seed: Long): JavaRandom = {
    val random = new JavaRandom
    random.reseed(seed)
    random
  }

  /** The URL of channel index `index`. */
  def url(index: Int): String =
    if (index < HotCount) baseUrl(seeded(-1L - index))
    else {
      val n = index - HotCount
      val random = seeded(n)
      val base = baseUrl(random)
      if (random.nextInt(10) > 0) base + "&channel_id=" + math.abs(Integer.reverse(n)) else base
    }

  def name(index: Int): String =
    if (index < HotCount) HotChannels(index) else s"channel-${index - HotCount}"

  /** Every channel's name and URL as bytes, made once per JVM (about 600 KB, and as much in Blocks). */
  lazy val Names: Array[Array[Byte]] =
    Array.tabulate(HotCount + ChannelsNumber)(i => AsciiText.bytesOf(name(i)))
  lazy val Urls: Array[Array[Byte]] =
    Array.tabulate(HotCount + ChannelsNumber)(i => AsciiText.bytesOf(url(i)))

  /**
   * Every channel's name and URL as a bid's row holds them: the name, zeros to a multiple of 8
   * bytes, the URL, zeros to a multiple of 8 (`NexmarkRowWriter` copies a block whole).
   */
  lazy val Blocks: Array[Array[Byte]] = Array.tabulate(Names.length) { i =>
    val name = Names(i)
    val url = Urls(i)
    val urlAt = (name.length + 7) & ~7
    val block = new Array[Byte](urlAt + ((url.length + 7) & ~7))
    System.arraycopy(name, 0, block, 0, name.length)
    System.arraycopy(url, 0, block, urlAt, url.length)
    block
  }

  /**
   * Every channel's name length (the high 16 bits) and URL length (the low 16), in 40 KB that stay
   * in the cache, where the names and URLs themselves (600 KB) would cost a miss each per bid.
   */
  lazy val Lengths: Array[Int] = Array.tabulate(Names.length)(i => Names(i).length << 16 | Urls(i).length)

  /** Draws a bid's channel index from the event's random, after Beam's fields. */
  def draw(random: JavaRandom): Int =
    if (random.nextInt(HotChannelsRatio) > 0) random.nextInt(HotCount)
    else HotCount + random.nextInt(ChannelsNumber)
}
