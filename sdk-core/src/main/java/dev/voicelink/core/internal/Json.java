package dev.voicelink.core.internal;

import com.squareup.moshi.Moshi;

/** The one Moshi instance of the SDK. It holds no reflective adapters: parsing is explicit. */
public final class Json {
  public static final Moshi MOSHI = new Moshi.Builder().build();

  private Json() {
  }
}
