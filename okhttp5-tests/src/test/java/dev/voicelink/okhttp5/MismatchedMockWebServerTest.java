package dev.voicelink.okhttp5;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.testing.ReferenceServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An app on OkHttp 5 whose tests keep the MockWebServer 4 that voicelink-testing brings: the
 * execution "mockwebserver4" (pom.xml) runs this with exactly that class path.
 */
@Tag("mockwebserver4")
class MismatchedMockWebServerTest {
  @Test void theReferenceServerSaysWhatToAlign() {
    assertThatThrownBy(() -> ReferenceServer.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the reference server runs on MockWebServer (com.squareup.okhttp3:mockwebserver),"
            + " which must be the version of OkHttp on the class path, OkHttp 5.5.1: add"
            + " mockwebserver of that version, or import com.squareup.okhttp3:okhttp-bom"
            + " (docs/getting-started.md, \"Apps on OkHttp 5\");"
            + " java.lang.NoClassDefFoundError: okhttp3/internal/Util")
        .hasCauseInstanceOf(NoClassDefFoundError.class);
  }
}
