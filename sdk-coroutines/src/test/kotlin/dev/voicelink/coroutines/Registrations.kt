package dev.voicelink.coroutines

import dev.voicelink.auth.TokenManager
import dev.voicelink.interact.InteractionChannel

/**
 * How many listeners the SDK holds, read where the SDK keeps them (its tests' count is package-private):
 * a flow whose collector is gone must have removed its own.
 */
object Registrations {
  fun of(tokens: TokenManager): Int {
    val keeper = field(tokens, "keeper")
    val notices = field(keeper, "notices")
    return (field(notices, "listeners") as Collection<*>).size
  }

  fun of(channel: InteractionChannel): Int {
    val count = InteractionChannel::class.java.getDeclaredMethod("listenerCount")
    count.isAccessible = true
    return count.invoke(channel) as Int
  }

  private fun field(owner: Any, name: String): Any {
    val field = owner.javaClass.getDeclaredField(name)
    field.isAccessible = true
    return field.get(owner)!!
  }
}
