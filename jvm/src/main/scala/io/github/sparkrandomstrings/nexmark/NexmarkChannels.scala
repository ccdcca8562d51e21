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
  final val HotChannelsRatio = 2
  final val ChannelsNumber = 10000

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

  /**
   * Every channel's name and URL as a bid's row holds them, one channel after another in one
   * array (about 1 MB, made once per JVM): the name, zeros to a multiple of 8 bytes, the URL,
   * zeros to a multiple of 8 (`NexmarkRowWriter` copies a channel's block whole). One array, not
   * one per channel: no object headers between the blocks, so they and the generator's tables
   * fit a core's L2 cache, where a bid's cold channel (half of all bids) would otherwise often
   * cost a miss to L3.
   */
  lazy val Blocks: Array[Byte] = blocksAndLayout._1

  /**
   * Where each channel's block starts in [[Blocks]] (bits 32 and up), its name's length (bits 16
   * to 31) and its URL's (bits 0 to 15): one load from 80 KB tells a bid where its channel is.
   */
  lazy val Layout: Array[Long] = blocksAndLayout._2

  private lazy val blocksAndLayout: (Array[Byte], Array[Long]) = {
    val names = Array.tabulate(HotCount + ChannelsNumber)(i => AsciiText.bytesOf(name(i)))
    val urls = Array.tabulate(HotCount + ChannelsNumber)(i => AsciiText.bytesOf(url(i)))
    val layout = new Array[Long](names.length)
    val blocks = new Array[Byte](names.indices.map(i => padded(names(i).length) + padded(urls(i).length)).sum)
    var at = 0
    for (i <- names.indices) {
      layout(i) = at.toLong << 32 | names(i).length.toLong << 16 | urls(i).length
      System.arraycopy(names(i), 0, blocks, at, names(i).length)
      at += padded(names(i).length)
      System.arraycopy(urls(i), 0, blocks, at, urls(i).length)
      at += padded(urls(i).length)
    }
    (blocks, layout)
  }

  /** `length` rounded up to a multiple of 8, as a row's variable-length values are. */
  def padded(length: Int): Int = (length + 7) & ~7

  /** Draws a bid's channel index from the event's random, after Beam's fields. */
  def draw(random: JavaRandom): Int =
    if (random.nextInt(HotChannelsRatio) > 0) random.nextInt(HotCount)
    else HotCount + random.nextInt(ChannelsNumber)
}
