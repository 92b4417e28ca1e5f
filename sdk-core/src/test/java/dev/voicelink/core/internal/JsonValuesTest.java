package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** JsonValues.read gives what Moshi's readJsonValue gives, and fails where and as it fails. */
class JsonValuesTest {
  @ParameterizedTest
  @ValueSource(strings = {
      "{\"a\":1,\"b\":[true,false,null,\"x\",-2.5e3],\"c\":{\"d\":{}},\"e\":[]}",
      "{\"z\":1,\"a\":2,\"m\":3}",
      "[1,\"two\",{\"three\":3},[4]]",
      "\"text\"", "12", "true", "null",
      "{\"a\":null,\"a\":1}", // a member first null may be named again, as Moshi allows
      "{\"a\":1,}", "{\"a\" 1}", "[1,2", "{\"a\":tru}", "", "   ", "{'a':1}", "{\"a\":NaN}",
      // numbers: all Doubles, as Moshi gives them, and the same failures for what JSON forbids
      "[0,-0,1,1.0,-2.5e3,1E2,0.1,9007199254740993,123456789012345678901234567890]",
      "[1e400]", "[-1e400]", "[01]", "[1.]", "[.5]", "[+1]", "[0x10]", "[Infinity]",
  })
  void readsAndFailsAsMoshiDoes(String text) throws Exception {
    Object moshi = null;
    Throwable moshiFailure = null;
    try {
      moshi = JsonReader.of(new Buffer().writeUtf8(text)).readJsonValue();
    } catch (Exception e) {
      moshiFailure = e;
    }
    Object ours = null;
    Throwable ourFailure = null;
    try {
      ours = read(text);
    } catch (Exception e) {
      ourFailure = e;
    }

    if (moshiFailure != null) {
      assertThat(ourFailure).isNotNull().hasSameClassAs(moshiFailure)
          .hasMessage(moshiFailure.getMessage());
    } else {
      assertThat(ourFailure).isNull();
      assertThat(ours).isEqualTo(moshi);
      assertThat(String.valueOf(ours)).isEqualTo(String.valueOf(moshi)); // same order everywhere
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {254, 255, 256, 400})
  void nestsAsDeeplyAsMoshiAllows(int depth) throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < depth; i++) text.append(i % 2 == 0 ? "[" : "{\"k\":");
    for (int i = depth - 1; i >= 0; i--) text.append(i % 2 == 0 ? "]" : "}");
    readsAndFailsAsMoshiDoes(text.toString());
    if (depth > 256) {
      assertThat(catchThrowable(() -> read(text.toString()))).hasMessageStartingWith("Nesting too deep");
    }
  }

  @Test void aMemberNamedTwiceIsSaidByNameAndPathWithoutItsValues() {
    assertThat(catchThrowable(() -> read("{\"a\":1,\"a\":2}"))).isInstanceOf(JsonDataException.class)
        .hasMessage("member 'a' appears twice in the object at path $.a");
    assertThat(catchThrowable(() -> read("{\"x\":{\"k\":\"at-secret\",\"k\":\"rt-secret\"}}")))
        .isInstanceOf(JsonDataException.class)
        .hasMessage("member 'k' appears twice in the object at path $.x.k");
    assertThat(catchThrowable(() -> read("{\"outer\":{\"a\":[1],\"a\":{\"b\":2}}}")))
        .hasMessage("member 'a' appears twice in the object at path $.outer.a");
  }

  @Test void objectsAreLinkedHashMapsInTheOrderOfTheText() throws Exception {
    Object map = read("{\"b\":1,\"a\":{\"y\":2,\"x\":3},\"c\":3}");
    assertThat(map).isInstanceOf(LinkedHashMap.class);
    assertThat(new ArrayList<Object>(((Map<?, ?>) map).keySet())).containsExactly("b", "a", "c");
    assertThat(new ArrayList<Object>(((Map<?, ?>) ((Map<?, ?>) map).get("a")).keySet()))
        .containsExactly("y", "x");
  }

  private static Object read(String text) throws Exception {
    return JsonValues.read(JsonReader.of(new Buffer().writeUtf8(text)));
  }
}
